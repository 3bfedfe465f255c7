import Foundation

/// Published after every provider operation, successful or not.
///
/// Its name generalises the Warply SDK's analytics convention `custom_{success|error}_{op}_loyalty`:
/// `custom_success_<operation>_<suffix>` or `custom_error_<operation>_<suffix>`, where the suffix is the
/// provider's `ProviderDescriptor.eventSuffix` (its id unless the provider keeps a historical one).
public struct OperationEvent: EngageEvent {
    /// How the operation ended.
    public enum Outcome: Sendable {
        /// The operation returned normally.
        case success
        /// The operation failed with this error.
        case failure(EngageError)
    }

    /// The provider that ran the operation.
    public var providerID: ProviderID?
    /// The operation's name in snake case, e.g. `redeem_coupon`.
    public var operation: String
    /// The suffix used in `name`.
    public var eventSuffix: String
    /// Whether it succeeded, and the error if not.
    public var outcome: Outcome
    /// How long the operation took.
    public var duration: Duration

    /// An event for `operation` of `providerID`; `eventSuffix` defaults to the provider id.
    public init(providerID: ProviderID, operation: String, eventSuffix: String? = nil, outcome: Outcome, duration: Duration) {
        self.providerID = providerID
        self.operation = operation
        self.eventSuffix = eventSuffix ?? providerID.rawValue
        self.outcome = outcome
        self.duration = duration
    }

    /// Whether the operation succeeded.
    public var succeeded: Bool {
        if case .success = outcome { return true }
        return false
    }

    /// `custom_success_<operation>_<suffix>` or `custom_error_<operation>_<suffix>`.
    public var name: String {
        "custom_\(succeeded ? "success" : "error")_\(operation)_\(eventSuffix)"
    }

    /// `operation` and `duration_ms`, plus `error_code` and `http_status` for failures.
    public var attributes: [String: String] {
        var attributes = ["operation": operation, "duration_ms": String(Int((duration.seconds * 1000).rounded()))]
        if case let .failure(error) = outcome {
            attributes["error_code"] = error.code.rawValue
            if let status = error.httpStatus { attributes["http_status"] = String(status) }
        }
        return attributes
    }
}

/// Published when a provider's session ends because its refresh token was rejected.
public struct SessionEndedEvent: EngageEvent {
    /// The provider whose session ended.
    public var providerID: ProviderID?
    /// Why the session ended.
    public var reason: String

    /// A session end of `providerID`'s session for `reason` (e.g. `refresh_rejected`).
    public init(providerID: ProviderID?, reason: String) {
        self.providerID = providerID
        self.reason = reason
    }

    /// `session_ended`.
    public var name: String { "session_ended" }
    /// `reason`.
    public var attributes: [String: String] { ["reason": reason] }
}
