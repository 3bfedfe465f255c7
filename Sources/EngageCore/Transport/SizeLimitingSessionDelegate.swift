import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs data tasks of `URLSessionTransport`'s own session and enforces each one's response size limit
/// while the response arrives: a `Content-Length` over the limit cancels the task before the body is
/// read, and a body growing past it cancels the task at once.
///
/// It never leaves a caller waiting on URLSession alone: a cancelled caller is answered at once (the
/// task is cancelled behind it), and a transfer that shows no sign of life for longer than its timeout
/// plus a grace (``stallLimit``) is abandoned with `.timeout` (see ``watch(_:id:after:)``), whether or not
/// URLSession's own timer fires.
final class SizeLimitingSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    struct Transfer {
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>
        var limit: Int
        var body = Data()
        /// Where the body goes instead of `body`, when the request streams to a file.
        var sink: BodyFileSink?
        var received: Int64 = 0
        var response: URLResponse?
        var failure: EngageError?
        /// Set when this delegate declined an authentication challenge for the task (Linux only).
        var declinedChallenge = false
        /// How long the transfer may stay silent before the watchdog abandons it.
        var allowedSilence: Duration
        /// When the task last showed a sign of life (its start, its response head, a chunk of body).
        var lastActivity: ContinuousClock.Instant
        /// When the call must be over however much it is still moving (the call's deadline).
        var deadline: ContinuousClock.Instant?
    }

    let transfers = Locked<[Int: Transfer]>([:])
    /// How long a transfer with a given timeout may stay silent before this delegate abandons it:
    /// longer than the timeout, since URLSession's own timer normally ends it first.
    let stallLimit: @Sendable (_ timeout: Duration) -> Duration
    let watchdogQueue = DispatchQueue(label: "org.engagekit.transport.watchdog")

    /// The default ``stallLimit``: the request's timeout plus 5 s.
    static let defaultStallLimit: @Sendable (_ timeout: Duration) -> Duration = { $0 + .seconds(5) }

    /// A delegate abandoning transfers silent for `stallLimit(timeout)`.
    init(stallLimit: @escaping @Sendable (_ timeout: Duration) -> Duration = defaultStallLimit) {
        self.stallLimit = stallLimit
    }

    /// Sends `request` through `session` (whose delegate must be this object) and collects its body
    /// (or writes it to `bodyFile`).
    ///
    /// Cancelling the calling task ends the call at once with `CancellationError` and cancels the
    /// URLSession task.
    func data(
        for request: URLRequest, in session: URLSession, limit: Int, bodyFile: ResponseBodyFile? = nil,
        deadline: ContinuousClock.Instant? = nil
    ) async throws -> (Data, URLResponse) {
        try Task.checkCancellation()
        let sink = try bodyFile.map(BodyFileSink.init)
        defer { sink?.close() }
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        let allowedSilence = stallLimit(.seconds(double: request.timeoutInterval))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                transfers.withLock {
                    $0[id] = Transfer(
                        continuation: continuation, limit: limit, sink: sink, allowedSilence: allowedSilence, lastActivity: .now,
                        deadline: deadline
                    )
                }
                // A cancellation that arrived before the transfer was registered found nothing to end.
                if Task.isCancelled {
                    abandon(task, id: id, with: CancellationError())
                    return
                }
                task.resume()
                watch(task, id: id, after: deadline.map { min(allowedSilence, max($0 - .now, .zero)) } ?? allowedSilence)
            }
        } onCancel: {
            abandon(task, id: id, with: CancellationError())
        }
    }

    /// Ends the caller's wait for the transfer `id` with `error` (if it is still waiting) and cancels
    /// `task`; URLSession's later completion finds no transfer and is ignored.
    func abandon(_ task: URLSessionTask, id: Int, with error: any Error) {
        let transfer = transfers.withLock { $0.removeValue(forKey: id) }
        task.cancel()
        transfer?.continuation.resume(throwing: error)
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
            transfer.lastActivity = .now
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
        // Under the lock: the limit and the count (and the in-memory body). The file write and the
        // progress report happen outside it; one task's delegate calls never overlap.
        let (overLimit, sink, progress) = transfers.withLock { transfers -> (Bool, BodyFileSink?, TransferProgress?) in
            guard let transfer = transfers[id], transfer.failure == nil else { return (false, nil, nil) }
            if transfer.received + Int64(data.count) > Int64(transfer.limit) {
                let status = (transfer.response as? HTTPURLResponse)?.statusCode
                transfers[id]?.failure = EngageError.responseTooLarge(
                    bytes: Int(clamping: transfer.received + Int64(data.count)), limit: transfer.limit, httpStatus: status
                )
                transfers[id]?.body = Data()
                return (true, nil, nil)
            }
            transfers[id]?.received += Int64(data.count)
            transfers[id]?.lastActivity = .now
            guard let sink = transfer.sink else {
                // Appended in place: copying the transfer out and back would copy the body on every chunk.
                transfers[id]?.body.append(data)
                return (false, nil, nil)
            }
            let declared = transfer.response?.expectedContentLength ?? -1
            let progress = TransferProgress(
                receivedBytes: transfer.received + Int64(data.count), expectedBytes: declared >= 0 ? declared : nil)
            return (false, sink, progress)
        }
        if overLimit {
            dataTask.cancel()
            return
        }
        guard let sink else { return }
        do {
            try sink.write(data)
        } catch {
            transfers.withLock {
                $0[id]?.failure = EngageError(
                    .storage, "The download could not be written: \(error.localizedDescription)", underlyingError: error)
            }
            dataTask.cancel()
            return
        }
        if let progress { sink.progress?(progress) }
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

    /// Hands every redirect back to the transport, which follows it or not by `RedirectRule`.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
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
