@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

extension ExploreFeedEmulator: InspectableEmulator {
    /// One table, `Directories`: per network, whether a directory is published (or waits to be
    /// generated on the first request: inspecting never generates it), its version (the manifest's
    /// timestamp), when that is, the archive's name, size in bytes and SHA-256, the Firebase Storage
    /// object's name, size and `Data-Checksum` (the CRC-32C that is also its password), how many
    /// downloads (of either shape) were served and how many damaged downloads are still armed.
    public func inspect() -> EmulatorStateView {
        let rows = networkSnapshots().map { snapshot -> [String] in
            let status: String
            if snapshot.manifest != nil {
                status = "published"
            } else if let pending = snapshot.pending {
                status = "generated on first request (\(pending.options.rows) rows, seed \(pending.options.seed))"
            } else {
                status = "nothing published"
            }
            let timestamp = snapshot.manifest?.timestamp ?? snapshot.pending?.timestamp
            return [
                snapshot.network.rawValue, status, timestamp.map { String($0) } ?? "",
                timestamp.map { Date(timeIntervalSince1970: Double($0) / 1_000).formatted(.iso8601) } ?? "",
                snapshot.manifest?.archive ?? "", snapshot.manifest.map { String($0.size) } ?? "", snapshot.manifest?.checksum ?? "",
                snapshot.object == nil ? "" : ExploreFeedEmulator.dashWalletObject(for: snapshot.network),
                snapshot.object.map { String($0.size) } ?? "", snapshot.object?.checksum ?? "",
                String(snapshot.downloads), String(snapshot.armedFaults.count),
            ]
        }
        return EmulatorStateView(tables: [
            .init(
                title: "Directories",
                columns: [
                    "network", "status", "version", "published at", "archive", "bytes", "SHA-256", "Firebase object", "object bytes",
                    "Data-Checksum", "downloads", "faults armed",
                ],
                rows: rows
            )
        ])
    }

    /// Forgets the download counts and the armed download faults. The published directories (and the
    /// ones still waiting to be generated) are the feed's seeded data and stay.
    public func reset() {
        forgetDownloads()
    }
}
