@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

extension ExploreDirectoryStore {
    /// The sync itself: the source's release, download, verification, unpacking, indexing, then the swap.
    func performSync() async throws -> ExploreSyncOutcome {
        guard let source else {
            throw EngageError(
                .notConfigured, "Explore has no directory source (feed URL or Firebase Storage) to sync from.", providerID: .explore)
        }
        report(ExploreSyncProgress(phase: .checking))
        let release = try await source.latestRelease(for: network, maxBytes: limits.maxArchiveBytes)
        let installed = try state()
        let intact = installed.map { ExploreDatabaseFiles.matches(self.databaseURL.path, bytes: $0.databaseBytes) } ?? false
        if installed != nil, !intact {
            logger.warning(
                "The installed Explore directory is not the file its state describes (a torn install?); installing it again",
                metadata: ["network": "\(network.rawValue)"])
        }
        if var installed, intact, release.timestamp <= installed.timestamp {
            installed.checkedAt = clock.now
            try saveState(installed)
            report(ExploreSyncProgress(phase: .finished, expectedBytes: release.size))
            logger.debug(
                "Explore directory up to date", metadata: ["network": "\(network.rawValue)", "timestamp": "\(installed.timestamp)"])
            return .upToDate(timestamp: installed.timestamp)
        }

        if let refused = try refusedRelease(), refused.isSame(as: release), clock.now < refused.retryAt {
            throw EngageError(
                .exploreDownloadInvalid,
                "The directory of \(release.timestamp) failed its checks \(refused.refusals) times (last: \(refused.reason)); it is not "
                    + "downloaded again before \(refused.retryAt.formatted(.iso8601)). A newer directory is downloaded as soon as it is published.",
                providerID: .explore, isRetryable: false
            )
        }

        let incoming = folder.appendingPathComponent("incoming-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: incoming) }
        let archiveURL = incoming.appendingPathComponent("archive.zip")
        let databaseURL = incoming.appendingPathComponent(ExploreArchive.databaseName)
        let indexURL = incoming.appendingPathComponent(ExploreArchive.databaseName + ".index")

        report(ExploreSyncProgress(phase: .downloading, expectedBytes: release.size))
        let bytes: Int64
        do {
            bytes = try await download(release, to: archiveURL, from: source.client)
            report(ExploreSyncProgress(phase: .verifying, receivedBytes: bytes, expectedBytes: release.size))
            try await verifyAndUnpack(release, archive: archiveURL, database: databaseURL, index: indexURL)
        } catch let error as EngageError where error.code == .exploreDownloadInvalid && !(error.underlyingError is ExploreShortDownload) {
            try? noteRefused(release, reason: error.message)
            throw error
        }

        report(ExploreSyncProgress(phase: .installing, receivedBytes: bytes, expectedBytes: release.size))
        try Task.checkCancellation()
        let (installedDatabase, installedIndex, logger) = (self.databaseURL.path, self.indexURL.path, self.logger)
        let now = clock.now
        let databaseBytes = ((try? FileManager.default.attributesOfItem(atPath: databaseURL.path))?[.size] as? NSNumber)?.int64Value
        let state = ExploreSyncState(
            timestamp: release.timestamp, checksum: release.checksum, installedAt: now, checkedAt: now, databaseBytes: databaseBytes)
        let storeState = { @Sendable [self] in try await self.saveState(state) }
        // No opening runs while the files are renamed (see `install(_:)`).
        let directory = try await install {
            // The index first: if the process dies between the renames, the index's fingerprint no longer
            // matches the stored state and it is rebuilt from whatever file is in place.
            try await ExploreBlockingWork.run {
                try ExploreDatabaseFiles.replace(installedIndex, with: indexURL.path)
                try ExploreDatabaseFiles.replace(installedDatabase, with: databaseURL.path)
            }
            try await storeState()
            return try await ExploreBlockingWork.run {
                try ExploreDirectory.open(
                    path: installedDatabase, indexPath: installedIndex, fingerprint: state.fingerprint, logger: logger)
            }
        }
        try? storage.removeValue(forKey: refusedKey)
        report(ExploreSyncProgress(phase: .finished, receivedBytes: bytes, expectedBytes: release.size))
        logger.info(
            "Explore directory installed",
            metadata: [
                "network": "\(network.rawValue)", "timestamp": "\(release.timestamp)", "bytes": "\(bytes)",
                "merchants": "\(directory.counts.merchants)", "rows": "\(directory.counts.rows)",
            ])
        return .installed(timestamp: release.timestamp, previousTimestamp: installed?.timestamp, archiveBytes: bytes)
    }

    /// Downloads the archive, reporting progress (its size and checksum are checked next).
    private func download(_ release: ExploreRelease, to archiveURL: URL, from client: APIClient) async throws -> Int64 {
        let options = RequestOptions(
            timeout: limits.downloadTimeout, deadline: limits.downloadDeadline, authorization: .none,
            maxResponseBytes: Int(clamping: release.size),
            operation: ExploreOperation.download
        )
        let bytes: Int64
        do {
            (_, bytes) = try await client.download(.get, release.path, query: release.query, to: archiveURL, options: options) { transfer in
                self.report(ExploreSyncProgress(phase: .downloading, receivedBytes: transfer.receivedBytes, expectedBytes: release.size))
            }
        } catch {
            guard error.code == .responseTooLarge else { throw error }
            throw EngageError(
                .exploreDownloadInvalid, "The downloaded archive is larger than the published \(release.size) bytes.",
                providerID: .explore,
                underlyingError: error
            )
        }
        return bytes
    }

    /// Checks the archive, unpacks the database, checks it, and builds its index, all inside `incoming`.
    private func verifyAndUnpack(_ release: ExploreRelease, archive: URL, database: URL, index: URL) async throws {
        let (maxDatabaseBytes, logger) = (limits.maxDatabaseBytes, self.logger)
        try await ExploreBlockingWork.run {
            try release.verifyArchive(at: archive)
            let unpacked = try ExploreArchive.extractDatabase(
                from: archive, to: database, maxBytes: maxDatabaseBytes, password: release.password)
            try release.verifyUnpacked(unpacked)
            try? FileManager.default.removeItem(at: archive)
            do {
                _ = try ExploreIndexBuilder(
                    directoryPath: database.path, indexPath: index.path,
                    fingerprint: ExploreSyncState.fingerprint(checksum: release.checksum), logger: logger
                ).build()
            } catch let error as EngageError {
                throw EngageError(
                    .exploreDownloadInvalid, "The downloaded database is not a readable directory: \(error.message)", providerID: .explore,
                    underlyingError: error
                )
            } catch {
                throw EngageError(
                    .exploreDownloadInvalid, "The downloaded database is not a readable directory.", providerID: .explore,
                    underlyingError: error)
            }
        }
    }

    // MARK: Refused releases

    private var refusedKey: String { "refused.\(network.rawValue)" }

    /// The last release whose download failed its checks, if any.
    func refusedRelease() throws -> ExploreRefusedRelease? {
        try storage.value(ExploreRefusedRelease.self, forKey: refusedKey)
    }

    /// Records that `release` failed its checks again: from the second refusal in a row it is not
    /// downloaded again for 6 hours, doubling with each refusal, at most 7 days.
    private func noteRefused(_ release: ExploreRelease, reason: String) throws {
        let earlier = try refusedRelease().flatMap { $0.isSame(as: release) ? $0.refusals : nil } ?? 0
        let refusals = earlier + 1
        let hours = refusals < 2 ? 0 : min(6 * (1 << min(refusals - 2, 10)), 7 * 24)
        let refused = ExploreRefusedRelease(
            timestamp: release.timestamp, checksum: release.checksum, refusals: refusals,
            retryAt: clock.now.addingTimeInterval(TimeInterval(hours * 3_600)), reason: String(reason.prefix(200)))
        try storage.setValue(refused, forKey: refusedKey)
        logger.warning(
            "An Explore directory release failed its checks",
            metadata: [
                "network": "\(network.rawValue)", "timestamp": "\(release.timestamp)", "refusals": "\(refusals)",
                "retryAt": "\(refused.retryAt.formatted(.iso8601))",
            ])
    }
}

/// A download that ended before the published size: the transfer failed, not the release (it does not
/// count as the release's refusal).
package struct ExploreShortDownload: Error, Sendable {}

/// A directory release that failed its checks (checksum, MD5, CRC, a damaged zip, an unreadable
/// database), kept so that a bad release is not downloaded in full at every sync.
struct ExploreRefusedRelease: Codable, Sendable, Hashable {
    /// The release's data timestamp.
    var timestamp: Int64
    /// Its published checksum.
    var checksum: String
    /// How many times in a row it was refused.
    var refusals: Int
    /// Not downloaded again before this date (the injected clock).
    var retryAt: Date
    /// Why, the last time.
    var reason: String

    /// Whether `release` is this release.
    func isSame(as release: ExploreRelease) -> Bool {
        release.timestamp == timestamp && release.checksum == checksum
    }
}
