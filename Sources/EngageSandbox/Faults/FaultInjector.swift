import EngageCore

/// Identifies an injected ``FaultRule`` so it can be removed.
public struct FaultRuleID: Sendable, Hashable, Codable {
    /// The raw identifier, unique per injector.
    public let rawValue: Int
}

/// Holds the fault rules of a ``SandboxHost`` and decides, request by request, which fault applies.
///
/// Rules are evaluated in the order they were injected; the first matching rule whose trigger fires
/// wins. Thread-safe.
public final class FaultInjector: Sendable {
    private struct ActiveRule {
        var id: FaultRuleID
        var rule: FaultRule
        var remaining: Int?
    }

    private struct State {
        var rules: [ActiveRule] = []
        var nextID = 0
        var generator: SeededGenerator
    }

    private let state: Locked<State>

    /// Creates an injector whose probabilistic triggers draw from `generator`.
    public init(generator: SeededGenerator) {
        self.state = Locked(State(generator: generator))
    }

    /// Adds a rule after the existing ones.
    /// - Returns: The id to pass to ``remove(_:)``.
    @discardableResult
    public func inject(_ rule: FaultRule) -> FaultRuleID {
        state.withLock { state in
            state.nextID += 1
            let id = FaultRuleID(rawValue: state.nextID)
            var remaining: Int?
            if case .times(let count) = rule.trigger { remaining = max(0, count) }
            state.rules.append(ActiveRule(id: id, rule: rule, remaining: remaining))
            return id
        }
    }

    /// Removes a rule; does nothing when it already retired or was removed.
    public func remove(_ id: FaultRuleID) {
        state.withLock { $0.rules.removeAll { $0.id == id } }
    }

    /// Removes every rule.
    public func removeAll() {
        state.withLock { $0.rules.removeAll() }
    }

    /// The rules still active, in evaluation order.
    public var activeRules: [FaultRule] {
        state.withLock { $0.rules.map(\.rule) }
    }

    /// Decides the fault for one request and consumes the trigger of the rule that fires
    /// (a `.times` rule counts down and retires; a `.probability` rule draws once per matching
    /// request). The host calls this for every request it routes to an emulator.
    public func nextFault(emulatorID: String, method: String, path: String) -> Fault? {
        state.withLock { state in
            var index = 0
            while index < state.rules.count {
                let active = state.rules[index]
                guard active.rule.matches(emulatorID: emulatorID, method: method, path: path) else {
                    index += 1
                    continue
                }
                switch active.rule.trigger {
                case .always:
                    return active.rule.fault
                case .times:
                    let remaining = (active.remaining ?? 0) - 1
                    if remaining < 0 {
                        state.rules.remove(at: index)
                        continue
                    }
                    if remaining == 0 {
                        state.rules.remove(at: index)
                    } else {
                        state.rules[index].remaining = remaining
                    }
                    return active.rule.fault
                case .probability(let probability):
                    let draw = Double.random(in: 0..<1, using: &state.generator)
                    if draw < probability { return active.rule.fault }
                    index += 1
                }
            }
            return nil
        }
    }
}
