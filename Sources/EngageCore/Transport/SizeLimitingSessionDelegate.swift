import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs data tasks of `URLSessionTransport`'s own session and enforces each one's response size limit
/// while the response arrives: a `Content-Length` over the limit cancels the task before the body is
/// read, and a body growing past it cancels the task at once.
final class SizeLimitingSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer {
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>
        var limit: Int
        var body = Data()
        var response: URLResponse?
        var failure: EngageError?
        /// Set when this delegate declined an authentication challenge for the task (Linux only).
        var declinedChallenge = false
    }

    private let transfers = Mutex<[Int: Transfer]>([:])

    /// Sends `request` through `session` (whose delegate must be this object) and collects its body.
    func data(for request: URLRequest, in session: URLSession, limit: Int) async throws -> (Data, URLResponse) {
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                transfers.withLock { $0[id] = Transfer(continuation: continuation, limit: limit) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let id = dataTask.taskIdentifier
        let status = (response as? HTTPURLResponse)?.statusCode
        let declared = response.expectedContentLength
        let allowed = transfers.withLock { transfers -> Bool in
            guard var transfer = transfers[id] else { return true }
            if declared > Int64(transfer.limit) {
                transfer.failure = EngageError.responseTooLarge(
                    bytes: Int(clamping: declared), limit: transfer.limit, httpStatus: status
                )
                transfers[id] = transfer
                return false
            }
            transfer.response = response
            transfers[id] = transfer
            return true
        }
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        let overLimit = transfers.withLock { transfers -> Bool in
            guard let transfer = transfers[id], transfer.failure == nil else { return false }
            if transfer.body.count + data.count > transfer.limit {
                let status = (transfer.response as? HTTPURLResponse)?.statusCode
                transfers[id]?.failure = EngageError.responseTooLarge(
                    bytes: transfer.body.count + data.count, limit: transfer.limit, httpStatus: status
                )
                transfers[id]?.body = Data()
                return true
            }
            // Appended in place: copying the transfer out and back would copy the body on every chunk.
            transfers[id]?.body.append(data)
            return false
        }
        if overLimit { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = transfer.failure {
            transfer.continuation.resume(throwing: failure)
        } else if transfer.declinedChallenge, let response = transfer.response ?? task.response {
            // The cancellation error is ours (see the challenge handler): hand on the 401 that arrived.
            transfer.continuation.resume(returning: (transfer.body, response))
        } else if let error {
            transfer.continuation.resume(throwing: error)
        } else if let response = transfer.response ?? task.response {
            transfer.continuation.resume(returning: (transfer.body, response))
        } else {
            transfer.continuation.resume(throwing: EngageError(.network, "The server sent no response.", isRetryable: true))
        }
    }

    #if canImport(FoundationNetworking)
        /// Declines an HTTP authentication challenge that has no stored credential to answer it.
        ///
        /// A `401` carrying `WWW-Authenticate` raises a challenge in swift-corelibs-foundation, and its
        /// default handling with no credential on offer does nothing: the task never completes
        /// (swift-corelibs-foundation #5456, fixed upstream after Swift 6.3). EngageKit authenticates in
        /// headers it sets itself, so the challenge is declined; the task then ends with a cancellation
        /// that ``urlSession(_:task:didCompleteWithError:)`` turns back into the `401` response, as
        /// Darwin reports it. A credential the session's own storage proposes keeps the default handling.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            guard challenge.proposedCredential == nil else {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            transfers.withLock { $0[task.taskIdentifier]?.declinedChallenge = true }
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    #endif
}
