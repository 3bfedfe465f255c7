@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageExplore
import EngageSandbox
import ExploreEmulator
import Foundation

/// The embedded backends: a directory feed publishing a generated directory, and a CTX backend selling
/// gift cards for the directory's CTX merchants nearest the centre (so the card bought is one the
/// directory lists).
struct ExploreExampleBackend {
    let host: SandboxHost
    let feedURL: URL
    let ctxURL: URL
    let ctx: CTXEmulator

    static func start(rows: Int, center: GeoPoint, folder: URL, output: ExampleOutput) async throws -> ExploreExampleBackend {
        let published = folder.appendingPathComponent("published.db")
        let summary = try ExploreDirectoryGenerator(options: .init(seed: 42, rows: rows)).write(to: published.path)
        output.line("Feed: a generated directory of \(summary.rows) rows, \(summary.merchants) merchants, \(summary.atms) ATMs")
        let feed = try ExploreFeedEmulator(folder: folder.appendingPathComponent("feed"))
        let manifest = try feed.publish(databaseAt: published, network: .mainnet, timestamp: Int64(Date().timeIntervalSince1970 * 1_000))
        output.line("Feed: published \(manifest.archive) (\(manifest.size) bytes, sha256 \(manifest.checksum.prefix(12))…)")
        // Cards are paid shortly after creation (standing in for the wallet) and delivered a second later.
        let ctx = CTXEmulator(
            merchants: try ctxCatalogue(directoryAt: published, folder: folder, center: center),
            configuration: .init(fulfillmentDelay: .seconds(1), autoPayDelay: .milliseconds(300))
        )
        let host = SandboxHost(
            emulators: [feed, ctx],
            configuration: SandboxConfiguration(logger: ExampleBackend.quietLogger(label: "explore-example.sandbox")))
        let endpoints = try await host.start()
        guard let feedURL = endpoints.baseURL(for: feed.id), let ctxURL = endpoints.baseURL(for: ctx.id) else {
            await host.stop()
            throw ExploreExampleError(message: "The embedded sandbox did not serve the feed and CTX emulators.")
        }
        return ExploreExampleBackend(host: host, feedURL: feedURL, ctxURL: ctxURL, ctx: ctx)
    }

    /// CTX merchants for the directory's merchants that CTX sells, nearest the centre first: the CTX id
    /// is the offer's `sourceId` (else the merchant id), denominations follow the directory's type.
    private static func ctxCatalogue(directoryAt path: URL, folder: URL, center: GeoPoint) throws -> [CTXEmulatorMerchant] {
        let directory = try ExploreDirectory.open(
            path: path.path, indexPath: folder.appendingPathComponent("published.index").path,
            logger: ExampleBackend.quietLogger(label: "explore-example.catalogue")
        )
        defer { try? directory.close() }
        let query = ExploreMerchantQuery(giftCardProviders: [.ctx], center: center, sort: .distance, page: PageRequest(limit: 50))
        return try directory.merchants(query).items.compactMap { merchant in
            guard let offer = merchant.giftCardOffers.first(where: { $0.provider == .ctx }) else { return nil }
            let fixed = (offer.denominationsType ?? merchant.denominationsType) == .fixed
            return CTXEmulatorMerchant(
                CTXEmulatorMerchant.Record(
                    id: offer.sourceID ?? merchant.merchantID, name: merchant.name, logoURL: merchant.logoURL, isEnabled: true,
                    savingsBasisPoints: offer.savingsBasisPoints, denominationsType: fixed ? .fixed : .minMax,
                    denominationValues: fixed ? [10, 25, 50, 100] : [5, 500], locationCount: merchant.locationCount
                ))
        }
    }

    func stop() async { await host.stop() }
}

/// A failure of the example's own setup.
struct ExploreExampleError: Error, CustomStringConvertible {
    let message: String
    /// The process's exit status (1 unless the error says otherwise).
    var exitCode: Int32 = 1
    var description: String { message }
}
