#if Warply
    @_spi(EngageProvider) import Engage
    import EngageSandbox
    import Foundation

    /// Warply: a loyalty member logs in, sees campaigns and coupons, redeems one, and checks points.
    struct WarplyScenario: DemoScenario {
        static let emulatorID = "warply"

        let engage: Engage
        /// The embedded sandbox, when the scenario runs against it (to show what the backend received).
        let sandbox: SandboxHost?

        static func configure(_ configuration: inout EngageConfiguration, setup: DemoSetup) throws {
            var warply = WarplyConfiguration.preset(.development, appUUID: setup.warplyAppUUID)
            warply.environment = .custom(try setup.baseURL(for: emulatorID))
            warply.language = .english
            try configuration.setProvider(.warply, warply)
        }

        func run(into report: inout DemoReport) async throws {
            let warply = try await engage.provider(WarplyProvider.self)
            try await warply.logIn(deiEmail: "maria@example.gr")
            let campaigns = try await warply.campaigns()
            let coupons = try await warply.coupons()
            let before = try await warply.profile()
            let availability = try await warply.availableCoupons()
            let sets = try await warply.couponSets()
            var redeemed: String?
            if let set = sets.first(where: { (availability[$0.uuid] ?? 0) > 0 && ($0.points ?? 0) <= before.points }) {
                _ = try await warply.redeemCoupon(productUUID: set.uuid)
                redeemed = set.name ?? set.uuid
            }
            let after = try await warply.profile()
            let center = try GeoPoint(latitude: 37.9755, longitude: 23.7348)  // Syntagma, Athens
            let nearby = try await warply.merchants(WarplyMerchantQuery(center: center, distanceKilometers: 5))
            let card = try await warply.addCard(
                WarplyNewCard(
                    number: "5555 5555 5555 4444", issuer: "MASTERCARD", holder: "MARIA PAPADOPOULOU", expirationMonth: 6,
                    expirationYear: 2030
                ))
            let points = try await warply.pointsHistory()
            report.section("Warply loyalty") {
                $0.line("Logged in; \(campaigns.count) campaign(s) shown, \(warply.state.carouselList.count) in the carousel")
                for campaign in campaigns.prefix(5) {
                    $0.line("  • \(campaign.title ?? "-") (\(campaign.couponAvailability.map { "\($0) left" } ?? "open"))")
                }
                $0.line("Coupons: \(coupons.active.count) active, \(coupons.redeemed.count) redeemed")
                if let redeemed { $0.line("Redeemed \(redeemed): points \(before.points) → \(after.points)") }
                $0.line(
                    "Merchants within 5 km of Syntagma: \(nearby.map { "\($0.name ?? "-") \(Int($0.distanceMeters ?? 0)) m" }.prefix(4).joined(separator: ", "))"
                )
                $0.line(
                    "Added card \(card.maskedNumber ?? "-"); latest points entry: \(points.first.map { "\($0.points) on \($0.date?.formatted("dd/MM/yyyy") ?? "-")" } ?? "none")"
                )
                if let sandbox {
                    $0.line("Backend received \(sandbox.journal.entries(for: "warply").count) request(s)")
                }
            }
            try await warply.logOut()
        }
    }
#endif
