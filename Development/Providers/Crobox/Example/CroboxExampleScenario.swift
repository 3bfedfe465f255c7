@_spi(EngageProvider) import EngageCore
import EngageCrobox
@_spi(EngageProvider) import EngageExampleSupport
import Foundation
import Logging

/// The overview-page scenario, on a registry with only the Crobox provider.
struct CroboxExampleScenario {
    let registry: ProviderRegistry
    let crobox: CroboxProvider

    static let appID = "org.engagekit.crobox-example"

    init(baseURL: URL, containerID: String, storage: ExampleStorage) async throws {
        var configuration = EngageConfiguration.preset(.development, appID: Self.appID)
        configuration.storage = storage.location
        configuration.logLevel = .error
        try configuration.setProvider(
            .crobox, CroboxConfiguration(containerID: containerID, baseURL: baseURL, locale: "en_US", currency: "EUR"))
        registry = try ProviderRegistry(
            configuration: configuration,
            environment: RegistryEnvironment(secretStore: storage.secretStore, logger: ExampleBackend.quietLogger(label: "crobox-example"))
        )
        try await registry.register(.provider(CroboxProvider.self, from: configuration))
        let report = await registry.start()
        if let failure = report.failures[.crobox] { throw failure }
        crobox = try await registry.provider(CroboxProvider.self)
    }

    func run(placeholderID: String, productIDs: [String], output: ExampleOutput) async throws {
        let page = CroboxPage(pageType: .overview, pageName: "Product overview")
        try await crobox.send(.pageView(title: "Product overview", impressions: productIDs), on: page)
        output.line("Sent a page view with \(productIDs.count) impression(s)")

        let response = try await crobox.promotions(placeholderID: placeholderID, page: page, productIDs: productIDs)
        if output.json {
            try output.printJSON(PromotionsReport(response))
        } else {
            output.section("Promotions for placeholder \(placeholderID)")
            output.line(
                "visitor \(response.context.visitorID.uuidString.lowercased())  session \(response.context.sessionID.uuidString.lowercased())"
            )
            for campaign in response.context.campaigns {
                output.line(
                    "campaign \(campaign.id) \"\(campaign.name)\" variant \(campaign.variantName)\(campaign.isControl ? " (control)" : "")")
            }
            for promotion in response.promotions {
                output.line("\(promotion.productID ?? "(page)"): \(Self.describe(promotion.content))")
            }
        }

        if let first = productIDs.first {
            try await crobox.send(.addToCart(CroboxProduct(id: first, price: 59.9, quantity: 1)), on: page)
            let checkoutPage = CroboxPage(pageType: .complete, pageName: "Order complete")
            try await crobox.send(
                .purchase(transactionID: "ORDER-1001", affiliation: "app", revenue: 59.9, impressions: [first]), on: checkoutPage)
            output.line("Sent add-to-cart and purchase for \(first)")
        }
        let flush = await registry.analytics.flush()
        output.line("Delivered \(flush.delivered) queued event(s), \(flush.remaining) left")
    }

    func shutdown() async {
        await registry.shutdown()
    }

    static func describe(_ content: CroboxPromotionContent?) -> String {
        guard let content else { return "no content (control group)" }
        switch content.typedConfig {
        case let .textBadge(badge):
            return "text badge \"\(badge.text)\" font \(badge.fontColor ?? "-")"
                + (badge.backgroundColor.map { " background \($0)" } ?? "") + (badge.borderColor.map { " border \($0)" } ?? "")
        case let .imageBadge(badge):
            return "image badge \(badge.image) (\(badge.altText ?? "no alt text"))"
        case let .secondaryMessaging(message):
            return "secondary message \"\(message.text)\""
        case let .unknown(name, config):
            return "component \(name) \(config.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
        }
    }
}

/// The JSON form of `--json`: the response with each promotion's typed badge.
struct PromotionsReport: Encodable {
    struct Promotion: Encodable {
        var id: UUID
        var productId: String?
        var campaignId: Int
        var variantId: Int
        var component: String?
        var messageId: String?
        var config: [String: String]?
        var badge: Badge?
    }

    struct Badge: Encodable {
        var kind: String
        var text: String?
        var image: String?
        var altText: String?
        var fontColor: String?
        var backgroundColor: String?
        var borderColor: String?
    }

    var context: CroboxPromotionContext
    var promotions: [Promotion]

    init(_ response: CroboxPromotionsResponse) {
        context = response.context
        promotions = response.promotions.map { promotion in
            Promotion(
                id: promotion.id, productId: promotion.productID, campaignId: promotion.campaignID, variantId: promotion.variantID,
                component: promotion.content?.componentName, messageId: promotion.content?.messageID,
                config: promotion.content?.config, badge: promotion.content.map(Self.badge)
            )
        }
    }

    static func badge(_ content: CroboxPromotionContent) -> Badge {
        switch content.typedConfig {
        case let .textBadge(badge):
            Badge(
                kind: "text", text: badge.text, fontColor: badge.fontColor, backgroundColor: badge.backgroundColor,
                borderColor: badge.borderColor)
        case let .imageBadge(badge):
            Badge(kind: "image", image: badge.image, altText: badge.altText)
        case let .secondaryMessaging(message):
            Badge(kind: "secondaryMessaging", text: message.text, fontColor: message.fontColor)
        case let .unknown(name, _):
            Badge(
                kind: "unknown:\(name)", text: content.textBadge?.text, image: content.imageBadge?.image,
                altText: content.imageBadge?.altText)
        }
    }
}
