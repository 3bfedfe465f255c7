import Foundation

/// Published after every provider operation, successful or not.
///
/// Its name generalises the Warply SDK's analytics convention `custom_{success|error}_{op}_loyalty`:
/// `custom_success_<operation>_<suffix>` or `custom_error_<operation>_<suffix>`, where the suffix is the
/// provider's `ProviderDescriptor.eventSuffix` (its id unless the provider keeps a historical one).
public struct OperationEvent: EngageEvent {
    /// How the operation ended.
    public enum Outcome: Sendable {
        case success
        case failure(EngageError)
    }

    public var providerID: ProviderID?
    /// The operation's name in snake case, e.g. `redeem_coupon`.
    public var operation: String
    /// The suffix used in `name`.
    public var eventSuffix: String
    public var outcome: Outcome
    /// How long the operation took.
    public var duration: Duration

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

    public var name: String {
        "custom_\(succeeded ? "success" : "error")_\(operation)_\(eventSuffix)"
    }

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
    public var providerID: ProviderID?
    /// Why the session ended.
    public var reason: String

    public init(providerID: ProviderID?, reason: String) {
        self.providerID = providerID
        self.reason = reason
    }

    public var name: String { "session_ended" }
    public var attributes: [String: String] { ["reason": reason] }
}
