import Dispatch

/// Where completion handlers and event callbacks are delivered.
///
/// The default is the main queue on Apple platforms (UI code can touch views directly) and a private
/// serial queue on Linux, where there is usually no running main loop. Use `.queue(_:)` to choose.
public struct CallbackQueue: Sendable {
    /// The dispatch queue callbacks run on.
    public let dispatchQueue: DispatchQueue

    /// Delivers on `dispatchQueue`.
    public init(_ dispatchQueue: DispatchQueue) {
        self.dispatchQueue = dispatchQueue
    }

    /// Delivers on `queue`.
    public static func queue(_ queue: DispatchQueue) -> CallbackQueue { CallbackQueue(queue) }

    /// The main queue.
    public static var main: CallbackQueue { CallbackQueue(.main) }

    /// The platform default: main on Apple platforms, a shared serial queue elsewhere.
    public static var platformDefault: CallbackQueue {
        #if canImport(Darwin)
            return .main
        #else
            return CallbackQueue(sharedLinuxCallbackQueue)
        #endif
    }

    /// Runs `work` asynchronously on the queue.
    public func async(_ work: @escaping @Sendable () -> Void) {
        dispatchQueue.async(execute: work)
    }
}

private let sharedLinuxCallbackQueue = DispatchQueue(label: "engagekit.callbacks")
