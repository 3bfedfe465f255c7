import CEngageZlib
import Foundation

/// Raw-deflate inflation (a zip entry's method 8) over the system zlib, fed chunk by chunk.
///
/// zlib is told exactly how many bytes each chunk holds and where its output may go, from the chunk's
/// and the buffer's own lengths, so a hostile stream can never make it read or write past either (a
/// stored block claiming 65 535 bytes in a chunk of 100 ends in "truncated", not in heap bytes).
/// ZIPFoundation 0.9.20's inflater on Linux set the input length to its buffer size before fetching a
/// chunk, so a short last chunk let zlib read past it; that is why this one exists.
package final class ExploreInflater {
    /// zlib keeps a pointer to its stream and checks it on every call, so the stream must not move:
    /// it lives in memory of its own, not in a Swift value.
    private let stream: UnsafeMutablePointer<z_stream>
    private var output: [UInt8]
    /// Whether the deflate stream has ended (its final block was read).
    package private(set) var isFinished = false

    /// A new inflater whose output arrives in pieces of at most `outputBytes`.
    package init(outputBytes: Int = 1 << 16) throws(ExploreZipArchive.Failure) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = [UInt8](repeating: 0, count: max(1, outputBytes))
        guard engage_inflate_init_raw(stream) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw ExploreZipArchive.Failure(reason: "zlib could not start inflating")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates `input`, the next piece of the compressed data, and hands what it unpacks to `consume`
    /// in order. Data after the end of the stream, and a stream that zlib finds damaged, are failures.
    package func feed(
        _ input: [UInt8], entry: String, consume: (Data) throws(ExploreZipArchive.Failure) -> Void
    ) throws(ExploreZipArchive.Failure) {
        guard !input.isEmpty else { return }
        guard !isFinished else {
            throw ExploreZipArchive.Failure(reason: "the entry \(entry) has data after the end of its deflate stream")
        }
        var offset = 0
        while true {
            // One call of zlib, with its input and output bounded by the two buffers' real lengths.
            let (status, read, produced) = input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { target -> (Int32, Int, Int) in
                    guard let sourceBase = source.baseAddress, let targetBase = target.baseAddress else { return (Z_BUF_ERROR, 0, 0) }
                    let available = source.count - offset
                    stream.pointee.next_in = UnsafeMutablePointer(mutating: sourceBase + offset)
                    stream.pointee.avail_in = UInt32(available)
                    stream.pointee.next_out = targetBase
                    stream.pointee.avail_out = UInt32(target.count)
                    let status = inflate(stream, Z_NO_FLUSH)
                    let read = available - Int(stream.pointee.avail_in)
                    let produced = target.count - Int(stream.pointee.avail_out)
                    // No pointer into either buffer outlives this call.
                    stream.pointee.next_in = nil
                    stream.pointee.avail_in = 0
                    stream.pointee.next_out = nil
                    stream.pointee.avail_out = 0
                    return (status, read, produced)
                }
            }
            offset += read
            if produced > 0 { try consume(Data(output[0..<produced])) }
            switch status {
            case Z_STREAM_END:
                isFinished = true
                guard offset == input.count else {
                    throw ExploreZipArchive.Failure(reason: "the entry \(entry) has data after the end of its deflate stream")
                }
                return
            case Z_OK, Z_BUF_ERROR:
                // Z_BUF_ERROR: no progress was possible, which with input left means a full output
                // buffer (the next call empties it) and without means the chunk is used up.
                if offset == input.count && produced < output.count { return }
                if read == 0 && produced == 0 {
                    throw ExploreZipArchive.Failure(reason: "the entry \(entry) is damaged (its deflate stream stalls)")
                }
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                throw ExploreZipArchive.Failure(reason: "the entry \(entry) is damaged (\(message))")
            }
        }
    }

    /// The IEEE CRC-32 of `data` continued from `checksum` (the one a zip entry stores), by zlib.
    package static func crc32IEEE(_ checksum: UInt32, _ data: Data) -> UInt32 {
        data.withUnsafeBytes { bytes in
            var value = UInt(checksum)
            var remaining = UnsafeRawBufferPointer(bytes)
            // zlib's length is a 32-bit `uInt`: feed a large buffer in pieces.
            while !remaining.isEmpty, let base = remaining.baseAddress {
                let count = min(remaining.count, Int(UInt32.max))
                value = crc32(value, base.assumingMemoryBound(to: UInt8.self), uInt(count))
                remaining = UnsafeRawBufferPointer(rebasing: remaining[count...])
            }
            return UInt32(truncatingIfNeeded: value)
        }
    }
}
