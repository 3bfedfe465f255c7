#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#endif

/// A value guarded by a lock: for hot synchronous state shared across tasks and threads.
///
/// Prefer an actor when the state must be coordinated across suspension points; use `Locked` when the
/// critical section is short and synchronous. It is the project's lock type on every platform it
/// supports (`os_unfair_lock` on Apple platforms, a `pthread_mutex_t` elsewhere), so it needs no
/// system newer than iOS 16 / macOS 13 (the standard library's `Mutex` needs iOS 18 / macOS 15).
/// Like `Mutex`, it hands the value to its closure as `inout sending`, so it is `Sendable` whatever
/// the value; never call `withLock` from inside its own closure (the lock is not recursive).
///
/// ```swift
/// let counts = Locked<[String: Int]>([:])
/// counts.withLock { $0["views", default: 0] += 1 }
/// ```
@_spi(EngageProvider) public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    #if canImport(Darwin)
        private typealias PlatformLock = os_unfair_lock
    #else
        private typealias PlatformLock = pthread_mutex_t
    #endif

    private let lock: UnsafeMutablePointer<PlatformLock>
    private let storage: UnsafeMutablePointer<Value>

    /// A lock around `value`.
    public init(_ value: consuming sending Value) {
        lock = .allocate(capacity: 1)
        #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
        #else
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
        #endif
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
        #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns its result. What `body` throws is
    /// rethrown after the lock is released.
    @discardableResult
    public func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
        #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
        #endif
        return try body(&storage.pointee)
    }
}

extension Locked where Value: Sendable {
    /// A copy of the current value.
    public var value: Value {
        withLock { $0 }
    }
}
