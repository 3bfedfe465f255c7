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
public struct URLSessionTransport: HTTPTransport {
    /// URLSession enforces `options.timeout` itself (as `URLRequest.timeoutInterval`: the attempt fails
    /// with `.timeout` when no data arrives for that long), so the stack does not race it.
    public var enforcesTimeouts: Bool { true }

    private let session: URLSession
    private let limiter: SizeLimitingSessionDelegate?
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
        } else {
            let limiter = SizeLimitingSessionDelegate(stallLimit: stallLimit)
            self.session = URLSessionTransport.makeDefaultSession(delegate: limiter)
            self.limiter = limiter
        }
        self.defaultTimeout = defaultTimeout
    }

    /// Sends `request` and returns its response whatever the status; throws `EngageError` when no
    /// response arrived or the body is over the size limit.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        guard var urlRequest = URLRequest(httpRequest: request.head) else {
            // Never the query: it may carry secrets.
            let path = (request.head.path ?? "").split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            throw EngageError(.invalidInput, "The request has no valid URL: \(request.head.method.rawValue) \(path.prefix(200))")
        }
        urlRequest.httpBody = request.body
        urlRequest.timeoutInterval = (request.options.timeout ?? defaultTimeout).seconds
        let limit = request.options.maxResponseBytes ?? RequestOptions.defaultMaxResponseBytes
        let data: Data
        let urlResponse: URLResponse
        do {
            if let limiter {
                (data, urlResponse) = try await limiter.data(for: urlRequest, in: session, limit: limit, bodyFile: request.options.bodyFile)
            } else {
                (data, urlResponse) = try await session.data(for: urlRequest)
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

    private static func makeDefaultSession(delegate: SizeLimitingSessionDelegate) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }
}
