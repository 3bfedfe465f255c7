import Foundation

/// An access token with its optional refresh token and expiry.
///
/// When `expiresAt` is not given, it is read from the access token's JWT `exp` claim (if the token is a
/// JWT). Tokens are secrets: no printed, dumped or reflected form shows them (``SecretBearing``).
@_spi(EngageProvider) public struct TokenPair: Codable, Sendable, Equatable, SecretBearing {
    /// The token sent with requests.
    public var accessToken: String
    /// The token exchanged for a new pair, if the scheme has one.
    public var refreshToken: String?
    /// When the access token stops being accepted, if known.
    public var expiresAt: Date?
    /// When the access token was issued, if known (the JWT `iat`), on the issuer's clock.
    public var issuedAt: Date?
    /// When this device received the pair, on the device's clock. `TokenManager` records it; with
    /// ``issuedAt`` it shows a device clock that is off (see `clockSkew`).
    public package(set) var receivedAt: Date?

    /// A pair; `expiresAt` and `issuedAt` default to the access token's JWT `exp` and `iat`.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil, issuedAt: Date? = nil) {
        let claims = try? JWTClaims(decoding: accessToken)
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt ?? claims?.expiresAt
        self.issuedAt = issuedAt ?? claims?.issuedAt
    }

    /// How far the device's clock is ahead of the issuer's (negative: behind), as far as the pair
    /// shows it; `0` when it cannot tell.
    ///
    /// A pair received before it was issued (by more than a minute) proves the device is behind; one
    /// received after it expired proves the device is ahead (a token is issued valid). Either way the
    /// skew is the time between issue and receipt. A pair received within its lifetime shows nothing:
    /// it may simply be an older token, so its expiry is taken as it is (the safe side).
    package var clockSkew: TimeInterval {
        guard let issuedAt, let receivedAt, let expiresAt, expiresAt > issuedAt else { return 0 }
        let sinceIssue = receivedAt.timeIntervalSince(issuedAt)
        if sinceIssue < -60 || receivedAt >= expiresAt { return sinceIssue }
        return 0
    }

    /// When the access token expires on the device's clock: ``expiresAt`` moved by ``clockSkew``.
    package var localExpiresAt: Date? {
        expiresAt.map { $0.addingTimeInterval(clockSkew) }
    }

    /// Whether the device's clock cannot judge this token: it looked expired the moment it arrived,
    /// even after correcting for ``clockSkew`` (a token without an issue time, on a clock set ahead).
    package var arrivedExpired: Bool {
        guard let receivedAt, let localExpiresAt else { return false }
        return localExpiresAt <= receivedAt
    }

    /// Whether the access token is expired at `now` on the device's clock (`localExpiresAt`), or will
    /// be within `window`.
    ///
    /// For a short-lived token the window is capped at half its lifetime (when the issue time is
    /// known), so that a 5-minute window never makes a 5-minute token refresh on every use.
    public func needsRefresh(at now: Date, window: Duration = .zero) -> Bool {
        guard let expiresAt = localExpiresAt else { return false }
        var windowSeconds = window.seconds
        if let issuedAt, expiresAt > issuedAt {
            windowSeconds = min(windowSeconds, expiresAt.timeIntervalSince(issuedAt) / 2)
        }
        return expiresAt.timeIntervalSince(now) <= windowSeconds
    }

    /// Pairs are equal when their tokens and the issuer's times are: ``receivedAt`` is the device's
    /// bookkeeping, so a pair read back from a token manager equals the one handed to it.
    public static func == (lhs: TokenPair, rhs: TokenPair) -> Bool {
        lhs.accessToken == rhs.accessToken && lhs.refreshToken == rhs.refreshToken && lhs.expiresAt == rhs.expiresAt
            && lhs.issuedAt == rhs.issuedAt
    }

    /// A description with both tokens redacted.
    public var description: String {
        "TokenPair(accessToken: <redacted>, refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"), "
            + "expiresAt: \(expiresAt.map { String(describing: $0) } ?? "unknown"))"
    }
}
