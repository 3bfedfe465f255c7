@_spi(EngageProvider) import EngageCore

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
    fileprivate struct ActiveRule {
        var id: FaultRuleID
        var rule: FaultRule
        var remaining: Int?
        var hits = 0
    }

    fileprivate struct State {
        var rules: [ActiveRule] = []
        /// `.times` rules that were used up, newest last, so their hit counts stay visible.
        var retired: [ActiveRule] = []
        var nextID = 0
        var generator: SeededGenerator
    }

    /// How many used-up rules ``snapshots`` keeps listing.
    public static let retiredRulesKept = 100

    private let state: Locked<State>
    private let observers = Broadcaster<Void>(bufferingPolicy: .bufferingNewest(1))

    /// Creates an injector whose probabilistic triggers draw from `generator`.
    public init(generator: SeededGenerator) {
        self.state = Locked(State(generator: generator))
    }

    /// Adds a rule after the existing ones.
    /// - Returns: The id to pass to ``remove(_:)``.
    @discardableResult
    public func inject(_ rule: FaultRule) -> FaultRuleID {
        let id = state.withLock { state in
            state.nextID += 1
            let id = FaultRuleID(rawValue: state.nextID)
            var remaining: Int?
            if case .times(let count) = rule.trigger { remaining = max(0, count) }
            state.rules.append(ActiveRule(id: id, rule: rule, remaining: remaining))
            return id
        }
        observers.yield(())
        return id
    }

    /// Removes a rule, armed or used up; does nothing when it was removed already.
    public func remove(_ id: FaultRuleID) {
        state.withLock { state in
            state.rules.removeAll { $0.id == id }
            state.retired.removeAll { $0.id == id }
        }
        observers.yield(())
    }

    /// Removes every rule, armed or used up.
    public func removeAll() {
        state.withLock { state in
            state.rules.removeAll()
            state.retired.removeAll()
        }
        observers.yield(())
    }

    /// Every rule with its id and how often it fired: the armed ones in evaluation order, then the
    /// used-up `.times` rules (the last ``retiredRulesKept``).
    public var snapshots: [FaultRuleSnapshot] {
        state.withLock { state in
            state.rules.map { FaultRuleSnapshot(id: $0.id, rule: $0.rule, hits: $0.hits, remaining: $0.remaining, isActive: true) }
                + state.retired.map { FaultRuleSnapshot(id: $0.id, rule: $0.rule, hits: $0.hits, remaining: 0, isActive: false) }
        }
    }

    /// A signal for every change of the rules (added, removed, fired, used up), coalesced while the
    /// reader is busy. The stream ends when iteration stops or ``finishChanges()`` runs (the host's
    /// `stop()`).
    public func changes() -> AsyncStream<Void> {
        observers.subscribe()
    }

    /// Ends every ``changes()`` stream, now and for later observers.
    public func finishChanges() {
        observers.finish()
    }

    /// The rules still active, in evaluation order.
    public var activeRules: [FaultRule] {
        state.withLock { $0.rules.map(\.rule) }
    }

    /// Decides the fault for one request and consumes the trigger of the rule that fires
    /// (a `.times` rule counts down and retires; a `.probability` rule draws once per matching
    /// request). The host calls this for every request it routes to an emulator.
    public func nextFault(emulatorID: String, method: String, path: String) -> Fault? {
        let fault = state.withLock { state -> Fault? in
            var index = 0
            while index < state.rules.count {
                let active = state.rules[index]
                guard active.rule.matches(emulatorID: emulatorID, method: method, path: path) else {
                    index += 1
                    continue
                }
                switch active.rule.trigger {
                case .always:
                    state.rules[index].hits += 1
                    return active.rule.fault
                case .times:
                    let remaining = (active.remaining ?? 0) - 1
                    if remaining < 0 {
                        state.retire(at: index)
                        continue
                    }
                    state.rules[index].hits += 1
                    state.rules[index].remaining = remaining
                    if remaining == 0 { state.retire(at: index) }
                    return active.rule.fault
                case .probability(let probability):
                    let draw = Double.random(in: 0..<1, using: &state.generator)
                    if draw < probability {
                        state.rules[index].hits += 1
                        return active.rule.fault
                    }
                    index += 1
                }
            }
            return nil
        }
        if fault != nil { observers.yield(()) }
        return fault
    }
}

extension FaultInjector.State {
    /// Moves the rule at `index` to the used-up list.
    fileprivate mutating func retire(at index: Int) {
        retired.append(rules.remove(at: index))
        if retired.count > FaultInjector.retiredRulesKept { retired.removeFirst(retired.count - FaultInjector.retiredRulesKept) }
    }
}

/// A fault rule as ``FaultInjector/snapshots`` lists it: what it does and how often it fired.
public struct FaultRuleSnapshot: Sendable, Hashable {
    /// The id to pass to ``FaultInjector/remove(_:)``.
    public var id: FaultRuleID
    /// The rule as injected.
    public var rule: FaultRule
    /// How many requests it has been applied to.
    public var hits: Int
    /// The hits left of a `.times` rule (0 once used up); `nil` for other triggers.
    public var remaining: Int?
    /// Whether it still applies to requests (`false` once a `.times` rule is used up).
    public var isActive: Bool
}
