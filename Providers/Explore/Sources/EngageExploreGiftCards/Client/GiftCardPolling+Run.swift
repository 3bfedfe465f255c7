@_spi(EngageProvider) import EngageCore
import Foundation

/// What one status check of a purchase found.
package enum GiftCardPollStep<Value: Sendable>: Sendable {
    /// Delivered.
    case delivered(Value)
    /// Refused for good, with the message to report.
    case rejected(String)
    /// Not final yet, with the status seen.
    case pending(String)
}

extension GiftCardPolling {
    /// Checks up to `maxPolls` times, `interval` apart on `clock`: returns a delivered value, throws
    /// `.exploreGiftCardRejected` for a rejection, tolerates retryable failures as polls, and throws a
    /// retryable `.exploreGiftCardPending` naming `subject` and the last status when polling gives up.
    package func run<Value: Sendable>(
        clock: any EngageClock, subject: String, _ check: () async throws -> GiftCardPollStep<Value>
    ) async throws -> Value {
        var lastError: EngageError?
        var lastStatus = "unknown"
        for poll in 1...maxPolls {
            do {
                switch try await check() {
                case let .delivered(value):
                    return value
                case let .rejected(message):
                    throw EngageError(
                        .exploreGiftCardRejected, message, providerID: .explore,
                        recoverySuggestion: "The provider refunds a rejected purchase; choose another merchant or amount."
                    )
                case let .pending(status):
                    lastStatus = status
                }
            } catch let error as EngageError where error.isRetryable && error.code != .exploreGiftCardRejected {
                lastError = error
            }
            if poll < maxPolls { try await clock.sleep(for: interval) }
        }
        throw EngageError(
            .exploreGiftCardPending, "The \(subject) was not delivered after \(maxPolls) checks (last status: \(lastStatus)).",
            providerID: .explore, isRetryable: true, recoverySuggestion: "Check it again later.", underlyingError: lastError
        )
    }
}
