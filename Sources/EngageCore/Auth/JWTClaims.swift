import Foundation

/// The registered claims of a JSON Web Token, decoded without verifying its signature.
///
/// A client cannot verify its server's signature (it does not hold the key) but it needs the expiry to
/// refresh in time. Use `JWTClaims(decoding:)` for that and nothing security-relevant.
@_spi(EngageProvider) public struct JWTClaims: Sendable, Equatable {
    /// `exp`: when the token expires.
    public var expiresAt: Date?
    /// `iat`: when the token was issued.
    public var issuedAt: Date?
    /// `nbf`: when the token becomes valid.
    public var notBefore: Date?
    /// `sub`: whom the token is about.
    public var subject: String?
    /// `iss`: who issued the token.
    public var issuer: String?

    /// Claims with the given values (all optional).
    public init(expiresAt: Date? = nil, issuedAt: Date? = nil, notBefore: Date? = nil, subject: String? = nil, issuer: String? = nil) {
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.notBefore = notBefore
        self.subject = subject
        self.issuer = issuer
    }

    /// Decodes the payload segment of `token`.
    ///
    /// - Throws: `EngageError` with code `.decoding` when the token is not a three-segment JWT with a
    ///   base64url JSON object payload, or a registered claim has the wrong type.
    public init(decoding token: String) throws {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = Base64URL.decode(segments[1]) else {
            throw EngageError(.decoding, "The token is not a JSON Web Token.")
        }
        guard payload.count <= 64 * 1024 else {
            throw EngageError(.decoding, "The token's payload is larger than 64 KiB.")
        }
        let registered: RegisteredClaims
        do {
            registered = try JSONDecoder().decode(RegisteredClaims.self, from: payload)
        } catch let error as DecodingError {
            throw EngageError(decodingError: error, what: "token payload")
        }
        func date(_ seconds: Double?) -> Date? {
            seconds.flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0) : nil }
        }
        self.init(
            expiresAt: date(registered.exp), issuedAt: date(registered.iat), notBefore: date(registered.nbf),
            subject: registered.sub, issuer: registered.iss
        )
    }
}

/// The wire form of the registered claims; unknown claims are ignored.
private struct RegisteredClaims: Decodable {
    var exp: Double?
    var iat: Double?
    var nbf: Double?
    var sub: String?
    var iss: String?
}
