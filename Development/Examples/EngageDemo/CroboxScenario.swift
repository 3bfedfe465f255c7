#if Crobox
    @_spi(EngageProvider) import Engage
    import EngageSandbox
    import Foundation

    /// Crobox: a product overview page with promotions and badges, then cart and purchase events.
    struct CroboxScenario: DemoScenario {
        static let emulatorID = "crobox"

        let engage: Engage
        /// The embedded sandbox, when the scenario runs against it (to show what the backend received).
        let sandbox: SandboxHost?

        static func configure(_ configuration: inout EngageConfiguration, setup: DemoSetup) throws {
            try configuration.setProvider(
                .crobox,
                CroboxConfiguration(
                    containerID: setup.croboxContainer, baseURL: setup.baseURL(for: emulatorID), locale: "en_US", currency: "EUR"
                ))
        }

        func run(into report: inout DemoReport) async throws {
            let crobox = try await engage.provider(CroboxProvider.self)
            let products = ["sku-1001", "sku-1002", "sku-1003", "sku-1004"]
            let page = CroboxPage(pageType: .overview, pageName: "Sneakers")
            try await crobox.send(.pageView(title: "Sneakers", impressions: products), on: page)
            let promotions = try await crobox.promotions(placeholderID: "14", page: page, productIDs: products)
            let offers = try await engage.offers(OfferQuery(productIDs: products, placementID: "14"))
            _ = try await engage.track(
                TrackedEvent(.addToCart, productID: products[0], price: try Money(decimal: "59.90", currency: "EUR"), quantity: 1))
            try await crobox.send(
                .purchase(transactionID: "ORDER-1001", revenue: 59.9, impressions: [products[0]]), on: CroboxPage(pageType: .complete))
            let flush = await engage.registry.analytics.flush(destination: CroboxProvider.eventDestination)
            report.section("Crobox promotions") {
                $0.line("Campaigns: \(promotions.context.campaigns.map { "\($0.name) / \($0.variantName)" }.joined(separator: ", "))")
                for promotion in promotions.promotions {
                    $0.line("  • \(promotion.productID ?? "(page)"): \(Self.describe(promotion.content))")
                }
                $0.line(
                    "Through the facade: \(offers.items.count) offer(s) with badges from \(offers.report.succeeded.map(\.rawValue).joined(separator: ", "))"
                )
                for (id, failure) in offers.report.failures.sorted(by: { $0.key < $1.key }) {
                    $0.line("  (partial failure reported by the facade: \(id): \(failure.message))")
                }
                $0.line("Events: page view, add to cart (via engage.track), purchase; flush delivered \(flush.delivered)")
                if let sandbox {
                    let received = sandbox.journal.entries(for: "crobox").filter { $0.path == "/socket.gif" }
                    $0.line("Backend received \(received.count) event(s): \(received.compactMap { $0.query["t"] }.joined(separator: ", "))")
                }
            }
        }

        static func describe(_ content: CroboxPromotionContent?) -> String {
            guard let content else { return "no content (control group)" }
            switch content.typedConfig {
            case let .textBadge(badge): return "text badge \"\(badge.text)\""
            case let .imageBadge(badge): return "image badge \"\(badge.altText ?? badge.image)\""
            case let .secondaryMessaging(message): return "secondary message \"\(message.text)\""
            case let .unknown(name, _): return "component \(name)"
            }
        }
    }
#endif
