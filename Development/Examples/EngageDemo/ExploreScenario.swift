#if Explore
    @_spi(EngageProvider) import Engage
    import EngageSandbox
    import ExploreEmulator
    import Foundation

    /// Explore: sync the merchant directory from the feed, list merchants near New York through the
    /// provider and through the facade, and buy a CTX gift card.
    struct ExploreScenario: DemoScenario {
        static let emulatorID = "explore-feed"

        let engage: Engage
        /// The embedded sandbox (its CTX emulator hands out the e-mailed sign-in code).
        let sandbox: SandboxHost?

        static func configure(_ configuration: inout EngageConfiguration, setup: DemoSetup) throws {
            var explore = ExploreConfiguration(feedURL: try setup.baseURL(for: emulatorID), syncsAutomatically: false)
            explore.giftCards[CTXGiftCards.self] = CTXConfiguration(baseURL: try setup.baseURL(for: "ctx"), clientID: "engage-demo")
            try configuration.setProvider(.explore, explore)
        }

        func run(into report: inout DemoReport) async throws {
            let explore = try await engage.provider(ExploreProvider.self)
            let outcome = try await explore.sync()
            let newYork = try GeoPoint(latitude: 40.7128, longitude: -74.0060)
            let nearby = try await explore.merchants(.nearby(newYork, radius: .miles(20), page: PageRequest(limit: 3)))
            let merged = try await engage.merchants(near: newYork, radiusMeters: 20 * 1_609.344, page: PageRequest(limit: 5))
            var purchase = "CTX: no emulator to sign in with"
            if let ctx = sandbox?.emulators.compactMap({ $0 as? CTXEmulator }).first,
                let seller = ctx.merchants.first(where: { $0.merchant.isEnabled && $0.merchant.denominationsType == .fixed }),
                let amount = seller.merchant.denominationValues.min()
            {
                let cards = try explore.giftCardSource(CTXGiftCards.self)
                try await cards.requestCode(email: "demo@example.com")
                try await cards.verify(email: "demo@example.com", code: ctx.loginCode(for: "demo@example.com") ?? "")
                let card = try await cards.buyGiftCard(merchantID: seller.merchant.id, fiatAmount: amount)
                let delivered = try await cards.waitForGiftCard(
                    id: card.id, polling: GiftCardPolling(interval: .milliseconds(500), maxPolls: 30))
                purchase =
                    "CTX: bought a \(amount) USD card at \(seller.merchant.name): \(delivered.status), secrets sealed (\(try await explore.storedGiftCards().count) stored)"
            }
            report.section("Explore directory") {
                switch outcome {
                case let .installed(timestamp, _, bytes):
                    $0.line("Synced the mainnet directory \(timestamp) (\(bytes) bytes, checksum verified)")
                case let .upToDate(timestamp): $0.line("Directory \(timestamp) already up to date")
                }
                $0.line("\(nearby.totalCount ?? 0) merchants within 20 miles of New York; closest:")
                for merchant in nearby.items {
                    $0.line("  • \(merchant.name) \(Int(merchant.distanceMeters ?? 0)) m (\(merchant.locationCount) location(s) nearby)")
                }
                $0.line(
                    "engage.merchants(near:) merged \(merged.items.count) from \(Set(merged.items.map(\.providerID.rawValue)).sorted().joined(separator: ", "))"
                )
                $0.line(purchase)
            }
        }
    }
#endif
