import Foundation
import HTTPTypes
import Logging

/// Logs each request and its outcome, with secrets redacted.
///
/// At `.debug`: method, redacted URL, status and duration. At `.trace`: also redacted headers and
/// body excerpts. Nothing is formatted when the logger's level excludes it.
package struct LoggingMiddleware: HTTPMiddleware {
    /// Receives the log lines.
    public let logger: Logger
    /// Removes secrets before anything is logged.
    public let redactor: Redactor
    /// What the logged durations are measured on (its `uptime`).
    public let clock: any EngageClock

    /// A middleware logging to `logger` through `redactor`, timing requests on `clock`.
    public init(logger: Logger, redactor: Redactor = Redactor(), clock: any EngageClock = SystemClock()) {
        self.logger = logger
        self.redactor = redactor
        self.clock = clock
    }

    /// Logs the request and its outcome, then passes the response or error on unchanged.
    public func intercept(
        _ request: HTTPRequestMessage,
        next: @escaping @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        let start = clock.uptime
        let summary = logger.logLevel <= .debug ? request.redactedSummary(using: redactor) : ""
        if logger.logLevel <= .trace {
            logger.trace(
                "→ \(summary)",
                metadata: [
                    "headers": "\(redactor.redact(headers: request.head.headerFields))",
                    "body": "\(redactor.redact(body: request.body ?? Data(), contentType: request.head.headerFields[.contentType]))",
                ]
            )
        }
        do {
            let response = try await next(request)
            let elapsed = clock.uptime - start
            if logger.logLevel <= .debug {
                var metadata: Logger.Metadata = ["status": "\(response.status)", "ms": "\(Int(elapsed.seconds * 1000))"]
                if let operation = request.options.operationName { metadata["operation"] = "\(operation)" }
                if logger.logLevel <= .trace {
                    metadata["body"] = "\(redactor.redact(body: response.body, contentType: response.header("Content-Type")))"
                }
                logger.debug("← \(summary)", metadata: metadata)
            }
            return response
        } catch {
            let engageError = EngageError.wrapping(error)
            logger.debug(
                "✗ \(summary)",
                metadata: [
                    "error": "\(redactor.redact(text: engageError.description))", "ms": "\(Int((clock.uptime - start).seconds * 1000))",
                ]
            )
            throw error
        }
    }
}
