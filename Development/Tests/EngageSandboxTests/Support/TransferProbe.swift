import Foundation
@_spi(EngageProvider) @testable import EngageCore
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs one request through a URLSession delegate to see what a client sees on the wire: whether a
/// response head arrived (status, announced length), how many body bytes followed, and the error.
final class TransferProbe: NSObject, URLSessionDataDelegate, Sendable {
    struct Outcome: Sendable {
        var status: Int?
        var announcedLength: Int64?
        var receivedBytes = 0
        var error: (any Error)?
    }

    private let state = Locked<(outcome: Outcome, continuation: CheckedContinuation<Outcome, Never>?)>((Outcome(), nil))

    /// Sends `request` and returns what happened.
    static func run(_ request: URLRequest) async -> Outcome {
        let probe = TransferProbe()
        let session = URLSession(configuration: .ephemeral, delegate: probe, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        return await withCheckedContinuation { continuation in
            probe.state.withLock { $0.continuation = continuation }
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { state in
            state.outcome.status = (response as? HTTPURLResponse)?.statusCode
            state.outcome.announcedLength = response.expectedContentLength
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.outcome.receivedBytes += data.count }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (outcome, continuation) = state.withLock { state in
            state.outcome.error = error
            defer { state.continuation = nil }
            return (state.outcome, state.continuation)
        }
        continuation?.resume(returning: outcome)
    }
}
