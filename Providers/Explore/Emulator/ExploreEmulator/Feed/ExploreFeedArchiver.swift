import Crypto
import Foundation
import ZIPFoundation
@_spi(EngageProvider) import EngageExplore

/// Zip archives as the directory sources publish them: plain ones for the self-hosted feed
/// (checksums: ``ExploreArchive/sha256(of:)``), and WinZip-AES encrypted ones for the Firebase Storage
/// shape, written the way the Dash wallet's generator (zip4j) writes them.
public enum ExploreFeedArchiver {
    /// A deflated zip holding the file at `databaseURL` as `explore.db` (built in `folder`).
    public static func zip(databaseAt databaseURL: URL, in folder: URL, entryName: String = "explore.db") throws -> Data {
        let archiveURL = folder.appendingPathComponent("archive-\(UUID().uuidString.prefix(8)).zip")
        defer { try? FileManager.default.removeItem(at: archiveURL) }
        do {
            // Scoped: the archive's file is complete once the `Archive` is released.
            let archive = try Archive(url: archiveURL, accessMode: .create)
            try archive.addEntry(with: entryName, fileURL: databaseURL, compressionMethod: .deflate)
        }
        return try Data(contentsOf: archiveURL)
    }

    /// What ``encryptedZip(database:timestamp:entryName:)`` wrote.
    package struct EncryptedArchive: Sendable {
        /// The archive's bytes.
        package var data: Data
        /// The database's CRC-32C in lower-case hex without leading zeros: the password, the
        /// `Data-Checksum` metadata and the second half of the comment.
        package var checksum: String
    }

    /// The Dash generator's archive of `database`: one deflated entry `explore.db`, AES-256 encrypted
    /// (WinZip AE-2: no CRC-32 stored, an HMAC-SHA1 instead) with the database's CRC-32C in hex as
    /// password, sizes in a data descriptor after the data, and the comment `<timestamp>#<checksum>`.
    /// The salt is derived from the content, so the same database and timestamp give the same bytes.
    /// `password` replaces the checksum as password (to test an archive that does not match its metadata).
    package static func encryptedZip(
        database: Data, timestamp: Int64, entryName: String = "explore.db", password: String? = nil
    ) throws -> EncryptedArchive {
        // Without Zip64 records, sizes and offsets are 32-bit.
        guard database.count < 0xF000_0000 else { throw ArchiveTooLarge(bytes: database.count) }
        var crc32c = CRC32C()
        crc32c.update(database)
        let checksum = crc32c.hex
        var compressed = Data()
        _ = try Data.compress(
            size: Int64(database.count), bufferSize: 1 << 16,
            provider: { position, size in database.subdata(in: Int(position)..<min(database.count, Int(position) + size)) },
            consumer: { compressed.append($0) }
        )
        let strength = WinZipAES.Strength.aes256
        let salt = Array(SHA256.hash(data: Data("salt \(timestamp) \(checksum)".utf8)).prefix(strength.saltBytes))
        let keys = try WinZipAES.keys(password: password ?? checksum, salt: salt, strength: strength)
        var ciphertext = Array(compressed)
        var cipher = WinZipAES.Cipher(key: keys.encryption)
        try cipher.apply(to: &ciphertext)
        var hmac = HMAC<Insecure.SHA1>(key: keys.authentication)
        hmac.update(data: ciphertext)
        let payload = salt + keys.verifier + ciphertext + WinZipAES.authenticationCode(hmac)

        let name = Array(entryName.utf8)
        // 0x9901: vendor version 2 (AE-2), vendor "AE", strength, the real method (8, deflate).
        let aesExtra: [UInt8] = [0x01, 0x99, 7, 0, 2, 0, 0x41, 0x45, strength.rawValue, 8, 0]
        let flags: UInt16 = 0x0001 | 0x0008 | 0x0800  // encrypted, sizes in a data descriptor, UTF-8 name
        let (time, date): (UInt16, UInt16) = (0, 0x21)  // 1980-01-01 00:00: the generator's content has no date
        var zip = ZipWriter()
        // The fields the local header and the central directory share: version needed (5.1, AES),
        // flags, method 99 (AES), time, date, CRC-32 (0 in AE-2), sizes, name and extra lengths.
        func sharedFields(compressed: Int, uncompressed: Int) {
            for value: UInt16 in [51, flags, 99, time, date] { zip.uint16(value) }
            for value: UInt32 in [0, UInt32(compressed), UInt32(uncompressed)] { zip.uint32(value) }
            zip.uint16(UInt16(name.count))
            zip.uint16(UInt16(aesExtra.count))
        }
        zip.uint32(0x0403_4B50)
        sharedFields(compressed: 0, uncompressed: 0)  // the sizes follow the data (data descriptor)
        zip.bytes += name + aesExtra + payload
        zip.uint32(0x0807_4B50)
        zip.uint32(0)
        zip.uint32(UInt32(payload.count))
        zip.uint32(UInt32(database.count))
        let directoryOffset = zip.bytes.count
        zip.uint32(0x0201_4B50)
        zip.uint16(0x0333)  // made by: Unix, 5.1
        sharedFields(compressed: payload.count, uncompressed: database.count)
        zip.uint16(0)
        zip.uint16(0)
        zip.uint16(0)
        zip.uint32(0o100644 << 16)
        zip.uint32(0)
        zip.bytes += name + aesExtra
        let directorySize = zip.bytes.count - directoryOffset
        let comment = Array("\(timestamp)#\(checksum)".utf8)
        zip.uint32(0x0605_4B50)
        zip.uint16(0)
        zip.uint16(0)
        zip.uint16(1)
        zip.uint16(1)
        zip.uint32(UInt32(directorySize))
        zip.uint32(UInt32(directoryOffset))
        zip.uint16(UInt16(comment.count))
        zip.bytes += comment
        return EncryptedArchive(data: Data(zip.bytes), checksum: checksum)
    }

    /// A database too large for an archive without Zip64 records.
    package struct ArchiveTooLarge: Error, CustomStringConvertible {
        /// The database's size.
        package var bytes: Int
        package var description: String { "A \(bytes)-byte database needs a Zip64 archive, which the emulator does not write." }
    }

    /// Little-endian zip records, appended.
    private struct ZipWriter {
        var bytes: [UInt8] = []
        mutating func uint16(_ value: UInt16) { bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        mutating func uint32(_ value: UInt32) {
            uint16(UInt16(truncatingIfNeeded: value))
            uint16(UInt16(truncatingIfNeeded: value >> 16))
        }
    }
}
