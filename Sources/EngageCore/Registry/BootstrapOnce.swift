/// Holds a process-wide instance that is set exactly once.
///
/// Used for the facade's `Engage.shared`: bootstrapping twice is an error value, never a crash.
///
/// When making the value takes time (starting an `Engage` instance), claim the slot first so that a
/// concurrent second bootstrap fails at once instead of building a second instance:
///
/// ```swift
/// try once.reserve()                       // throws .alreadyConfigured for the loser
/// do { once.fulfil(try await makeValue()) } catch { once.abandon(); throw error }
/// ```
package final class BootstrapOnce<Value: Sendable>: Sendable {
    private enum State: Sendable {
        case empty
        case reserved
        case bootstrapped(Value)
    }

    private let storage = Locked<State>(.empty)
    private let name: String

    /// An empty slot; `name` appears in error messages (e.g. `"Engage.shared"`).
    public init(name: String) {
        self.name = name
    }

    /// Stores `value`; throws `.alreadyConfigured` if a value is stored or the slot is reserved.
    public func bootstrap(_ value: Value) throws(EngageError) {
        try reserve()
        fulfil(value)
    }

    /// Claims the empty slot for a value still being made; throws `.alreadyConfigured` if a value is
    /// stored or another caller reserved it. Follow with `fulfil(_:)` or `abandon()`.
    public func reserve() throws(EngageError) {
        let reserved = storage.withLock { storage -> Bool in
            guard case .empty = storage else { return false }
            storage = .reserved
            return true
        }
        guard reserved else {
            throw EngageError(
                .alreadyConfigured, "\(name) was configured already; the first configuration stays.",
                recoverySuggestion: "Configure it once, at app launch.")
        }
    }

    /// Stores `value` in the slot reserved with `reserve()`. Does nothing unless the slot is reserved.
    public func fulfil(_ value: Value) {
        storage.withLock { storage in
            guard case .reserved = storage else { return }
            storage = .bootstrapped(value)
        }
    }

    /// Gives up a reservation (making the value failed), so a later bootstrap may try again. Does nothing
    /// unless the slot is reserved.
    public func abandon() {
        storage.withLock { storage in
            guard case .reserved = storage else { return }
            storage = .empty
        }
    }

    /// The stored value; throws `.notConfigured` before bootstrap (also while it is reserved).
    public func get() throws(EngageError) -> Value {
        guard let value = valueIfBootstrapped else {
            throw EngageError(.notConfigured, "\(name) has not been bootstrapped.", recoverySuggestion: "Bootstrap it at app launch first.")
        }
        return value
    }

    /// The stored value, or `nil` before bootstrap (also while it is reserved).
    public var valueIfBootstrapped: Value? {
        storage.withLock { storage -> Value? in
            if case let .bootstrapped(value) = storage { return value }
            return nil
        }
    }
}
