@_spi(EngageProvider) import EngageCore

/// A ``SeededGenerator`` shared between concurrent callers behind a lock.
final class LockedGenerator: Sendable {
    private let generator: Locked<SeededGenerator>

    init(_ generator: SeededGenerator) {
        self.generator = Locked(generator)
    }

    /// Runs `body` with exclusive access to the generator.
    func withGenerator<T: Sendable>(_ body: (inout SeededGenerator) -> T) -> T {
        generator.withLock { body(&$0) }
    }
}
