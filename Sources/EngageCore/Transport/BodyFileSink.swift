import Foundation

/// The open file a streamed response body is written to (see ``ResponseBodyFile``).
///
/// Writing and closing share a lock, so a chunk arriving while the caller has already gone (a
/// cancelled or abandoned download) is dropped instead of written to a closed, possibly reused,
/// descriptor.
final class BodyFileSink: Sendable {
    private let handle: Locked<FileHandle?>
    /// Who hears of progress.
    let progress: (@Sendable (TransferProgress) -> Void)?

    /// Creates (or empties) the file of `bodyFile` and opens it for writing.
    /// - Throws: `EngageError(.storage)` when the file cannot be created.
    init(_ bodyFile: ResponseBodyFile) throws {
        guard FileManager.default.createFile(atPath: bodyFile.url.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: bodyFile.url)
        else {
            throw EngageError(.storage, "The download file \(bodyFile.url.lastPathComponent) cannot be created.")
        }
        self.handle = Locked(handle)
        progress = bodyFile.progress
    }

    /// Appends `data`; does nothing once the sink is closed.
    func write(_ data: Data) throws {
        try handle.withLock { handle in try handle?.write(contentsOf: data) }
    }

    /// Closes the file; later writes are dropped.
    func close() {
        handle.withLock { handle in
            try? handle?.close()
            handle = nil
        }
    }
}
