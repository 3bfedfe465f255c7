import Crypto
import Foundation

/// The parts of the zip format a directory archive uses, read from a file: the central directory, the
/// archive comment, and entries that are stored or deflated, plain or WinZip-AES encrypted.
///
/// Zip libraries skip encrypted entries or hide the comment, and the Dash wallet's archives are both
/// encrypted and commented, so the container is read here and the system zlib inflates
/// (``ExploreInflater``), with every read bounded by the lengths this type checked. Zip64 archives
/// (over 4 GiB) and the legacy PKWARE encryption are refused.
package struct ExploreZipArchive: Sendable {
    /// Why an archive cannot be read; `reason` completes "The archive is not usable: …".
    package struct Failure: Error, Sendable {
        /// What is wrong, for the error message.
        package var reason: String
        /// The entry grew past the caller's limit.
        package var isOverLimit = false
        /// The password does not open the entry (its verifier does not match).
        package var isWrongPassword = false
    }

    /// One file of the central directory.
    package struct Entry: Sendable, Hashable {
        /// Its path inside the archive.
        package var path: String
        /// The compression method of the stored data (99 for an AES entry, whose real method is in `aes`).
        package var method: UInt16
        /// The general purpose flags (bit 0: encrypted).
        package var flags: UInt16
        /// The CRC-32 of the uncompressed data (0 in AE-2 entries).
        package var crc32: UInt32
        /// The bytes stored, encryption overhead included.
        package var compressedSize: Int64
        /// The bytes once unpacked.
        package var uncompressedSize: Int64
        /// Where its local header starts.
        package var localHeaderOffset: Int64
        /// Its WinZip AES parameters, when it is encrypted that way.
        package var aes: AES?

        /// WinZip AES parameters of an entry (its `0x9901` extra field).
        package struct AES: Sendable, Hashable {
            /// 1 for AE-1 (the CRC-32 is stored and checked), 2 for AE-2 (it is not).
            package var vendorVersion: UInt16
            /// The key size.
            package var strength: WinZipAES.Strength
            /// The compression method of the data before encryption.
            package var method: UInt16
        }

        /// Whether the entry is encrypted.
        package var isEncrypted: Bool { flags & 1 == 1 }
        /// Whether it is a directory rather than a file.
        package var isDirectory: Bool { path.hasSuffix("/") }
    }

    /// What an extraction wrote.
    package struct Extracted: Sendable, Hashable {
        /// The bytes written.
        package var bytes: Int64
        /// Their CRC-32C (the Dash generator's checksum).
        package var crc32c: CRC32C
    }

    /// The entries, in central-directory order.
    package let entries: [Entry]
    /// The archive comment (UTF-8; empty when there is none).
    package let comment: String
    private let url: URL
    private let centralDirectoryOffset: Int64

    private static let chunkBytes = 1 << 20

    /// Reads the central directory of the zip file at `url`.
    package init(url: URL) throws(Failure) {
        self.url = url
        let file = try Reader(url: url)
        defer { file.close() }
        let size = file.size
        guard size >= 22 else { throw Failure(reason: "it is not a zip archive (\(size) bytes)") }
        // The end record is the last 22 bytes plus a comment of up to 65 535 bytes.
        let tailStart = max(0, size - 22 - 65_535)
        let tail = try file.bytes(at: tailStart, count: Int(size - tailStart))
        var end: Int?
        var index = tail.count - 22
        while index >= 0 {
            if tail.uint32(at: index) == 0x0605_4B50, index + 22 + Int(tail.uint16(at: index + 20)) == tail.count {
                end = index
                break
            }
            index -= 1
        }
        guard let end else { throw Failure(reason: "it is not a zip archive (no end of central directory)") }
        let entryCount = Int(tail.uint16(at: end + 10))
        let directorySize = Int64(tail.uint32(at: end + 12))
        let directoryOffset = Int64(tail.uint32(at: end + 16))
        if entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF
            || (end >= 20 && tail.uint32(at: end - 20) == 0x0706_4B50)
        {
            throw Failure(reason: "it is a Zip64 archive, which a directory archive never needs")
        }
        comment = String(decoding: tail[(end + 22)...], as: UTF8.self)
        guard directoryOffset + directorySize <= tailStart + Int64(end), directorySize <= 4 << 20 else {
            throw Failure(reason: "its central directory lies outside the file")
        }
        centralDirectoryOffset = directoryOffset
        let directory = try file.bytes(at: directoryOffset, count: Int(directorySize))
        var entries: [Entry] = []
        var offset = 0
        for _ in 0..<entryCount {
            guard offset + 46 <= directory.count, directory.uint32(at: offset) == 0x0201_4B50 else {
                throw Failure(reason: "its central directory is damaged")
            }
            let nameLength = Int(directory.uint16(at: offset + 28))
            let extraLength = Int(directory.uint16(at: offset + 30))
            let commentLength = Int(directory.uint16(at: offset + 32))
            let next = offset + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else { throw Failure(reason: "its central directory is damaged") }
            let extra = Array(directory[(offset + 46 + nameLength)..<(offset + 46 + nameLength + extraLength)])
            var entry = Entry(
                path: String(decoding: directory[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self),
                method: directory.uint16(at: offset + 10),
                flags: directory.uint16(at: offset + 8),
                crc32: directory.uint32(at: offset + 16),
                compressedSize: Int64(directory.uint32(at: offset + 20)),
                uncompressedSize: Int64(directory.uint32(at: offset + 24)),
                localHeaderOffset: Int64(directory.uint32(at: offset + 42))
            )
            entry.aes = try Self.aesField(in: extra)
            guard entry.localHeaderOffset + 30 + entry.compressedSize <= directoryOffset else {
                throw Failure(reason: "the entry \(entry.path) lies outside the file")
            }
            entries.append(entry)
            offset = next
        }
        self.entries = entries
    }

    /// The `0x9901` (WinZip AES) field among an entry's extra fields, if there is one.
    private static func aesField(in extra: [UInt8]) throws(Failure) -> Entry.AES? {
        var offset = 0
        while offset + 4 <= extra.count {
            let id = extra.uint16(at: offset)
            let length = Int(extra.uint16(at: offset + 2))
            guard offset + 4 + length <= extra.count else { break }
            if id == 0x9901 {
                guard length == 7, extra[offset + 6] == 0x41, extra[offset + 7] == 0x45,
                    let strength = WinZipAES.Strength(rawValue: extra[offset + 8])
                else {
                    throw Failure(reason: "its AES extra field is damaged")
                }
                return Entry.AES(vendorVersion: extra.uint16(at: offset + 4), strength: strength, method: extra.uint16(at: offset + 9))
            }
            offset += 4 + length
        }
        return nil
    }

    /// Writes `entry`'s unpacked bytes to `output` and returns how many there were and their CRC-32C.
    ///
    /// An encrypted entry is opened with `password`; its authentication code is checked over the whole
    /// encrypted data before a byte is decrypted. The size, and the CRC-32 where the entry stores one,
    /// are checked after unpacking; more than `maxBytes` stops the extraction.
    package func extract(_ entry: Entry, password: String?, to output: FileHandle, maxBytes: Int64) throws(Failure) -> Extracted {
        let file = try Reader(url: url)
        defer { file.close() }
        let header = try file.bytes(at: entry.localHeaderOffset, count: 30)
        guard header.uint32(at: 0) == 0x0403_4B50 else { throw Failure(reason: "the entry \(entry.path) has no local header") }
        var start = entry.localHeaderOffset + 30 + Int64(header.uint16(at: 26)) + Int64(header.uint16(at: 28))
        var length = entry.compressedSize
        guard start + length <= centralDirectoryOffset else { throw Failure(reason: "the entry \(entry.path) lies outside the file") }
        guard entry.uncompressedSize <= maxBytes else {
            throw Failure(
                reason: "its \(entry.path) holds \(entry.uncompressedSize) bytes, over the limit of \(maxBytes)", isOverLimit: true)
        }

        var method = entry.method
        var cipher: WinZipAES.Cipher?
        var checksCRC32 = true
        if entry.isEncrypted {
            guard let aes = entry.aes, entry.method == 99 else {
                throw Failure(reason: "the entry \(entry.path) uses the legacy zip encryption, which is not supported")
            }
            guard let password else { throw Failure(reason: "the entry \(entry.path) is encrypted and no password was given") }
            let salt = aes.strength.saltBytes
            let overhead = Int64(salt + WinZipAES.verifierBytes + WinZipAES.authenticationBytes)
            guard length >= overhead else { throw Failure(reason: "the encrypted entry \(entry.path) is truncated") }
            let head = try file.bytes(at: start, count: salt + WinZipAES.verifierBytes)
            let keys: WinZipAES.Keys
            do {
                keys = try WinZipAES.keys(password: password, salt: head[0..<salt], strength: aes.strength)
            } catch {
                throw Failure(reason: "its keys cannot be derived (\(error))")
            }
            guard keys.verifier == Array(head[salt...]) else {
                throw Failure(reason: "the password does not open \(entry.path)", isWrongPassword: true)
            }
            start += Int64(salt + WinZipAES.verifierBytes)
            length -= overhead
            let stored = try file.bytes(at: start + length, count: WinZipAES.authenticationBytes)
            var hmac = HMAC<Insecure.SHA1>(key: keys.authentication)
            var position: Int64 = 0
            while position < length {
                let chunk = try file.bytes(at: start + position, count: Int(min(Int64(Self.chunkBytes), length - position)))
                hmac.update(data: chunk)
                position += Int64(chunk.count)
            }
            guard WinZipAES.authenticationCode(hmac) == stored else {
                throw Failure(reason: "the encrypted entry \(entry.path) fails its authentication check (damaged or altered)")
            }
            cipher = WinZipAES.Cipher(key: keys.encryption)
            method = aes.method
            checksCRC32 = aes.vendorVersion != 2
        }
        guard method == 0 || method == 8 else {
            throw Failure(reason: "the entry \(entry.path) uses compression method \(method), neither stored nor deflated")
        }

        var written: Int64 = 0
        var crc32c = CRC32C()
        var crc32: UInt32 = 0
        var nextPosition: Int64 = 0
        // The stored data in order, decrypted, in pieces of at most `chunkBytes`.
        func nextChunk() throws(Failure) -> [UInt8] {
            var chunk = try file.bytes(at: start + nextPosition, count: Int(min(Int64(Self.chunkBytes), length - nextPosition)))
            do {
                try cipher?.apply(to: &chunk)
            } catch {
                throw Failure(reason: "the entry \(entry.path) cannot be decrypted (\(error))")
            }
            nextPosition += Int64(chunk.count)
            return chunk
        }
        func consume(_ data: Data) throws(Failure) {
            written += Int64(data.count)
            guard written <= maxBytes else {
                throw Failure(reason: "its \(entry.path) grows past the limit of \(maxBytes) bytes", isOverLimit: true)
            }
            crc32c.update(data)
            if checksCRC32 { crc32 = ExploreInflater.crc32IEEE(crc32, data) }
            do {
                try output.write(contentsOf: data)
            } catch {
                throw Failure(reason: "the unpacked file cannot be written (\(error.localizedDescription))")
            }
        }
        if method == 8 {
            let inflater = try ExploreInflater()
            while nextPosition < length {
                try inflater.feed(try nextChunk(), entry: entry.path, consume: consume)
            }
            guard inflater.isFinished else {
                throw Failure(reason: "the entry \(entry.path) is truncated (its deflate stream does not end)")
            }
        } else {
            while nextPosition < length {
                try consume(Data(try nextChunk()))
            }
        }
        guard written == entry.uncompressedSize else {
            throw Failure(reason: "the entry \(entry.path) unpacked to \(written) bytes, not the \(entry.uncompressedSize) its header says")
        }
        guard !checksCRC32 || crc32 == entry.crc32 else {
            throw Failure(reason: "the entry \(entry.path) fails its CRC-32 check")
        }
        return Extracted(bytes: written, crc32c: crc32c)
    }

    /// Positioned reads from the archive file.
    private struct Reader {
        let handle: FileHandle
        let size: Int64

        init(url: URL) throws(Failure) {
            guard let handle = try? FileHandle(forReadingFrom: url) else { throw Failure(reason: "the archive cannot be read") }
            self.handle = handle
            do {
                size = Int64(try handle.seekToEnd())
            } catch {
                try? handle.close()
                throw Failure(reason: "the archive cannot be read")
            }
        }

        func bytes(at offset: Int64, count: Int) throws(Failure) -> [UInt8] {
            guard offset >= 0, count >= 0, offset + Int64(count) <= size else { throw Failure(reason: "it is truncated") }
            do {
                try handle.seek(toOffset: UInt64(offset))
                let data = try handle.read(upToCount: count) ?? Data()
                guard data.count == count else { throw Failure(reason: "it is truncated") }
                return Array(data)
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(reason: "the archive cannot be read (\(error.localizedDescription))")
            }
        }

        func close() { try? handle.close() }
    }
}

extension Array where Element == UInt8 {
    fileprivate func uint16(at offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    fileprivate func uint32(at offset: Int) -> UInt32 { UInt32(uint16(at: offset)) | UInt32(uint16(at: offset + 2)) << 16 }
}
