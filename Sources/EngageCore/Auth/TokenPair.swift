import Foundation

/// An access token with its optional refresh token and expiry.
///
/// When `expiresAt` is not given, it is read from the access token's JWT `exp` claim (if the token is a
/// JWT). Tokens are secrets: no printed, dumped or reflected form shows them (``SecretBearing``).
public struct TokenPair: Codable, Sendable, Equatable, SecretBearing {
    /// The token sent with requests.
    public var accessToken: String
    /// The token exchanged for a new pair, if the scheme has one.
    public var refreshToken: String?
    /// When the access token stops being accepted, if known.
    public var expiresAt: Date?
    /// When the access token was issued, if known (the JWT `iat`).
    public var issuedAt: Date?

    /// A pair; `expiresAt` and `issuedAt` default to the access token's JWT `exp` and `iat`.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil, issuedAt: Date? = nil) {
        let claims = try? JWTClaims(decoding: accessToken)
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt ?? claims?.expiresAt
        self.issuedAt = issuedAt ?? claims?.issuedAt
    }

    /// Whether the access token is expired at `now`, or will be within `window`.
    ///
    /// For a short-lived token the window is capped at half its lifetime (when the issue time is
    /// known), so that a 5-minute window never makes a 5-minute token refresh on every use.
    public func needsRefresh(at now: Date, window: Duration = .zero) -> Bool {
        guard let expiresAt else { return false }
        var windowSeconds = window.seconds
        if let issuedAt, expiresAt > issuedAt {
            windowSeconds = min(windowSeconds, expiresAt.timeIntervalSince(issuedAt) / 2)
        }
        return expiresAt.timeIntervalSince(now) <= windowSeconds
    }

    /// A description with both tokens redacted.
    public var description: String {
        "TokenPair(accessToken: <redacted>, refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"), "
            + "expiresAt: \(expiresAt.map { String(describing: $0) } ?? "unknown"))"
    }
}
