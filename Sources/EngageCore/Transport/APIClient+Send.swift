import Foundation
import HTTPTypes
import Logging

extension APIClient {
    /// Sends `request` as one call and returns its value: the 2xx answer read as the request says, once
    /// the ``policy`` has judged it.
    ///
    /// The call is one loop. Each attempt is authorised and sent through ``transport``; the policy
    /// judges the answer once. A value ends the call. A failure ends it too, unless its error is
    /// retryable, the answer's status is one the ``retry`` policy retries, the request is safe to send
    /// again (`HTTPRequestMessage.isSafeToRepeat`, or a status that says the server did not process
    /// it: 408, 425, 429, 503), attempts are left and the wait (a `Retry-After` up to
    /// `retry.maxRetryAfter`, else the back-off) ends before the call's deadline; a transport failure
    /// is retried under the same conditions. A refused credential is renewed by the ``authorizer`` and
    /// the request sent once more, and whatever answers that resend is final. The whole call stays
    /// within its deadline (`options.deadline`, else ``callDeadline``).
    public func send<Value>(_ request: APIRequest<Value>) async throws(EngageError) -> Value {
        var message = try makeRequest(
            request.method, request.path, query: request.query, encodedQuery: request.encodedQuery, headers: request.headers,
            body: request.body, options: request.options)
        if message.options.expiresAt == nil {
            message.options.expiresAt = clock.uptime + (message.options.deadline ?? callDeadline)
        }
        let maxAttempts = message.options.allowsRetry ? retry.maxAttempts : 1
        var attempt = 1
        while true {
            let failure: EngageError
            let answer: HTTPResponseMessage?
            switch await exchange(message, reading: request.reading) {
            case let .value(value):
                return value
            case let .failed(error, response):
                (failure, answer) = (error, response)
            case let .rejected(error, rejection):
                return try await resend(message, reading: request.reading, after: rejection, failure: error)
            }
            guard attempt < maxAttempts, let delay = retryDelay(after: failure, answer: answer, request: message, attempt: attempt),
                message.options.expiresAt.map({ clock.uptime + delay < $0 }) ?? true  // no retry past the call's deadline
            else { throw failure }
            logger.debug(
                "Retrying request",
                metadata: [
                    "attempt": "\(attempt + 1)/\(maxAttempts)", "delay_ms": "\(Int(delay.seconds * 1000))",
                    "operation": "\(message.options.operationName?.rawValue ?? message.head.method.rawValue)",
                ]
            )
            do {
                try await clock.sleep(for: delay)
            } catch {
                throw EngageError.wrapping(error, providerID: providerID)
            }
            attempt += 1
        }
    }

    /// What one attempt came to.
    private enum Step<Value> {
        /// The call's value.
        case value(Value)
        /// A failure: of the answer (`response`), or of authorising or sending (`nil`).
        case failed(EngageError, HTTPResponseMessage?)
        /// The server refused a credential; `EngageError` is the call's failure if it cannot be renewed.
        case rejected(EngageError, CredentialRejection)
    }

    /// One attempt: authorise `message`, send it, and judge the answer.
    private func exchange<Value>(_ message: HTTPRequestMessage, reading: APIRequest<Value>.Reading) async -> Step<Value> {
        var sent = message
        let response: HTTPResponseMessage
        do {
            if sent.options.authorization != .none { try await authorizer.authorize(&sent) }
            response = try await receive(sent)
        } catch {
            return .failed(EngageError.wrapping(error, providerID: providerID), nil)
        }
        return judge(response, to: sent, reading: reading)
    }

    /// The one resend after the server refused a credential: renewed when the request carries
    /// credentials and the authoriser can renew them, else `failure` ends the call. Its answer is final.
    private func resend<Value>(
        _ message: HTTPRequestMessage, reading: APIRequest<Value>.Reading, after rejection: CredentialRejection, failure: EngageError
    ) async throws(EngageError) -> Value {
        guard message.options.authorization != .none else { throw failure }
        let renewed: Bool
        do {
            renewed = try await authorizer.renew(after: rejection)
        } catch {
            throw EngageError.wrapping(error, providerID: providerID)
        }
        guard renewed else { throw failure }
        switch await exchange(message, reading: reading) {
        case let .value(value): return value
        case let .failed(error, _), let .rejected(error, _): throw error
        }
    }

