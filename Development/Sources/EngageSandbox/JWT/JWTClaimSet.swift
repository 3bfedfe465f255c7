/// The wire form of a token's claims: registered claims are strings or integers, extras are strings.
struct JWTClaimSet: Codable {
    /// A claim value as this issuer writes it.
    enum Value: Codable, Equatable {
        case string(String)
        case integer(Int64)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let integer = try? container.decode(Int64.self) {
                self = .integer(integer)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            }
        }

        var string: String? {
            if case .string(let value) = self { return value }
            return nil
        }

        var integer: Int64? {
            if case .integer(let value) = self { return value }
            return nil
        }
    }

    var claims: [String: Value]

    init(claims: [String: Value]) {
        self.claims = claims
    }

    init(from decoder: any Decoder) throws {
        claims = try decoder.singleValueContainer().decode([String: Value].self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(claims)
    }

    /// The names this issuer writes itself; `extraClaims` cannot override them.
    static let registeredNames: Set<String> = ["iss", "sub", "iat", "exp", "jti"]
}
