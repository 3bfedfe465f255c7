@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
import ExploreEmulator
import Foundation
import EngageTestTraits
import Testing

/// The archive tools these tests use to write (and read) WinZip-AES archives independently of the
/// code under test: 7-Zip (`7zz`, AE-2), bsdtar (libarchive, AE-1) and Info-ZIP's `zip` (comments,
/// legacy encryption). `.ci/run` installs them; without them the tests are skipped, except in CI.
private enum ArchiveTools {
    static func path(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/usr/local/bin/\(name)", "/opt/homebrew/bin/\(name)"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    static let available = ["7zz", "bsdtar", "zip"].allSatisfy { path($0) != nil } || ProcessInfo.processInfo.environment["CI"] != nil

    /// Runs `tool` in `folder` with `arguments` and `input` on its standard input; returns its status.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], in folder: URL, input: String? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(path(tool), "\(tool) is not installed"))
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardInput = pipe
        try process.run()
        if let input { pipe.fileHandleForWriting.write(Data(input.utf8)) }
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A temporary folder with a deterministic `explore.db`-sized payload: bytes that do not compress much,
/// then text that does (so that deflate has work to do).
private struct ArchiveFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("explore-archives-\(UUID().uuidString)")
    let database: Data

    init(seed: UInt64 = 11, bytes: Int = 150_000) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        var state = seed
        var data = Data(capacity: bytes * 2)
        for _ in 0..<bytes {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            data.append(UInt8(truncatingIfNeeded: state >> 56))
        }
        data.append(Data((1...8_000).map { "merchant \($0)\n" }.joined().utf8))
        database = data
        try data.write(to: file("explore.db"))
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    var crc32c: CRC32C {
        var crc = CRC32C()
        crc.update(database)
        return crc
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite("Explore's encrypted directory archives (WinZip AES, CRC-32C), against independent tools", .bounded)
struct ExploreEncryptedArchiveTests {
    @Test("CRC-32C: the standard check value, the generator's hex without leading zeros, published values parsed")
    func crc32c() {
        var crc = CRC32C()
        crc.update(Data("123456789".utf8))
        #expect(crc.value == 0xE306_9283 && crc.hex == "e3069283")
        var pieces = CRC32C()
        pieces.update(Data("1234".utf8))
        pieces.update(Data("56789".utf8))
        #expect(pieces == crc)
        #expect(CRC32C().hex == "0")
        #expect(CRC32C.value(ofPublished: "a1b2c3d") == 0x0A1B_2C3D)
        #expect(CRC32C.value(ofPublished: "0A1B2C3D") == 0x0A1B_2C3D)
        for bad in ["", "123456789", "xyz", "-1", "+1a", " 1a", "1a\n"] {
            #expect(CRC32C.value(ofPublished: bad) == nil, "\(bad)")
        }
    }

    @Test(
        "an archive written by 7-Zip (AES-256 and AES-128, AE-2) or bsdtar (AES-256, AE-1, data descriptor) opens with its password",
        .enabled(if: ArchiveTools.available),
        arguments: [
            ("7zz", ["a", "-tzip", "-mem=AES256", "-pTop-Secret-1", "archive.zip", "explore.db"], UInt16(2), WinZipAES.Strength.aes256),
            ("7zz", ["a", "-tzip", "-mem=AES128", "-pTop-Secret-1", "archive.zip", "explore.db"], UInt16(2), WinZipAES.Strength.aes128),
            (
                "bsdtar",
                [
                    "--format", "zip", "--options", "zip:encryption=aes256", "--passphrase", "Top-Secret-1", "-cf", "archive.zip",
                    "explore.db",
                ],
                UInt16(1), WinZipAES.Strength.aes256
            ),
        ]
    )
    func independentArchives(tool: String, arguments: [String], vendorVersion: UInt16, strength: WinZipAES.Strength) throws {
        let folder = try ArchiveFolder()
        defer { folder.remove() }
        #expect(try ArchiveTools.run(tool, arguments, in: folder.url) == 0)
        let archive = try ExploreZipArchive(url: folder.file("archive.zip"))
        let entry = try #require(archive.entries.first { $0.path == "explore.db" })
        #expect(entry.isEncrypted && entry.aes?.vendorVersion == vendorVersion && entry.aes?.strength == strength && entry.aes?.method == 8)

        let unpacked = try ExploreArchive.extractDatabase(
            from: folder.file("archive.zip"), to: folder.file("out.db"), maxBytes: 1 << 24, password: "Top-Secret-1")
        #expect(try Data(contentsOf: folder.file("out.db")) == folder.database)
        #expect(unpacked.database.bytes == Int64(folder.database.count) && unpacked.database.crc32c == folder.crc32c)
    }

    @Test("a wrong or missing password is refused before anything is written", .enabled(if: ArchiveTools.available))
    func wrongPassword() throws {
        let folder = try ArchiveFolder()
        defer { folder.remove() }
        try ArchiveTools.run("7zz", ["a", "-tzip", "-mem=AES256", "-pright", "archive.zip", "explore.db"], in: folder.url)
        for password in ["wrong", "Right", nil] as [String?] {
            let error = #expect(throws: EngageError.self) {
                try ExploreArchive.extractDatabase(
                    from: folder.file("archive.zip"), to: folder.file("out.db"), maxBytes: 1 << 24, password: password)
            }
            #expect(error?.code == .exploreDownloadInvalid)
            #expect(error?.message.contains(password == nil ? "no password" : "password does not open") == true, "\(error?.message ?? "")")
            #expect((try? Data(contentsOf: folder.file("out.db")))?.isEmpty ?? true)
        }
    }

    @Test(
        "a byte changed in the encrypted data fails the authentication code before a byte is decrypted",
        .enabled(if: ArchiveTools.available))
    func tampered() throws {
        let folder = try ArchiveFolder()
        defer { folder.remove() }
        try ArchiveTools.run("7zz", ["a", "-tzip", "-mem=AES256", "-psecret", "archive.zip", "explore.db"], in: folder.url)
        var bytes = try Data(contentsOf: folder.file("archive.zip"))
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: folder.file("archive.zip"))
        let error = #expect(throws: EngageError.self) {
            try ExploreArchive.extractDatabase(
                from: folder.file("archive.zip"), to: folder.file("out.db"), maxBytes: 1 << 24, password: "secret")
        }
        #expect(error?.message.contains("authentication check") == true, "\(error?.message ?? "")")
        #expect(try Data(contentsOf: folder.file("out.db")).isEmpty)
    }

