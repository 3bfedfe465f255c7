import EngageCore
import EngageExampleSupport
import EngageExplore
import Foundation

/// The example's walk through one directory.
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

    let directory: ExploreDirectory
    let output: ExampleOutput

    func run(center: GeoPoint, radius: ExploreRadius, text: String?, limit: Int) throws {
        output.section("Directory")
        output.line("\(directory.schema), \(directory.counts.merchants) merchants in \(directory.counts.rows) rows")

        if let text {
            output.section("Search \"\(text)\"")
            let found = try directory.merchants(ExploreMerchantQuery(text: text, page: PageRequest(limit: limit)))
            output.line("\(found.totalCount ?? 0) merchants")
            for merchant in found.items { output.line("  \(merchant.name) (\(merchant.type.rawValue))") }
        }

        output.section("Near \(center) within \(Int(radius.meters)) m")
        var query = ExploreMerchantQuery.nearby(center, radius: radius, page: PageRequest(limit: limit))
        query.text = text
        query.tab = .all
        let nearby = try directory.merchants(query)
        output.line("\(nearby.totalCount ?? 0) merchants, closest first")
        for merchant in nearby.items {
            let distance = merchant.distanceMeters.map { String(format: "%.0f m", $0) } ?? "?"
            output.line("  \(distance)  \(merchant.name)  (\(merchant.locationCount) location\(merchant.locationCount == 1 ? "" : "s") nearby)")
        }
        if output.json {
            try output.printJSON(nearby.items.map { merchant in
                NearbyMerchant(
                    merchantId: merchant.merchantID, name: merchant.name, latitude: merchant.location.latitude,
                    longitude: merchant.location.longitude, distanceMeters: merchant.distanceMeters, locationCount: merchant.locationCount,
                    paymentMethod: merchant.paymentMethod?.rawValue, discountPercent: merchant.discountPercent,
                    giftCardProviders: merchant.giftCardOffers.map(\.provider.rawValue)
                )
            })
        }

        guard let first = nearby.items.first else { return }
        output.section("\(first.name): locations and providers")
        let locations = try directory.locations(ofMerchant: first.merchantID, center: center, radius: radius)
        for location in locations.prefix(5) {
            let distance = location.distanceMeters.map { String(format: "%.0f m", $0) } ?? "?"
            output.line("  \(distance)  \(([location.addressLines.first, location.city].compactMap { $0 }).joined(separator: ", "))")
        }
        if locations.count > 5 { output.line("  … and \(locations.count - 5) more within the radius") }
        let offers = first.giftCardOffers
        output.line(offers.isEmpty ? "  No gift cards." : "  Gift cards: " + offers.map { "\($0.provider.rawValue) \($0.savingsPercent)%" }.joined(separator: ", "))
        output.line("  Best discount: \(first.discountPercent)%")
    }
}
