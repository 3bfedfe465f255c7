import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport: Foundation's `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    /// The timeout used when a request has none of its own.
    public let defaultTimeout: Duration

    /// Uses `session` (an ephemeral session without a cookie store or URL cache by default: providers
    /// manage their own credentials and caching).
    public init(session: URLSession? = nil, defaultTimeout: Duration = .seconds(30)) {
        self.session = session ?? URLSessionTransport.makeDefaultSession()
        self.defaultTimeout = defaultTimeout
    }

    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        guard var urlRequest = URLRequest(httpRequest: request.head) else {
            throw EngageError(.invalidInput, "The request has no valid URL: \(request.head.method.rawValue) \(request.head.path ?? "")")
        }
        urlRequest.httpBody = request.body
        urlRequest.timeoutInterval = (request.options.timeout ?? defaultTimeout).seconds
        let data: Data
        let urlResponse: URLResponse
        do {
            (data, urlResponse) = try await session.data(for: urlRequest)
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
        guard data.count <= request.options.maxResponseBytes else {
            throw EngageError(
                .decoding,
                "The response body is \(data.count) bytes, over the limit of \(request.options.maxResponseBytes).",
                httpStatus: httpResponse.status.code
            )
        }
        return HTTPResponseMessage(head: httpResponse, body: data)
    }

    private static func makeDefaultSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration)
    }
}
