import Crypto
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) @_spi(EngageBenchmarks) import EngageExplore
import ExploreEmulator
import Foundation

/// The install half of a directory sync on a 100 MB archive: verify (size and SHA-256), unpack, and
/// swap into place (a rename), as `ExploreProvider.sync()` does after the download and before the
/// index build. The archive is the benchmark directory (1 000 000 rows) zipped by the feed emulator.
public final class ExploreSyncScenario: Sendable {
    /// The archive, its size in bytes and its SHA-256 (what a feed's manifest publishes).
    public let archive: URL
    let size: Int64
    let checksum: String
    /// Where each iteration unpacks and what it replaces.
    public let staging: URL
    public let installed: URL

    public init(rows: Int = 1_000_000) throws {
        let source = try ExploreScenario.directoryFile(rows: rows)
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("engage-bench-explore-sync")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        archive = folder.appendingPathComponent("explore-\(rows).zip")
        if !FileManager.default.fileExists(atPath: archive.path) {
            let data = try ExploreFeedArchiver.zip(databaseAt: URL(fileURLWithPath: source), in: folder)
            try data.write(to: archive)
        }
        let data = try Data(contentsOf: archive)
        size = Int64(data.count)
        checksum = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        staging = folder.appendingPathComponent("staging.db")
        installed = folder.appendingPathComponent("installed.db")
    }

    /// Megabytes of the archive.
    public var archiveMegabytes: Double { Double(size) / 1_048_576 }

    /// Verify, then swap the archive itself into place (rename) and back: the part of an install that
    /// does not depend on the directory's contents.
    public func verifyAndSwap() throws {
        try ExploreProvider.verifyArchive(at: archive, size: size, checksum: checksum)
        try Self.rename(archive, to: installed)
        try Self.rename(installed, to: archive)
    }

    /// Verify, unpack the database and swap it into place.
    public func verifyUnpackAndSwap() throws {
        try ExploreProvider.verifyArchive(at: archive, size: size, checksum: checksum)
        try ExploreProvider.extractDirectory(fromArchiveAt: archive, to: staging, maxBytes: 1 << 31)
        try Self.rename(staging, to: installed)
    }

    private static func rename(_ source: URL, to destination: URL) throws {
        guard Foundation.rename(source.path, destination.path) == 0 else {
            throw ExploreSyncBenchmarkError(message: "rename \(source.lastPathComponent) failed (errno \(errno))")
        }
    }
}

struct ExploreSyncBenchmarkError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
