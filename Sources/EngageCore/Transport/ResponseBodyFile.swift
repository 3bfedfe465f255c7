import Foundation

/// Where a response body goes instead of memory: a file, written as the bytes arrive, with progress
/// reports. Set it as ``RequestOptions/bodyFile`` for large downloads (see
/// ``APIClient/download(_:_:query:headers:to:options:progress:)``).
///
/// The file is created (or emptied) when each attempt starts, so a retried request never appends to
/// a previous attempt's bytes. The response's `body` is then empty; a transport that cannot stream
/// hands the body back in memory and ``APIClient`` writes it to the file.
@_spi(EngageProvider) public struct ResponseBodyFile: Sendable {
    /// The file that receives the body.
    public var url: URL
    /// Called as bytes arrive (on a transport thread; keep it short).
    public var progress: (@Sendable (TransferProgress) -> Void)?

    /// A destination at `url` reporting to `progress`.
    public init(url: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil) {
        self.url = url
        self.progress = progress
    }
}

/// How much of a response body has arrived.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes received so far.
    public var receivedBytes: Int64
    /// The announced size (`Content-Length`), when the server sent one.
    public var expectedBytes: Int64?

    /// Progress for `receivedBytes` of `expectedBytes`.
    public init(receivedBytes: Int64, expectedBytes: Int64?) {
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
    }

    /// The fraction received, from 0 to 1, when the size is known.
    public var fractionCompleted: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(expectedBytes))
    }
}
