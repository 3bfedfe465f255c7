@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageExplore
import Foundation

/// The example's walk through the directory, through the provider.
struct ExploreExampleScenario {
    /// One line of `--json` output.
    struct NearbyMerchant: Encodable {
        var merchantId: String
        var name: String
        var latitude: Double?
        var longitude: Double?
        var distanceMeters: Double?
        var locationCount: Int
        var paymentMethod: String?
        var discountPercent: Double
        var giftCardProviders: [String]
    }

    let explore: ExploreProvider
    let output: ExampleOutput

    /// Syncs from the feed, narrating the download's progress by quarters.
    func sync() async throws {
        output.section("Sync")
        let quarter = Locked(-1)
        let output = output
        let outcome = try await explore.sync { progress in
            guard progress.phase == .downloading, let fraction = progress.fractionCompleted else { return }
            let reached = Int(fraction * 4)
            let changed = quarter.withLock { last -> Bool in
                guard reached > last else { return false }
                last = reached
                return true
            }
            if changed { output.line("  downloading: \(reached * 25)% of \(progress.expectedBytes ?? 0) bytes") }
        }
        switch outcome {
        case let .installed(timestamp, _, bytes): output.line("Installed the directory of \(timestamp) (\(bytes) bytes, checksum verified)")
        case let .upToDate(timestamp): output.line("Up to date (\(timestamp))")
        }
    }

    /// Text search, the nearby list and one merchant's details; returns the nearby merchants.
    func run(center: GeoPoint, radius: ExploreRadius, text: String?, limit: Int) async throws -> [ExploreMerchant] {
        if let text {
            output.section("Search \"\(text)\"")
            let found = try await explore.merchants(ExploreMerchantQuery(text: text, page: PageRequest(limit: limit)))
            output.line("\(found.totalCount ?? 0) merchants")
            for merchant in found.items { output.line("  \(merchant.name) (\(merchant.type.rawValue))") }
        }

        output.section("Near \(center) within \(Int(radius.meters)) m")
        var query = ExploreMerchantQuery.nearby(center, radius: radius, page: PageRequest(limit: limit))
        query.text = text
        query.tab = .all
        let nearby = try await explore.merchants(query)
        output.line("\(nearby.totalCount ?? 0) merchants, closest first")
        for merchant in nearby.items {
            let distance = merchant.distanceMeters.map { String(format: "%.0f m", $0) } ?? "?"
            output.line(
                "  \(distance)  \(merchant.name)  (\(merchant.locationCount) location\(merchant.locationCount == 1 ? "" : "s") nearby)")
        }
        if output.json {
            try output.printJSON(
                nearby.items.map { merchant in
                    NearbyMerchant(
                        merchantId: merchant.merchantID, name: merchant.name, latitude: merchant.location.latitude,
                        longitude: merchant.location.longitude, distanceMeters: merchant.distanceMeters,
                        locationCount: merchant.locationCount,
                        paymentMethod: merchant.paymentMethod?.rawValue, discountPercent: merchant.discountPercent,
                        giftCardProviders: merchant.giftCardOffers.map(\.provider.rawValue)
                    )
                })
        }

        guard let first = nearby.items.first else { return nearby.items }
        output.section("\(first.name): locations and providers")
        let locations = try await explore.locations(ofMerchant: first.merchantID, center: center, radius: radius)
        for location in locations.prefix(5) {
            let distance = location.distanceMeters.map { String(format: "%.0f m", $0) } ?? "?"
            output.line("  \(distance)  \(([location.addressLines.first, location.city].compactMap { $0 }).joined(separator: ", "))")
        }
        if locations.count > 5 { output.line("  … and \(locations.count - 5) more within the radius") }
        let offers = first.giftCardOffers
        output.line(
            offers.isEmpty
                ? "  No gift cards."
                : "  Gift cards: " + offers.map { "\($0.provider.rawValue) \($0.savingsPercent)%" }.joined(separator: ", "))
        output.line("  Best discount: \(first.discountPercent)%")
        return nearby.items
    }
}
