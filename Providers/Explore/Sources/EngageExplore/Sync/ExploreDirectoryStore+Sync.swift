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
        if var installed, FileManager.default.fileExists(atPath: databaseURL.path), release.timestamp <= installed.timestamp {
            installed.checkedAt = clock.now
            try saveState(installed)
            report(ExploreSyncProgress(phase: .finished, expectedBytes: release.size))
            logger.debug(
                "Explore directory up to date", metadata: ["network": "\(network.rawValue)", "timestamp": "\(installed.timestamp)"])
            return .upToDate(timestamp: installed.timestamp)
        }

        let incoming = folder.appendingPathComponent("incoming-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: incoming) }
        let archiveURL = incoming.appendingPathComponent("archive.zip")
        let databaseURL = incoming.appendingPathComponent(ExploreArchive.databaseName)
        let indexURL = incoming.appendingPathComponent(ExploreArchive.databaseName + ".index")

        report(ExploreSyncProgress(phase: .downloading, expectedBytes: release.size))
        let bytes = try await download(release, to: archiveURL, from: source.client)
        report(ExploreSyncProgress(phase: .verifying, receivedBytes: bytes, expectedBytes: release.size))
        try await verifyAndUnpack(release, archive: archiveURL, database: databaseURL, index: indexURL)

        report(ExploreSyncProgress(phase: .installing, receivedBytes: bytes, expectedBytes: release.size))
        try Task.checkCancellation()
        let (installedDatabase, installedIndex, logger) = (self.databaseURL.path, self.indexURL.path, self.logger)
        let now = clock.now
        let state = ExploreSyncState(timestamp: release.timestamp, checksum: release.checksum, installedAt: now, checkedAt: now)
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
            operationName: "explore_download"
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
}
