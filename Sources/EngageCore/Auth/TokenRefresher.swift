/// Exchanges a token pair for a new one: the provider-specific half of `TokenManager`.
///
/// ```swift
/// /// The provider-specific half of a session: one refresh request, sent once (`allowsRetry: false`,
/// /// the refresh token rotates); `TokenManager` does single flight, storage, expiry and the breaker.
/// struct PerksRefresher: TokenRefresher {
///     let client: APIClient
///
///     private struct Answer: Decodable {
///         var accessToken: String
///         var refreshToken: String
///         enum CodingKeys: String, CodingKey { case accessToken = "access_token", refreshToken = "refresh_token" }
///     }
///
///     func refresh(_ tokens: TokenPair) async throws -> TokenPair {
///         let answer = try await client.json(
///             Answer.self, .post, "/auth/refresh", body: .json(["refresh_token": tokens.refreshToken ?? ""]),
///             options: RequestOptions(allowsRetry: false, authorization: .none)
///         )
///         return TokenPair(accessToken: answer.accessToken, refreshToken: answer.refreshToken)
///     }
/// }
/// ```
@_spi(EngageProvider) public protocol TokenRefresher: Sendable {
    /// Returns the new pair. Throw an `EngageError`; `classify` decides what the failure means.
    func refresh(_ tokens: TokenPair) async throws -> TokenPair

    /// Whether `error` means the refresh token was rejected (the session is over) or the failure is
    /// transient (tokens are kept). The default treats `.sessionExpired`, `.unauthorized` and HTTP 400,
    /// 401 and 403 as rejections.
    func classify(_ error: EngageError) -> RefreshFailure
}

/// What a failed refresh means.
@_spi(EngageProvider) public enum RefreshFailure: Sendable, Equatable {
    /// The refresh token was refused: tokens are cleared and the session ends.
    case rejected
    /// The refresh could not be completed now (network, 5xx): tokens are kept.
    case transient
}

extension TokenRefresher {
    /// Rejected for `.sessionExpired`, `.unauthorized` and HTTP 400, 401 and 403; transient otherwise.
    public func classify(_ error: EngageError) -> RefreshFailure {
        if error.code == .sessionExpired || error.code == .unauthorized { return .rejected }
        if let status = error.httpStatus, [400, 401, 403].contains(status) { return .rejected }
        return .transient
    }
}

/// A `TokenRefresher` from a closure.
@_spi(EngageProvider) public struct ClosureTokenRefresher: TokenRefresher {
    private let body: @Sendable (TokenPair) async throws -> TokenPair

    /// A refresher running `body`.
    public init(_ body: @escaping @Sendable (TokenPair) async throws -> TokenPair) {
        self.body = body
    }

    /// Runs the closure.
    public func refresh(_ tokens: TokenPair) async throws -> TokenPair {
        try await body(tokens)
    }
}
