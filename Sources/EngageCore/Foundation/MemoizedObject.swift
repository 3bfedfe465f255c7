/// One object made on first use and returned on every later use, safe to ask for from any thread:
/// the slot behind the observable models (`engage.state`, `warply.wallet`…) that must be the same
/// object on every read, whose types only exist on newer systems (so the slot is typed `any Sendable`).
package final class MemoizedObject: Sendable {
    private let stored = Locked<(any Sendable)?>(nil)

    /// An empty slot.
    package init() {}

    /// The object in the slot, or `make()`'s, stored. When two threads race, one object wins and both
    /// get it. A slot holds one type: asking for another type replaces the object.
    package func value<Object: Sendable>(orMake make: () -> Object) -> Object {
        if let existing = stored.withLock({ $0 }) as? Object { return existing }
        let made = make()
        return stored.withLock { stored in
            if let existing = stored as? Object { return existing }
            stored = made
            return made
        }
    }
}
