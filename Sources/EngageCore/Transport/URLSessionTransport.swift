import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport: Foundation's `URLSession` (FoundationNetworking on Linux).
///
/// Response size: with its own session (the default) the transport refuses a response whose
/// `Content-Length` is over the request's limit (`options.maxResponseBytes`, else 16 MiB) before reading
/// the body, and stops reading a body that grows past it, so a hostile server cannot exhaust memory.
/// With a session passed in, the body is read first and checked afterwards.
///
/// Timeouts and cancellation: with its own session, cancelling the calling task ends the call at
/// once, and a request that shows no sign of life for its timeout plus a grace of 5 s fails with
/// `.timeout` even if URLSession never reports back (a backstop for FoundationNetworking on Linux).
///
/// Downloads: with its own session and a request whose `options.bodyFile` is set, the body is written
/// to that file as it arrives (with progress reports) and the response's `body` is empty.
///
/// Redirects: URLSession never follows one by itself. The transport follows 301, 302, 303, 307 and 308
/// with every header and the body on the same origin, refuses a downgrade from https to http, and takes
/// nothing but content-negotiation headers to another origin (and never a body): a refused redirect
/// fails with `.redirectRefused`. The rule is the same on Apple platforms and Linux, with its own
/// session or one passed in.
///
/// Lifetime: its own session is invalidated (calls in flight finish first) when the last copy of the
/// transport is released, so no session or delegate outlives it. A session passed in belongs to the
/// caller.
@_spi(EngageProvider) public struct URLSessionTransport: HTTPTransport {
    /// URLSession enforces `options.timeout` itself (as `URLRequest.timeoutInterval`: the attempt fails
    /// with `.timeout` when no data arrives for that long), so the stack does not race it.
    public var enforcesTimeouts: Bool { true }

    private let session: URLSession
    let limiter: SizeLimitingSessionDelegate?
    /// Invalidates the transport's own session when the last copy of the transport goes away.
    private let ownership: SessionOwnership?
    /// The timeout used when a request has none of its own.
    public let defaultTimeout: Duration

    /// Uses `session` (an ephemeral session without a cookie store or URL cache by default: providers
    /// manage their own credentials and caching).
    public init(session: URLSession? = nil, defaultTimeout: Duration = .seconds(30)) {
        self.init(session: session, defaultTimeout: defaultTimeout, stallLimit: SizeLimitingSessionDelegate.defaultStallLimit)
    }

    /// Uses `session` or its own, whose requests are abandoned with `.timeout` once silent for
    /// `stallLimit(timeout)` (see `SizeLimitingSessionDelegate`).
    init(session: URLSession?, defaultTimeout: Duration, stallLimit: @escaping @Sendable (_ timeout: Duration) -> Duration) {
        if let session {
            self.session = session
            limiter = nil
            ownership = nil
        } else {
            let limiter = SizeLimitingSessionDelegate(stallLimit: stallLimit)
            let session = URLSessionTransport.makeDefaultSession(delegate: limiter)
            self.session = session
            self.limiter = limiter
            ownership = SessionOwnership(session: session)
        }
        self.defaultTimeout = defaultTimeout
    }

