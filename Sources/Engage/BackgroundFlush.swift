@_spi(EngageProvider) import EngageCore
import Foundation

/// Flushes the analytics queue when the app moves to the background, so that events tracked just
/// before the user left are delivered instead of waiting for the next launch.
///
/// It observes UIKit's did-enter-background notification by its name (the value of
/// `UIApplication.didEnterBackgroundNotification`), which keeps this file free of UIKit: it builds
/// and is tested on every platform, and it is safe in app extensions, where `UIApplication.shared`
/// is unavailable. On Apple platforms the flush runs inside
/// `ProcessInfo.performExpiringActivity(withReason:using:)`, which asks the system for the time to
/// finish (and works in extensions, unlike `beginBackgroundTask`); when that time runs out the flush
/// is cancelled (cancellation reaches the request in flight) and the activity ends at once, and
/// whatever was not delivered stays queued for the next flush.
final class BackgroundFlush: Sendable {
    /// The notification UIKit posts when the app has moved to the background.
    static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")

    /// Runs `block` with the system's extra background time: `block(false)` on a thread the block may
    /// hold until its work is done, then `block(true)` (from another thread) if the time runs out first.
    /// `ProcessInfo.performExpiringActivity(withReason:using:)` on Apple platforms.
    typealias ExpiringActivity = @Sendable (_ reason: String, _ block: @escaping @Sendable (_ expired: Bool) -> Void) -> Void

    private let center: NotificationCenter
    private let observer = Locked<ObserverToken?>(nil)

    /// Starts observing `name` on `center`; each notification runs `flush` inside `activity` (a flush
    /// already running is joined by the queue, not duplicated).
    init(
        center: NotificationCenter, name: Notification.Name = BackgroundFlush.didEnterBackground,
        activity: @escaping ExpiringActivity = BackgroundFlush.systemActivity, flush: @escaping @Sendable () async -> Void
    ) {
        self.center = center
        let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in
            BackgroundFlush.run(flush, in: activity)
        }
        observer.withLock { $0 = ObserverToken(token) }
    }

    /// Stops observing (idempotent).
    func stop() {
        guard
            let token = observer.withLock({ current -> ObserverToken? in
                defer { current = nil }
                return current
            })
        else { return }
        center.removeObserver(token.value)
    }

    deinit {
        stop()
    }

    /// The system's expiring activity on Apple platforms; elsewhere (no background time to ask for) the
    /// block runs on a thread of its own and never expires.
    static let systemActivity: ExpiringActivity = { reason, block in
        #if canImport(Darwin)
            ProcessInfo.processInfo.performExpiringActivity(withReason: reason, using: block)
        #else
            Thread.detachNewThread { block(false) }
        #endif
    }

    /// Runs `flush` inside `activity`. The activity lasts while its block runs, so the block holds its
    /// (system-provided) thread until the flush is done; when the time runs out, the flush is cancelled
    /// (the request in flight is abandoned, its events stay queued) and the block returns at once, so
    /// the app is never held past its time (on iOS, a watchdog kill).
    static func run(_ flush: @escaping @Sendable () async -> Void, in activity: ExpiringActivity) {
        // The flush task, and whether the time ran out (possibly before the flush started).
        let state = Locked<(task: Task<Void, Never>?, expired: Bool)>((nil, false))
        let done = DispatchSemaphore(value: 0)
        activity("EngageKit analytics flush") { expired in
            if expired {
                state.withLock { state -> Task<Void, Never>? in
                    state.expired = true
                    return state.task
                }?.cancel()
                done.signal()
                return
            }
            let started = state.withLock { state -> Bool in
                guard !state.expired else { return false }
                state.task = Task {
                    await flush()
                    done.signal()
                }
                return true
            }
            if started { done.wait() }
        }
    }
}

/// A notification-center observer token. `NotificationCenter` tokens are opaque objects that may be
/// removed from any thread; this box only carries one to `removeObserver(_:)`.
private struct ObserverToken: @unchecked Sendable {
    let value: any NSObjectProtocol

    init(_ value: any NSObjectProtocol) {
        self.value = value
    }
}
