import Crypto
@_spi(EngageProvider) import EngageCore
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
    /// Shared by every copy of this issuer (the emulators get copies): set from the sandbox UI.
    private let limit = Locked<Duration?>(nil)

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

    /// The longest lifetime of access tokens issued from now on, whatever the emulator asks for;
    /// `nil` (the default) leaves lifetimes alone. The sandbox UI sets it so that a developer can
    /// watch an app refresh. Copies of the issuer share it.
    public var accessTokenLifetimeLimit: Duration? { limit.value }

    /// Sets ``accessTokenLifetimeLimit`` (`nil` lifts it; a limit below one second counts as one).
    public func setAccessTokenLifetimeLimit(_ newLimit: Duration?) {
        limit.withLock { $0 = newLimit.map { max($0, .seconds(1)) } }
    }

    /// The lifetime an access token asked for with `requested` gets under ``accessTokenLifetimeLimit``:
    /// what an emulator reports as `expires_in` beside it.
    public func effectiveLifetime(_ requested: Duration) -> Duration {
        guard let limit = limit.value else { return requested }
        return min(requested, limit)
    }

    /// Issues a signed token.
    /// - Parameters:
    ///   - subject: The `sub` claim.
    ///   - lifetime: Seconds until `exp` (fractions are dropped); ``defaultLifetime`` when `nil`.
    ///   - extraClaims: Additional string claims; the registered names (`iss`, `sub`, `iat`, `exp`,
    ///     `jti`) are ignored here.
    ///   - isRefreshToken: A refresh token is exempt from ``accessTokenLifetimeLimit`` (the app must
    ///     be able to renew the short-lived access tokens with it).
    /// - Returns: The compact serialisation `header.claims.signature`.
    public func issue(
        subject: String, lifetime: Duration? = nil, extraClaims: [String: String] = [:], isRefreshToken: Bool = false
    ) -> String {
        let issuedAt = Int64(now().timeIntervalSince1970.rounded(.down))
        let requested = lifetime ?? defaultLifetime
        let seconds = (isRefreshToken ? requested : effectiveLifetime(requested)).components.seconds
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
