import Foundation
import Hummingbird
import NIOCore

/// The Hummingbird request context of sandbox routes.
///
/// Beyond Hummingbird's basics it knows which emulator the request is addressed to, applies the
/// host's body size limit to `request.decode(as:context:)`, and decodes and encodes JSON with
/// stable settings (sorted keys, ISO 8601 dates).
public struct SandboxRequestContext: RequestContext {
    /// Hummingbird's own per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The emulator the request is addressed to, set by the host before the route runs.
    public internal(set) var emulatorID: String?
    /// The largest body accepted, set by the host from ``SandboxConfiguration/maxBodySize``.
    public internal(set) var maxBodySize: Int = 2 * 1024 * 1024
    /// The connection, so faults can close it.
    let channel: any Channel

    /// Creates the context for a request arriving on a connection.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// The client's address (`nil` when the connection has none, e.g. in tests without a socket).
    public var remoteAddress: SocketAddress? { channel.remoteAddress }

    /// Whether the client connects from this machine: 127.0.0.0/8, ::1, or an IPv4-mapped
    /// 127.x address. The sandbox UI and its API answer only such clients.
    public var isFromLoopback: Bool {
        remoteAddress.map(Self.isLoopback) ?? false
    }

    /// Whether `address` is a loopback address (see ``isFromLoopback``).
    public static func isLoopback(_ address: SocketAddress) -> Bool {
        guard let ip = address.ipAddress else { return false }
        if ip == "::1" { return true }
        let v4 = ip.hasPrefix("::ffff:") ? String(ip.dropFirst("::ffff:".count)) : ip
        return v4.hasPrefix("127.") && v4.split(separator: ".").count == 4
    }

    /// The body limit for decoding.
    public var maxUploadSize: Int { maxBodySize }

    /// A JSON decoder reading ISO 8601 dates.
    public var requestDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// A JSON encoder writing sorted keys, unescaped slashes and ISO 8601 dates.
    public var responseEncoder: JSONEncoder {
        SandboxResponse.makeEncoder()
    }
}