    /// `request` sent through the transport; a non-2xx answer streamed to a file has its (small) body
    /// read back for the policy, and the file removed.
    private func receive(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        var response = try await transport.send(request)
        if !response.isSuccess, let file = request.options.bodyFile?.url {
            if response.body.isEmpty, let size = Self.fileSize(file), size <= 65_536 {
                response.body = (try? Data(contentsOf: file)) ?? Data()
            }
            try? FileManager.default.removeItem(at: file)
        }
        return response
    }

    /// The verdict on `response`, the answer to `request` as sent: the policy's rules first, then the
    /// standard judgement (2xx: the value `reading` makes of it; 401: a refused access token; anything
    /// else: `EngageError.http` with the server's message). A 429 or 503 failure carries the answer's
    /// `Retry-After` as `EngageError.retryAfter`.
    private func judge<Value>(
        _ response: HTTPResponseMessage, to request: HTTPRequestMessage, reading: APIRequest<Value>.Reading
    ) -> Step<
        Value
    > {
        var decoded: Result<Value, EngageError>?
        if response.isSuccess {
            do {
                decoded = .success(try reading.read(response))
            } catch {
                decoded = .failure(decodingError(error))
            }
        }
        let value: (any Sendable)? = reading.isTyped ? (try? decoded?.get()) : nil
        let answer = ResponsePolicy.Answer(response: response, request: request, value: value, redactor: redactor)
        func rejected(_ error: EngageError, _ credential: CredentialRejection.Credential) -> Step<Value> {
            .rejected(error, CredentialRejection(request: request, response: response, credential: credential))
        }
        switch policy.verdict(on: answer) {
        case let .fail(error):
            return .failed(attributed(error, answer: response), response)
        case let .credentialRejected(error, credential):
            return rejected(attributed(error, answer: response), credential)
        case .accept:
            switch decoded {
            case let .success(value): return .value(value)
            case let .failure(error): return .failed(error, response)
            case nil: break
            }
            let error = attributed(
                EngageError.http(status: response.status, providerID: providerID, message: serverMessage(in: response)), answer: response)
            return response.status == 401 ? rejected(error, .accessToken) : .failed(error, response)
        }
    }

    /// `error` attributed to this client's provider, with the `Retry-After` of a 429 or 503 answer.
    private func attributed(_ error: EngageError, answer: HTTPResponseMessage) -> EngageError {
        let error = EngageError.wrapping(error, providerID: providerID)
        guard error.retryAfter == nil, answer.status == 429 || answer.status == 503 else { return error }
        return error.withRetryAfter(RetryPolicy.retryAfterDelay(answer.header("Retry-After"), now: clock.now))
    }

    private static let notProcessedStatuses: Set<Int> = [408, 425, 429, 503]

    /// The wait before sending again after `failure` (of `answer`, or of the attempt itself when
    /// `nil`), or `nil` when the call must not be repeated.
    func retryDelay(after failure: EngageError, answer: HTTPResponseMessage?, request: HTTPRequestMessage, attempt: Int) -> Duration? {
        guard failure.isRetryable, failure.code != .cancelled else { return nil }
        guard let answer else {
            return request.isSafeToRepeat ? retry.delay(afterAttempt: attempt, randomFraction: random.nextFraction()) : nil
        }
        guard retry.retryableStatuses.contains(answer.status),
            request.isSafeToRepeat || Self.notProcessedStatuses.contains(answer.status)
        else { return nil }
        if let retryAfter = RetryPolicy.retryAfterDelay(answer.header("Retry-After"), now: clock.now) {
            return retryAfter <= retry.maxRetryAfter ? retryAfter : nil
        }
        return retry.delay(afterAttempt: attempt, randomFraction: random.nextFraction())
    }
}
