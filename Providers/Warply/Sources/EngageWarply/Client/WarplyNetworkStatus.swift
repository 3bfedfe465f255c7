@_spi(EngageProvider) import EngageCore

/// Whether the Warply backend was reachable, as last observed.
public enum WarplyNetworkStatus: Int, Sendable, Hashable, Codable {
    /// No request has completed or failed for lack of a connection yet.
    case unknown = -1
    /// The last request failed to reach the server (no connection, timeout). The seed's `0`.
    case disconnected = 0
    /// The last request reached the server. The seed's `1`.
    case connected = 1
}

/// Records the outcome of every request (lock-protected; read on any thread).
final class WarplyNetworkStatusTracker: Sendable {
    private let status = Locked(WarplyNetworkStatus.unknown)

    func record(_ newStatus: WarplyNetworkStatus) {
        status.withLock { $0 = newStatus }
    }

    var current: WarplyNetworkStatus { status.value }
}
