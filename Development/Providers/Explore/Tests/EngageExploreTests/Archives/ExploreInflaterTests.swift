@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
import Foundation
import EngageTestTraits
import Testing

/// A zip archive of one deflated entry, written byte by byte, so that its deflate data can be anything
/// (a hostile feed's), whatever a zip tool would write.
private func zip(entry name: String, deflated: [UInt8], crc32: UInt32, uncompressedSize: UInt32) -> Data {
    var bytes: [UInt8] = []
    func u16(_ value: UInt16) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
    func u32(_ value: UInt32) { (0..<4).forEach { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * $0))) } }
    let path = Array(name.utf8)
    // Local header.
    u32(0x0403_4B50)
    u16(20)
    u16(0)
    u16(8)
    u16(0)
    u16(0)
    u32(crc32)
    u32(UInt32(deflated.count))
    u32(uncompressedSize)
    u16(UInt16(path.count))
    u16(0)
    bytes += path + deflated
    // Central directory.
    let directoryOffset = UInt32(bytes.count)
    u32(0x0201_4B50)
    u16(20)
    u16(20)
    u16(0)
    u16(8)
    u16(0)
    u16(0)
    u32(crc32)
    u32(UInt32(deflated.count))
    u32(uncompressedSize)
    u16(UInt16(path.count))
    u16(0)
    u16(0)
    u16(0)
    u16(0)
    u32(0)
    u32(0)
    bytes += path
    let directorySize = UInt32(bytes.count) - directoryOffset
    // End of central directory.
    u32(0x0605_4B50)
    u16(0)
    u16(0)
    u16(1)
    u16(1)
    u32(directorySize)
    u32(directoryOffset)
    u16(0)
    return Data(bytes)
}

/// Extracts the only entry of `archive` into a file; returns the failure (if any) and what was written.
private func extract(_ archive: Data) throws -> (failure: ExploreZipArchive.Failure?, written: Data) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-inflater-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("hostile.zip")
    let target = folder.appendingPathComponent("out.db")
    try archive.write(to: source)
    try Data().write(to: target)
    let output = try FileHandle(forWritingTo: target)
    var failure: ExploreZipArchive.Failure?
    let zip = try ExploreZipArchive(url: source)
    let entry = try #require(zip.entries.first)
    do {
        _ = try zip.extract(entry, password: nil, to: output, maxBytes: 1 << 20)
    } catch {
        failure = error
    }
    try output.close()
    return (failure, try Data(contentsOf: target))
}

@Suite("Explore's inflater: a hostile deflate stream is read within its own bytes", .bounded)
struct ExploreInflaterTests {
    /// The archive the review found: a stored block whose header claims 65 535 bytes, followed by only
    /// 100. ZIPFoundation 0.9.20 on Linux told zlib the chunk held its whole buffer size, so zlib copied
    /// heap bytes from beyond it into the unpacked file.
    @Test("a stored block claiming 65 535 bytes over 100: truncated, and nothing past the 100 bytes is read")
    func storedBlockClaimingMoreThanItHolds() throws {
        let payload = [UInt8](repeating: 0x41, count: 100)
        // BFINAL = 1, BTYPE = 00 (stored), then LEN = 0xFFFF and NLEN = 0x0000.
        let deflated: [UInt8] = [0x01, 0xFF, 0xFF, 0x00, 0x00] + payload
        let (failure, written) = try extract(zip(entry: "explore.db", deflated: deflated, crc32: 0, uncompressedSize: 65_535))
        #expect(written.count <= payload.count, "read \(written.count - payload.count) bytes past the archive's data")
        #expect(written.allSatisfy { $0 == 0x41 })
        #expect(failure?.reason.contains("truncated") == true, "\(failure?.reason ?? "no failure")")
    }

    @Test("a whole stored block unpacks, and its CRC-32 is checked")
    func wholeStoredBlock() throws {
        let payload = Array("merchant 1\nmerchant 2\n".utf8)
        let length = UInt16(payload.count)
        let deflated: [UInt8] = [0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + payload
        let crc = ExploreInflater.crc32IEEE(0, Data(payload))
        #expect(ExploreInflater.crc32IEEE(0, Data("123456789".utf8)) == 0xCBF4_3926)  // the standard check value
        let good = try extract(zip(entry: "explore.db", deflated: deflated, crc32: crc, uncompressedSize: UInt32(payload.count)))
        #expect(good.failure == nil, "\(good.failure?.reason ?? "")")
        #expect(good.written == Data(payload))
        let wrongCRC = try extract(zip(entry: "explore.db", deflated: deflated, crc32: crc ^ 1, uncompressedSize: UInt32(payload.count)))
        #expect(wrongCRC.failure?.reason.contains("CRC-32") == true)
    }

    @Test("bytes after the end of the deflate stream, and a damaged stream, are refused")
    func trailingBytesAndDamage() throws {
        let payload = Array("abc".utf8)
        let whole: [UInt8] = [0x01, 0x03, 0x00, 0xFC, 0xFF] + payload
        let crc = ExploreInflater.crc32IEEE(0, Data(payload))
        let trailing = try extract(zip(entry: "explore.db", deflated: whole + [0x00, 0x01], crc32: crc, uncompressedSize: 3))
        #expect(trailing.failure?.reason.contains("after the end of its deflate stream") == true)
        // BTYPE = 11 is reserved: zlib calls the block type invalid.
        let damaged = try extract(zip(entry: "explore.db", deflated: [0x07, 0x00, 0x00], crc32: 0, uncompressedSize: 3))
        #expect(damaged.failure?.reason.contains("damaged") == true, "\(damaged.failure?.reason ?? "no failure")")
        #expect(damaged.written.isEmpty)
    }
}
