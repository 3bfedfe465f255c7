@_spi(EngageProvider) import EngageCore
import Foundation

/// The host app's side of the Youll session. The app owns login and tokens (usually through its own
/// auth SDK); EngageKit asks it for the token, the user's identity and, when the token's JWT `exp` has
/// passed or the backend calls it invalid, for a refresh. EngageKit never stores the token.
///
/// ```swift
/// struct AppSession: YoullSession {
///     let auth: MyAuthClient
///     var isLoggedIn: Bool { get async { await auth.user != nil } }
///     func accessToken() async -> String? { await auth.jwt }
///     func userInfo() async -> YoullUserInfo { YoullUserInfo(userID: await auth.user?.id) }
///     func refreshToken() async throws -> String { try await auth.refresh() }
/// }
/// youll.setSession(AppSession(auth: auth))
/// ```
///
/// Rules the provider applies for every operation: when the operation needs no token, the token is
/// sent if there is one; when it needs one and there is none, it fails with
/// `.youllMissingAccessToken` without a network call; an expired token is refreshed first, by one
/// `refreshToken()` shared by every call waiting for it. After a refresh, `accessToken()` must return
/// the new token.
public protocol YoullSession: Sendable {
    /// Whether a user is logged in (a user id is then expected in ``userInfo()``).
    var isLoggedIn: Bool { get async }
    /// The current JWT access token, `nil` when there is none.
    func accessToken() async -> String?
    /// Who is using the app: sent as `x-hasura-user-id`, `device-id` and `x-hasura-role` (GraphQL) and
    /// `X-Youll-User-Id` (REST).
    func userInfo() async -> YoullUserInfo
    /// Whether `operation` (a ``YoullQuery/name`` or ``YoullMutation/name``) needs the access token; `byDefault` is the
    /// configuration's answer, which the default implementation returns.
    func requiresToken(operation: String, byDefault: Bool) -> Bool
    /// Obtains a new access token from the app's auth service.
    func refreshToken() async throws -> String
}

extension YoullSession {
    /// The configuration's answer (``YoullConfiguration/tokenRequiredOperations``).
    public func requiresToken(operation: String, byDefault: Bool) -> Bool { byDefault }
}

/// The user behind the session's requests.
public struct YoullUserInfo: Sendable, Hashable, Codable {
    /// The logged-in user's id, `nil` for a guest.
    public var userID: String?
    /// The device id; the provider's own persisted id (or the configured one) when `nil`.
    public var deviceID: String?
    /// The Hasura role; `user` when there is a user id, `guest` otherwise, when `nil`.
    public var role: String?

    /// A user (or a guest, with no `userID`).
    public init(userID: String? = nil, deviceID: String? = nil, role: String? = nil) {
        self.userID = userID
        self.deviceID = deviceID
        self.role = role
    }
}

/// The session of an app whose auth layer has completion handlers, as the seed's
/// `BricksNetworkDataSource` had.
///
/// ```swift
/// final class AuthBridge: YoullSessionDataSource, @unchecked Sendable {
///     var isLoggedIn: Bool { LegacyAuth.shared.isLoggedIn }
///     var accessToken: String? { LegacyAuth.shared.jwt }
///     var userInfo: YoullUserInfo { YoullUserInfo(userID: LegacyAuth.shared.userID) }
///     func refreshToken(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
///         LegacyAuth.shared.refresh { token, error in completion(token.map { .success($0) } ?? .failure(error ?? AuthError.unknown)) }
///     }
/// }
/// youll.setSession(YoullCallbackSession(AuthBridge()))
/// ```
public protocol YoullSessionDataSource: AnyObject, Sendable {
    /// Whether a user is logged in.
    var isLoggedIn: Bool { get }
    /// The current JWT access token, `nil` when there is none.
    var accessToken: String? { get }
    /// Who is using the app.
    var userInfo: YoullUserInfo { get }
    /// Whether `operation` needs the access token; `byDefault` is the configuration's answer.
    func requiresToken(operation: String, byDefault: Bool) -> Bool
    /// Refreshes the token and calls `completion` once with the new token or the failure.
    func refreshToken(completion: @escaping @Sendable (Result<String, any Error>) -> Void)
}

