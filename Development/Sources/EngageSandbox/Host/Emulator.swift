import Hummingbird

/// A local stand-in for a backend, served by a ``SandboxHost``.
///
/// An emulator registers ordinary Hummingbird routes on a group already prefixed with `/<id>`, so
/// its base URL is `http://127.0.0.1:<port>/<id>`. The host journals every request to it, applies
/// injected faults in front of it and enforces the body size limit; the emulator only implements
/// the backend's behaviour.
///
/// ```swift
/// struct PingEmulator: Emulator {
///     let id = "ping"
///     func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
///         group.get("ping") { _, _ in try SandboxResponse.json(["pong": true]) }
///     }
/// }
/// ```
public protocol Emulator: Sendable {
    /// The lowercase path segment that prefixes the emulator's routes, e.g. `reference`.
    var id: String { get }

    /// Adds the emulator's routes to `group` (prefixed with `/<id>`).
    func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment)
}