    /// Sends `request` and returns its response whatever the status, after following the redirects the
    /// redirect rule allows; throws `EngageError` when no response arrived, the body is over the size
    /// limit, or a redirect was refused.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        // The session is invalidated when the ownership goes away: keep it for the whole call, which
        // outlives this copy's last use of `ownership` otherwise.
        defer { withExtendedLifetime(ownership) {} }
        // The call's deadline on this transport's clock (transfers happen in real time), once for every
        // hop: a redirect does not give the call more time.
        let deadline = request.options.remaining.map { ContinuousClock.now + $0 }
        var current = request
        var lastStatus = 0
        for _ in 0...RedirectRule.maxRedirects {
            let response = try await sendOnce(current, deadline: deadline)
            guard RedirectRule.isRedirect(response.head) else { return response }
            lastStatus = response.status
            current = try RedirectRule.next(after: current, original: request, response: response.head).get()
        }
        throw RedirectRule.tooManyRedirects(status: lastStatus)
    }

    /// `operation`'s result, or a retryable `.timeout` once `deadline` passes (the operation is then
    /// cancelled).
    private static func racing<Value: Sendable>(
        _ deadline: ContinuousClock.Instant, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw EngageError(
                    .timeout, "The call reached its deadline.", isRetryable: true, recoverySuggestion: "Check the connection and try again."
                )
            }
            return value
        }
    }

    /// Sends one request (no redirect followed), abandoned at `deadline` when there is one.
    private func sendOnce(_ request: HTTPRequestMessage, deadline: ContinuousClock.Instant?) async throws -> HTTPResponseMessage {
        let urlRequest = try Self.urlRequest(for: request, defaultTimeout: defaultTimeout)
        let limit = request.options.maxResponseBytes ?? RequestOptions.defaultMaxResponseBytes
        let data: Data
        let urlResponse: URLResponse
        do {
            if let limiter {
                (data, urlResponse) = try await limiter.data(
                    for: urlRequest, in: session, limit: limit, bodyFile: request.options.bodyFile, deadline: deadline
                )
            } else if let deadline {
                // The app's own session has no watchdog: race the call's deadline.
                let sent = urlRequest
                let session = session
                (data, urlResponse) = try await Self.racing(deadline) { try await RedirectRefusingDelegate.data(for: sent, in: session) }
            } else {
                (data, urlResponse) = try await RedirectRefusingDelegate.data(for: urlRequest, in: session)
            }
        } catch let error as EngageError {
            throw error
        } catch let error as URLError {
            throw EngageError(urlError: error)
        } catch is CancellationError {
            throw EngageError(.cancelled, "The request was cancelled.")
        } catch {
            throw EngageError(.network, "The request failed: \(error.localizedDescription)", isRetryable: true, underlyingError: error)
        }
        guard let httpResponse = (urlResponse as? HTTPURLResponse)?.httpResponse else {
            throw EngageError(.network, "The server's answer is not an HTTP response.", isRetryable: true)
        }
        let response = HTTPResponseMessage(head: httpResponse, body: data)
        try response.enforceSizeLimit(limit)
        return response
    }

    /// The `URLRequest` URLSession sends for `request`: its head and body, the attempt's timeout
    /// (`options.timeout`, else `defaultTimeout`) and whether it may use a cellular network.
    package static func urlRequest(for request: HTTPRequestMessage, defaultTimeout: Duration) throws(EngageError) -> URLRequest {
        guard var urlRequest = URLRequest(httpRequest: request.head) else {
            // Never the query: it may carry secrets.
            let path = (request.head.path ?? "").split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            throw EngageError(.invalidInput, "The request has no valid URL: \(request.head.method.rawValue) \(path.prefix(200))")
        }
        urlRequest.httpBody = request.body
        urlRequest.timeoutInterval = (request.options.timeout ?? defaultTimeout).seconds
        urlRequest.allowsCellularAccess = request.options.allowsCellularAccess
        return urlRequest
    }

    private static func makeDefaultSession(delegate: SizeLimitingSessionDelegate) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }
}

/// Owns `URLSessionTransport`'s own session: URLSession keeps its delegate until it is invalidated, so
/// a session that is never invalidated leaks itself and its delegate.
private final class SessionOwnership: Sendable {
    let session: URLSession

    init(session: URLSession) { self.session = session }

    deinit { session.finishTasksAndInvalidate() }
}

/// The task delegate of calls through a session passed in: hands every redirect back to the transport,
/// which decides with `RedirectRule`.
private final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    static let shared = RedirectRefusingDelegate()

    /// Runs a data task of `session` with this object as its task delegate. Not `data(for:delegate:)`:
    /// FoundationNetworking ignores that delegate when it follows a redirect.
    static func data(for request: URLRequest, in session: URLSession) async throws -> (Data, URLResponse) {
        try Task.checkCancellation()
        let task = Locked<URLSessionDataTask?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                let dataTask = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: EngageError(.network, "The server sent no response.", isRetryable: true))
                    }
                }
                dataTask.delegate = shared
                task.withLock { $0 = dataTask }
                dataTask.resume()
                if Task.isCancelled { dataTask.cancel() }
            }
        } onCancel: {
            task.withLock { $0 }?.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
