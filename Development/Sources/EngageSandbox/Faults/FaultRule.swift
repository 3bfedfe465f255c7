import Foundation

/// When a matching ``FaultRule`` fires.
public enum FaultTrigger: Sendable, Hashable, Codable {
    /// Every matching request.
    case always
    /// The next `n` matching requests; then the rule retires.
    case times(Int)
    /// Each matching request with probability `p` (0...1), drawn from the host's seeded generator,
    /// so a given seed and request order give the same hits every run.
    case probability(Double)
}

/// Selects requests and the ``Fault`` to apply to them.
///
/// ```swift
/// host.faults.inject(FaultRule(.serviceUnavailable(retryAfter: 1), emulatorID: "reference",
///                              method: "POST", path: "/events", trigger: .times(2)))
/// ```
public struct FaultRule: Sendable, Hashable, Codable {
    /// The fault to apply.
    public var fault: Fault
    /// The emulator id to match, or `nil` for every emulator.
    public var emulatorID: String?
    /// The HTTP method to match (case-insensitive), or `nil` for every method.
    public var method: String?
    /// The emulator-relative path to match (without query): exact, or a prefix when it ends with
    /// `*`; `nil` for every path.
    public var path: String?
    /// When a matching request is hit.
    public var trigger: FaultTrigger

    /// Creates a rule.
    public init(
        _ fault: Fault, emulatorID: String? = nil, method: String? = nil, path: String? = nil,
        trigger: FaultTrigger = .always
    ) {
        self.fault = fault
        self.emulatorID = emulatorID
        self.method = method
        self.path = path
        self.trigger = trigger
    }

    /// Whether the rule selects this request (ignoring its trigger).
    public func matches(emulatorID: String, method: String, path: String) -> Bool {
        if let expected = self.emulatorID, expected != emulatorID { return false }
        if let expected = self.method, expected.caseInsensitiveCompare(method) != .orderedSame { return false }
        if let expected = self.path, !PathPattern(expected).matches(path) { return false }
        return true
    }
}
