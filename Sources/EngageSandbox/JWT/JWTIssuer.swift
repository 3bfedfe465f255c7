import Crypto
import Foundation

/// Issues and verifies HS256 JSON Web Tokens, the way the emulated backends sign their access tokens.
///
/// Tokens carry `iss`, `sub`, `iat`, `exp` (whole seconds, read from the injected ``now``) and a unique
/// `jti` drawn from a seeded generator, so a run is reproducible from its seed and clock.
///
/// ```swift
/// let issuer = JWTIssuer(secret: "s3cret", defaultLifetime: .seconds(60), now: { clock.now })
/// let token = issuer.issue(subject: "alice")
/// let claims = try issuer.verify(token)   // throws .expired once clock.now passes exp
/// ```
public struct JWTIssuer: Sendable {
    /// The `iss` claim written into every token.
    public let issuer: String
    /// The lifetime of a token issued without an explicit one.
    public let defaultLifetime: Duration
    /// The clock used for `iat`, `exp` and expiry checks.
    public let now: @Sendable () -> Date

    private let key: SymmetricKey
    private let tokenIDs: LockedGenerator

    /// Creates an issuer.
    /// - Parameters:
    ///   - secret: The HMAC-SHA256 key (its UTF-8 bytes).
    ///   - issuer: The `iss` claim.
    ///   - defaultLifetime: The lifetime of tokens issued without one.
    ///   - seed: Seeds the generator of `jti` values.
    ///   - now: The clock.
    public init(
        secret: String,
        issuer: String = "engage-sandbox",
        defaultLifetime: Duration = .seconds(300),
        seed: UInt64 = 0,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.issuer = issuer
        self.defaultLifetime = defaultLifetime
        self.now = now
        self.key = SymmetricKey(data: Data(secret.utf8))
        self.tokenIDs = LockedGenerator(SeededGenerator(seed: seed, stream: "jwt/jti"))
    }

    /// Issues a signed token.
    /// - Parameters:
    ///   - subject: The `sub` claim.
    ///   - lifetime: Seconds until `exp` (fractions are dropped); ``defaultLifetime`` when `nil`.
    ///   - extraClaims: Additional string claims; the registered names (`iss`, `sub`, `iat`, `exp`,
    ///     `jti`) are ignored here.
    /// - Returns: The compact serialisation `header.claims.signature`.
    public func issue(subject: String, lifetime: Duration? = nil, extraClaims: [String: String] = [:]) -> String {
        let issuedAt = Int64(now().timeIntervalSince1970.rounded(.down))
        let seconds = (lifetime ?? defaultLifetime).components.seconds
        var claims: [String: JWTClaimSet.Value] = [:]
        for (name, value) in extraClaims where !JWTClaimSet.registeredNames.contains(name) {
            claims[name] = .string(value)
        }
        claims["iss"] = .string(issuer)
        claims["sub"] = .string(subject)
        claims["iat"] = .integer(issuedAt)
        claims["exp"] = .integer(issuedAt + seconds)
        claims["jti"] = .string(tokenIDs.withGenerator { $0.nextHex(byteCount: 16) })

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a dictionary of strings and integers cannot fail.
        let payload = (try? encoder.encode(JWTClaimSet(claims: claims))) ?? Data("{}".utf8)
        let signingInput = Self.encodedHeader + "." + Base64URL.encode(payload)
        return signingInput + "." + Base64URL.encode(signature(of: signingInput))
    }

    func signature(of signingInput: String) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key))
    }

    func isValidSignature(_ signature: Data, for signingInput: String) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(signingInput.utf8), using: key)
    }

    /// `{"alg":"HS256","typ":"JWT"}` in base64url.
    static let encodedHeader = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
}
