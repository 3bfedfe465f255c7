import Crypto
import CryptoExtras
import Foundation
import ZIPFoundation

/// Zip archives as the directory sources publish them: plain ones for the self-hosted feed, and
/// WinZip-AES encrypted ones for the Firebase Storage shape, written the way the Dash wallet's
/// generator (zip4j) writes them. The emulator's own code from the formats' specifications (WinZip's AE
/// notes, RFC 3720's CRC-32C), not the client's reader: the tests open its archives with 7-Zip and
/// bsdtar too.
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
        let checksum = String(crc32c(database), radix: 16)
        var compressed = Data()
        _ = try Data.compress(
            size: Int64(database.count), bufferSize: 1 << 16,
            provider: { position, size in database.subdata(in: Int(position)..<min(database.count, Int(position) + size)) },
            consumer: { compressed.append($0) }
        )
        // AES-256 (strength 3): a 16-byte salt.
        let strength: UInt8 = 3
        let salt = Array(SHA256.hash(data: Data("salt \(timestamp) \(checksum)".utf8)).prefix(16))
        let payload = try winZipAES256(Array(compressed), password: password ?? checksum, salt: salt)

        let name = Array(entryName.utf8)
        // 0x9901: vendor version 2 (AE-2), vendor "AE", strength, the real method (8, deflate).
        let aesExtra: [UInt8] = [0x01, 0x99, 7, 0, 2, 0, 0x41, 0x45, strength, 8, 0]
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

    /// An entry's data as WinZip AES-256 stores it: `salt ‖ verifier ‖ ciphertext ‖ authentication code`.
    /// PBKDF2-HMAC-SHA1 (1 000 rounds) of the password and salt gives the AES key (32 bytes), the HMAC
    /// key (32 bytes) and the 2-byte verifier, in that order; the data is AES in counter mode whose
    /// counter block is a little-endian number starting at 1; the code is the first 10 bytes of an
    /// HMAC-SHA1 of the ciphertext.
    static func winZipAES256(_ plaintext: [UInt8], password: String, salt: [UInt8]) throws -> [UInt8] {
        let keyLength = 32
        let derived = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8), salt: salt, using: .insecureSHA1, outputByteCount: 2 * keyLength + 2,
            unsafeUncheckedRounds: 1_000
        ).withUnsafeBytes { Array($0) }
        let encryptionKey = SymmetricKey(data: derived[..<keyLength])
        let authenticationKey = SymmetricKey(data: derived[keyLength..<(2 * keyLength)])
        var ciphertext = plaintext
        var blockNumber: UInt64 = 0
        for blockStart in stride(from: 0, to: ciphertext.count, by: 16) {
            blockNumber += 1
            var keystream = withUnsafeBytes(of: blockNumber.littleEndian) { Array($0) } + [UInt8](repeating: 0, count: 8)
            try AES.permute(&keystream, key: encryptionKey)
            for (offset, key) in Swift.zip(blockStart..<min(blockStart + 16, ciphertext.count), keystream) {
                ciphertext[offset] ^= key
            }
        }
        let code = HMAC<Insecure.SHA1>.authenticationCode(for: ciphertext, using: authenticationKey)
        return salt + derived[(2 * keyLength)...] + ciphertext + Array(code).prefix(10)
    }

    /// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, RFC 3720 appendix B.4) of `data`: the
    /// checksum the Dash generator publishes and uses as the password. Its check value for "123456789"
    /// is 0xe3069283.
    static func crc32c(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = crc32cTable[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crc32cTable: [UInt32] = (0...255).map { (index: UInt32) in
        (0..<8).reduce(index) { crc, _ in (crc >> 1) ^ (crc & 1 == 0 ? 0 : 0x82F6_3B78) }
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
