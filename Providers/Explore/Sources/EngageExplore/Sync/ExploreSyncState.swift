import Foundation

/// What a network's installed directory is: the feed values it was installed from, and when the feed
/// was last checked. Stored per network in the provider's storage.
public struct ExploreSyncState: Codable, Sendable, Hashable {
    /// The installed data's timestamp (milliseconds since 1970).
    public var timestamp: Int64
    /// The installed data's published checksum: the archive's SHA-256 from a self-hosted feed, the
    /// database's CRC-32C in hex from Firebase Storage. The index fingerprint is
    /// `sha256:<checksum>` for either (the prefix predates the second source; existing indexes stay valid).
    public var checksum: String
    /// When this data was installed.
    public var installedAt: Date
    /// When the feed was last checked successfully (up to date or installed).
    public var checkedAt: Date
    /// The installed database's size in bytes (`nil` in a state saved before it was recorded): a file of
    /// another size is not this directory, and the next sync installs it again.
    public var databaseBytes: Int64?

    /// A state with the given values.
    public init(timestamp: Int64, checksum: String, installedAt: Date, checkedAt: Date, databaseBytes: Int64? = nil) {
        self.timestamp = timestamp
        self.checksum = checksum
        self.installedAt = installedAt
        self.checkedAt = checkedAt
        self.databaseBytes = databaseBytes
    }

    /// The fingerprint the directory's index is built for.
    var fingerprint: String { Self.fingerprint(checksum: checksum) }

    /// The index fingerprint of a directory installed from an archive with this SHA-256.
    static func fingerprint(checksum: String) -> String { "sha256:\(checksum)" }
}

/// What a sync did.
public enum ExploreSyncOutcome: Sendable, Hashable {
    /// The installed directory is current: nothing was downloaded.
    case upToDate(timestamp: Int64)
    /// A new directory was downloaded, verified and installed.
    case installed(timestamp: Int64, previousTimestamp: Int64?, archiveBytes: Int64)
}

/// Where a sync is, reported to the caller as it goes.
public struct ExploreSyncProgress: Sendable, Hashable {
    /// The step under way.
    public enum Phase: String, Sendable, Hashable {
        /// Reading the feed's manifest.
        case checking
        /// Downloading the archive.
        case downloading
        /// Checking the archive's size and checksum, unpacking it and indexing the directory.
        case verifying
        /// Moving the new directory into place.
        case installing
        /// Done (installed or already up to date).
        case finished
    }

    /// The step under way.
    public var phase: Phase
    /// Archive bytes received so far.
    public var receivedBytes: Int64
    /// The archive's size, once the manifest is read.
    public var expectedBytes: Int64?

    /// Progress at `phase`.
    public init(phase: Phase, receivedBytes: Int64 = 0, expectedBytes: Int64? = nil) {
        self.phase = phase
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
    }

    /// The downloaded fraction, 0 to 1, when the size is known.
    public var fractionCompleted: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(expectedBytes))
    }
}