    @Test(
        "an unpacked size over the limit stops the extraction; the legacy zip encryption is refused", .enabled(if: ArchiveTools.available))
    func limitsAndLegacyEncryption() throws {
        let folder = try ArchiveFolder()
        defer { folder.remove() }
        try ArchiveTools.run("7zz", ["a", "-tzip", "-mem=AES256", "-psecret", "archive.zip", "explore.db"], in: folder.url)
        let overLimit = #expect(throws: EngageError.self) {
            try ExploreArchive.extractDatabase(
                from: folder.file("archive.zip"), to: folder.file("out.db"), maxBytes: 1_000, password: "secret")
        }
        #expect(overLimit?.message.contains("over the limit of 1000") == true, "\(overLimit?.message ?? "")")

        #expect(try ArchiveTools.run("zip", ["-q", "-P", "secret", "legacy.zip", "explore.db"], in: folder.url) == 0)
        let legacy = #expect(throws: EngageError.self) {
            try ExploreArchive.extractDatabase(
                from: folder.file("legacy.zip"), to: folder.file("out.db"), maxBytes: 1 << 24, password: "secret")
        }
        #expect(legacy?.message.contains("legacy zip encryption") == true, "\(legacy?.message ?? "")")
    }

    @Test("the archive comment set by Info-ZIP is read, and the entry still opens", .enabled(if: ArchiveTools.available))
    func comment() throws {
        let folder = try ArchiveFolder()
        defer { folder.remove() }
        try ArchiveTools.run("7zz", ["a", "-tzip", "-mem=AES256", "-psecret", "archive.zip", "explore.db"], in: folder.url)
        #expect(try ArchiveTools.run("zip", ["-q", "-z", "archive.zip"], in: folder.url, input: "1763700000000#e3069283") == 0)
        let unpacked = try ExploreArchive.extractDatabase(
            from: folder.file("archive.zip"), to: folder.file("out.db"), maxBytes: 1 << 24, password: "secret")
        #expect(unpacked.comment == "1763700000000#e3069283")
        #expect(unpacked.database.crc32c == folder.crc32c)
    }

    @Test(
        "the emulator's archive is what the Dash generator writes: 7-Zip and bsdtar open it with the CRC-32C as password",
        .enabled(if: ArchiveTools.available))
    func emulatorArchiveReadByIndependentTools() throws {
        let folder = try ArchiveFolder()
        defer { folder.remove() }
        let archive = try ExploreFeedArchiver.encryptedZip(database: folder.database, timestamp: 1_763_700_000_000)
        #expect(archive.checksum == folder.crc32c.hex)
        try archive.data.write(to: folder.file("object.zip"))
        #expect(try ArchiveTools.run("7zz", ["t", "-p\(archive.checksum)", "object.zip"], in: folder.url) == 0)
        #expect(try ArchiveTools.run("7zz", ["t", "-pwrong", "object.zip"], in: folder.url) != 0)
        try FileManager.default.createDirectory(at: folder.file("bsdtar"), withIntermediateDirectories: true)
        #expect(try ArchiveTools.run("bsdtar", ["--passphrase", archive.checksum, "-xf", "../object.zip"], in: folder.file("bsdtar")) == 0)
        #expect(try Data(contentsOf: folder.file("bsdtar/explore.db")) == folder.database)

        let zip = try ExploreZipArchive(url: folder.file("object.zip"))
        #expect(zip.comment == "1763700000000#\(archive.checksum)")
        #expect(zip.entries.map(\.path) == ["explore.db"] && zip.entries.first?.aes?.vendorVersion == 2)
        // The emulator's CRC-32C is its own code: the standard check value, and the generator's hex
        // without leading zeros.
        #expect(try ExploreFeedArchiver.encryptedZip(database: Data("123456789".utf8), timestamp: 1).checksum == "e3069283")
    }

    @Test("hostile files: not a zip, empty, truncated, a Zip64 marker; each is a clear error")
    func hostileFiles() throws {
        let folder = try ArchiveFolder()
        defer { folder.remove() }
        let archive = try ExploreFeedArchiver.encryptedZip(database: folder.database, timestamp: 1)
        var zip64 = archive.data
        // The end record's "entries" field set to 0xFFFF, as a Zip64 archive has it.
        let end = try #require(zip64.lastRange(of: Data([0x50, 0x4B, 0x05, 0x06])))
        zip64[end.lowerBound + 10] = 0xFF
        zip64[end.lowerBound + 11] = 0xFF
        let cases: [(Data, String)] = [
            (Data("not a zip at all, but long enough to have an end record".utf8), "no end of central directory"),
            (Data(), "it is not a zip archive (0 bytes)"),
            (archive.data.prefix(archive.data.count / 2), "not a zip archive"),
            (archive.data.dropLast(40), "not a zip archive"),
            (zip64, "Zip64"),
        ]
        for (bytes, expected) in cases {
            try bytes.write(to: folder.file("hostile.zip"))
            let error = #expect(throws: EngageError.self) {
                try ExploreArchive.extractDatabase(
                    from: folder.file("hostile.zip"), to: folder.file("out.db"), maxBytes: 1 << 24, password: archive.checksum)
            }
            #expect(error?.code == .exploreDownloadInvalid)
            #expect(error?.message.contains(expected) == true, "\(expected): \(error?.message ?? "")")
        }
    }
}
