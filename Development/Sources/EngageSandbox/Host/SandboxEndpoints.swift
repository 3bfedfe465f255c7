import Foundation

/// Where a running ``SandboxHost`` serves each emulator.
public struct SandboxEndpoints: Sendable, Hashable {
    /// One emulator's base URL.
    public struct Endpoint: Sendable, Hashable {
        /// The emulator id.
        public var id: String
        /// `http://<host>:<port>/<id>`.
        public var baseURL: URL
    }

    /// The address the host is bound to.
    public var host: String
    /// The bound port (the ephemeral one when the configuration asked for port 0).
    public var port: Int
    /// Every emulator's base URL, in the order the emulators were given to the host.
    public var emulators: [Endpoint]

    /// The base URL of the emulator `emulatorID`, or `nil` when the host does not serve it.
    public func baseURL(for emulatorID: String) -> URL? {
        emulators.first { $0.id == emulatorID }?.baseURL
    }

    /// `http://<host>:<port>` (IPv6 hosts in brackets).
    public var rootURL: URL? {
        let authority = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(authority):\(port)")
    }

    /// The same emulators and port as reached at `host` instead (a name or an address other machines
    /// use for this one, such as `my-mac.local` for a phone on the network while the sandbox binds
    /// `0.0.0.0`): what a configuration written for a device names.
    public func reached(at host: String) -> SandboxEndpoints {
        SandboxEndpoints(host: host, port: port, emulatorIDs: emulators.map(\.id))
    }

    init(host: String, port: Int, emulatorIDs: [String]) {
        self.host = host
        self.port = port
        let authority = host.contains(":") ? "[\(host)]" : host
        self.emulators = emulatorIDs.compactMap { id in
            URL(string: "http://\(authority):\(port)/\(id)").map { Endpoint(id: id, baseURL: $0) }
        }
    }
}
