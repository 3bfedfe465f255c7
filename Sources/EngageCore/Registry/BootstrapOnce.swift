/// Holds a process-wide instance that is set exactly once.
///
/// Used for `ProviderRegistry.shared` and the facade's `Engage.shared`: reading it before bootstrap,
/// or bootstrapping twice, is an error value, never a crash.
public final class BootstrapOnce<Value: Sendable>: Sendable {
    private let storage = Locked<Value?>(nil)
    private let name: String

    public init(name: String) {
        self.name = name
    }

    /// Stores `value`; throws `.alreadyBootstrapped` if a value is already stored.
    public func bootstrap(_ value: Value) throws(EngageError) {
        let stored = storage.withLock { storage -> Bool in
            guard storage == nil else { return false }
            storage = value
            return true
        }
        guard stored else {
            throw EngageError(.alreadyBootstrapped, "\(name) was already bootstrapped.", recoverySuggestion: "Bootstrap once, at app launch.")
        }
    }

    /// The stored value; throws `.notConfigured` before bootstrap.
    public func get() throws(EngageError) -> Value {
        guard let value = storage.value else {
            throw EngageError(.notConfigured, "\(name) has not been bootstrapped.", recoverySuggestion: "Bootstrap it at app launch first.")
        }
        return value
    }

    /// The stored value, or `nil` before bootstrap.
    public var valueIfBootstrapped: Value? { storage.value }
}

extension ProviderRegistry {
    private static let sharedInstance = BootstrapOnce<ProviderRegistry>(name: "ProviderRegistry.shared")

    /// The process-wide registry. Throws `.notConfigured` until `bootstrapShared(_:)` was called.
    public static var shared: ProviderRegistry {
        get throws(EngageError) { try sharedInstance.get() }
    }

    /// Makes `registry` the process-wide one; throws `.alreadyBootstrapped` on a second call.
    public static func bootstrapShared(_ registry: ProviderRegistry) throws(EngageError) {
        try sharedInstance.bootstrap(registry)
    }
}
