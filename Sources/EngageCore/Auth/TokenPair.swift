import Foundation

/// An access token with its optional refresh token and expiry.
///
/// When `expiresAt` is not given, it is read from the access token's JWT `exp` claim (if the token is a
/// JWT). Tokens are secrets: `description` never prints them.
public struct TokenPair: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The token sent with requests.
    public var accessToken: String
    /// The token exchanged for a new pair, if the scheme has one.
    public var refreshToken: String?
    /// When the access token stops being accepted, if known.
    public var expiresAt: Date?

    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt ?? (try? JWTClaims(decoding: accessToken))?.expiresAt
    }

    /// Whether the access token is expired at `now`, or will be within `window`.
    public func needsRefresh(at now: Date, window: Duration = .zero) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(now) <= window.seconds
    }

    public var description: String {
        "TokenPair(accessToken: <redacted>, refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"), "
            + "expiresAt: \(expiresAt.map { String(describing: $0) } ?? "unknown"))"
    }
}
