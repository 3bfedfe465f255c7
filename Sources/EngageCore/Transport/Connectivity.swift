import Dispatch

#if canImport(Network)
    import Network
#endif

/// Whether the device can reach a network, as the operating system reports it. Providers wait on it
/// to retry work that failed for lack of a connection as soon as one is back, instead of at their
/// next timer.
///
/// ```swift
/// try await withThrowingTaskGroup(of: Void.self) { group in     // whichever comes first
///     group.addTask { try await context.clock.sleep(for: .seconds(3_600)) }
///     group.addTask { await context.connectivity.waitUntilBackOnline() }
///     try await group.next()
///     group.cancelAll()
/// }
/// ```
@_spi(EngageProvider) public final class Connectivity: Sendable {
    /// What the system last said.
    public enum Status: Sendable, Hashable {
        /// Nothing known yet, or no signal on this platform.
        case unknown
        /// A usable network path.
        case online
        /// No usable network path.
        case offline
    }

    /// The status, and how many times it has become `.online` from another status: a waiter compares
    /// counts, so a quick offline-online flap is never missed by one that reads only the newest value.
    private struct Snapshot: Sendable, Equatable {
        var status: Status
        var comebacks: UInt64 = 0
    }

    private let broadcaster: StateBroadcaster<Snapshot>
    private let stop: Locked<(@Sendable () -> Void)?>

    private init(_ initial: Status) {
        broadcaster = StateBroadcaster(Snapshot(status: initial))
        stop = Locked(nil)
    }

    deinit {
        stop.value?()
        broadcaster.finish()
    }

    /// The system's signal: `NWPathMonitor` on Apple platforms. Elsewhere (Linux) there is none: the
    /// status stays `.unknown` and work that waits for the connection waits for its timer instead.
    public static func system() -> Connectivity {
        let connectivity = Connectivity(.unknown)
        #if canImport(Network)
            let monitor = PathMonitor()
            monitor.start { [weak connectivity] satisfied in connectivity?.set(satisfied ? .online : .offline) }
            connectivity.stop.withLock { $0 = { monitor.cancel() } }
        #endif
        return connectivity
    }

    /// A signal the caller drives with ``set(_:)``: tests, or an app with its own reachability source.
    public static func manual(_ initial: Status = .unknown) -> Connectivity {
        Connectivity(initial)
    }

    /// The current status.
    public var status: Status { broadcaster.value.status }

    /// How many callers wait in ``waitUntilBackOnline()`` (tests wait for one before going online).
    package var waiterCount: Int { broadcaster.subscriberCount }

    /// Records a new status (the system monitor calls it; so may the owner of a manual signal).
    public func set(_ status: Status) {
        broadcaster.update { snapshot in
            if status == .online && snapshot.status != .online { snapshot.comebacks += 1 }
            snapshot.status = status
        }
    }

    /// Returns when the device comes back online after this call: the status becomes `.online` from
    /// `.offline` or `.unknown`. Being online when called does not count, since the work that waits
    /// just failed with it. Without a signal it never returns by itself: cancel it (it returns then).
    public func waitUntilBackOnline() async {
        await waitUntilBackOnline(after: comebackCount)
    }

    /// How many times the device has come back online so far: taken before some work starts, it lets
    /// ``waitUntilBackOnline(after:)`` count a comeback that happened while that work was failing.
    package var comebackCount: UInt64 { broadcaster.value.comebacks }

    /// Returns once the device has come back online more often than `count` (at once when it already
    /// has). The baseline is the caller's, read before it subscribes: the subscription keeps only the
    /// newest status, so a baseline read from its first value could already include a comeback, which
    /// was then never seen (a flap right after the wait began lost the retry for an hour).
    package func waitUntilBackOnline(after count: UInt64) async {
        for await snapshot in broadcaster.updates() where snapshot.comebacks > count { return }
    }
}

#if canImport(Network)
    /// `NWPathMonitor`, started on its own queue and cancelled with its owner.
    private final class PathMonitor: @unchecked Sendable {
        // NWPathMonitor is thread-safe; this class only starts and cancels it.
        private let monitor = NWPathMonitor()

        func start(_ handler: @escaping @Sendable (Bool) -> Void) {
            monitor.pathUpdateHandler = { path in handler(path.status == .satisfied) }
            monitor.start(queue: DispatchQueue(label: "engage.connectivity"))
        }

        func cancel() { monitor.cancel() }
    }
#endif