extension YoullSessionDataSource {
    /// The configuration's answer.
    public func requiresToken(operation: String, byDefault: Bool) -> Bool { byDefault }
}

/// A ``YoullSession`` over a completion-handler ``YoullSessionDataSource``.
///
/// A refresh whose completion is never called fails after `refreshTimeout`, and a completion called
/// more than once is used once, so a faulty bridge cannot hang or crash the provider.
public struct YoullCallbackSession: YoullSession {
    private let dataSource: any YoullSessionDataSource
    private let refreshTimeout: Duration

    /// A session asking `dataSource`, giving up on a refresh after `refreshTimeout` (30 s by default).
    public init(_ dataSource: any YoullSessionDataSource, refreshTimeout: Duration = .seconds(30)) {
        self.dataSource = dataSource
        self.refreshTimeout = refreshTimeout
    }

    /// The data source's answer.
    public var isLoggedIn: Bool { get async { dataSource.isLoggedIn } }
    /// The data source's token.
    public func accessToken() async -> String? { dataSource.accessToken }
    /// The data source's user.
    public func userInfo() async -> YoullUserInfo { dataSource.userInfo }
    /// The data source's answer.
    public func requiresToken(operation: String, byDefault: Bool) -> Bool {
        dataSource.requiresToken(operation: operation, byDefault: byDefault)
    }

    /// Calls the data source's `refreshToken(completion:)` and waits for its first answer.
    public func refreshToken() async throws -> String {
        let dataSource = self.dataSource
        let timeout = refreshTimeout
        return try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask {
                let once = OnceContinuation()
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                        once.install(continuation)
                        dataSource.refreshToken { result in once.resume(with: result) }
                    }
                } onCancel: {
                    once.resume(with: .failure(CancellationError()))
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw EngageError(
                    .timeout, "The host app's token refresh did not answer within \(timeout).", providerID: .youll,
                    recoverySuggestion: "Make YoullSessionDataSource.refreshToken(completion:) call its completion exactly once."
                )
            }
            defer { group.cancelAll() }
            guard let token = try await group.next() else {
                throw EngageError(.internal, "The token refresh ended without an answer.", providerID: .youll)
            }
            return token
        }
    }
}

/// A continuation resumed by the first of several possible answers (a completion called once, twice
/// or never, and cancellation); later answers are dropped.
private final class OnceContinuation: Sendable {
    private enum State {
        case waiting
        case installed(CheckedContinuation<String, any Error>)
        case answeredEarly(Result<String, any Error>)
        case done
    }

    private let state = Locked(State.waiting)

    func install(_ continuation: CheckedContinuation<String, any Error>) {
        let early = state.withLock { state -> Result<String, any Error>? in
            if case let .answeredEarly(result) = state {
                state = .done
                return result
            }
            state = .installed(continuation)
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(with result: Result<String, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<String, any Error>? in
            switch state {
            case .waiting:
                state = .answeredEarly(result)
                return nil
            case let .installed(continuation):
                state = .done
                return continuation
            case .answeredEarly, .done:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}

/// The session before the app hands one over: a guest without a token.
struct GuestSession: YoullSession {
    var isLoggedIn: Bool { get async { false } }
    func accessToken() async -> String? { nil }
    func userInfo() async -> YoullUserInfo { YoullUserInfo() }
    func refreshToken() async throws -> String {
        throw EngageError(
            .unauthorized, "No Youll session: the app has not handed one over.", providerID: .youll,
            recoverySuggestion: "Call YoullProvider.setSession(_:) once the user logs in.")
    }
}

/// The current session, swappable at any time, as the token source of the core's host-token
/// authoriser (which shares one refresh among every waiting call).
final class YoullSessionBox: HostTokenProvider {
    private let current = Locked<any YoullSession>(GuestSession())

    var session: any YoullSession {
        get { current.value }
        set { current.withLock { $0 = newValue } }
    }

    func accessToken() async -> String? {
        let token = await session.accessToken()
        return token?.isEmpty == true ? nil : token
    }

    func refreshAccessToken() async throws -> String {
        try await session.refreshToken()
    }
}
