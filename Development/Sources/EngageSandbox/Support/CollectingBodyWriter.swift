import HTTPTypes
import Hummingbird
import NIOCore
@_spi(EngageProvider) import EngageCore

/// A response body writer that keeps what is written, to inspect or rewrite a response body.
final class CollectingBodyWriter: ResponseBodyWriter, Sendable {
    private let storage = Locked<[UInt8]>([])

    /// Everything written so far.
    var bytes: [UInt8] { storage.withLock { $0 } }

    func write(_ buffer: ByteBuffer) async throws {
        storage.withLock { $0.append(contentsOf: buffer.readableBytesView) }
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
