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
/// is cancelled, and whatever was not delivered stays queued for the next flush.
final class BackgroundFlush: Sendable {
    /// The notification UIKit posts when the app has moved to the background.
    static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")

    private let center: NotificationCenter
    private let observer = Locked<ObserverToken?>(nil)

    /// Starts observing `name` on `center`; each notification runs `flush` (a flush already running
    /// is joined by the queue, not duplicated).
    init(center: NotificationCenter, name: Notification.Name = BackgroundFlush.didEnterBackground, flush: @escaping @Sendable () async -> Void) {
        self.center = center
        let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in
            BackgroundFlush.runWithExtraTime(flush)
        }
        observer.withLock { $0 = ObserverToken(token) }
    }

    /// Stops observing (idempotent).
    func stop() {
        guard let token = observer.withLock({ current -> ObserverToken? in
            defer { current = nil }
            return current
        }) else { return }
        center.removeObserver(token.value)
    }

    deinit {
        stop()
    }

    private static func runWithExtraTime(_ flush: @escaping @Sendable () async -> Void) {
        #if canImport(Darwin)
            let running = Locked<Task<Void, Never>?>(nil)
            ProcessInfo.processInfo.performExpiringActivity(withReason: "EngageKit analytics flush") { expired in
                if expired {
                    running.value?.cancel()
                    return
                }
                // The activity lasts while this block runs: block this (system-provided) thread until
                // the flush is done or cancelled by the expiry call above.
                let done = DispatchSemaphore(value: 0)
                running.withLock {
                    $0 = Task {
                        await flush()
                        done.signal()
                    }
                }
                done.wait()
            }
        #else
            Task { await flush() }
        #endif
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
