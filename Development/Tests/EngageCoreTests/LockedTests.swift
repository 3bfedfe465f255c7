@_spi(EngageProvider) @testable import EngageCore
import Foundation
import EngageTestTraits
import Testing

@Suite("Locked", .bounded)
struct LockedTests {
    private final class Tracked: Sendable {
        let released: Locked<Bool>
        init(released: Locked<Bool>) { self.released = released }
        deinit { released.withLock { $0 = true } }
    }

    private struct Refused: Error, Equatable {}

    @Test("concurrent increments from many threads are never lost")
    func concurrentIncrements() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<10_000 { counter.withLock { $0 += 1 } } }
            }
        }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.value == 160_000)
    }

    @Test("a typed error thrown inside passes through with its type, and the lock is released")
    func typedThrows() {
        let state = Locked([1, 2])
        #expect(throws: Refused.self) {
            try state.withLock { (values: inout [Int]) throws(Refused) in
                values.append(3)
                throw Refused()
            }
        }
        #expect(state.withLock { $0 } == [1, 2, 3], "the lock is free again, and the change made before the throw stays")
    }

    @Test("the value is released with the lock")
    func releasesItsValue() {
        let released = Locked(false)
        var lock: Locked<Tracked>? = Locked(Tracked(released: released))
        #expect(lock != nil)
        lock = nil
        #expect(released.value)
    }
}
