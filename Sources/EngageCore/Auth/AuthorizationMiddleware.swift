import HTTPTypes

/// Applies a `RequestAuthorizer` and, after a 401, renews credentials and sends the request once more.
///
/// It never loops: a second 401 is returned to the caller as it is, and so is a first one when the
/// call's send budget (`NetworkSettings.maxSendsPerCall`) is spent.
public struct AuthorizationMiddleware: HTTPMiddleware {
    /// The scheme that adds and renews credentials.
    public let authorizer: any RequestAuthorizer

    /// A middleware applying `authorizer`.
    public init(authorizer: any RequestAuthorizer) {
        self.authorizer = authorizer
    }

    /// Authorises `request` (unless its options say `.none`) and resends it once after a renewed 401.
    public func intercept(
        _ request: HTTPRequestMessage,
        next: @escaping @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        guard request.options.authorization != .none else { return try await next(request) }
        var authorized = request
        try await authorizer.authorize(&authorized)
        let response = try await next(authorized)
        guard response.status == 401, request.mayBeSentAgain, try await authorizer.renewAfterUnauthorized(authorized) else {
            return response
        }
        var retry = request
        try await authorizer.authorize(&retry)
        return try await next(retry)
    }
}
