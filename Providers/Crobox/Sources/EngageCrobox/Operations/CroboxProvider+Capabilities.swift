@_spi(EngageProvider) import EngageCore
import Foundation

extension CroboxProvider {
    /// Promotions as offers, for `engage.offers(_:)`: `query.placementID` is the Crobox placeholder id,
    /// `query.productIDs` the products. Promotions without content (control group) are left out.
    public func offers(_ query: OfferQuery) async throws -> [Offer] {
        guard let placeholderID = query.placementID else {
            throw EngageError(
                .invalidInput, "Crobox offers need OfferQuery.placementID (the Crobox placeholder id).", providerID: .crobox,
                recoverySuggestion: "Pass the placeholder configured in the Crobox admin app as placementID."
            )
        }
        let page = CroboxPage(pageType: query.productIDs.isEmpty ? .other : .overview)
        let response = try await promotions(placeholderID: placeholderID, page: page, productIDs: query.productIDs)
        return response.promotions.compactMap { $0.offer(context: response.context) }
    }

    /// Maps the app's `TrackedEvent` to a Crobox event on the default page, for `engage.track(_:)`.
    ///
    /// Screen views become page views titled `name`; product views page views with the product; click,
    /// add to cart and remove from cart keep their product; checkout reads `properties["step"]`; purchase
    /// reads `properties["transaction_id"]`, `["affiliation"]`, `["coupon"]` and takes the revenue from
    /// `price × quantity`; anything else is a custom event named `name`. Remaining properties travel as
    /// custom properties. Every property value is sent as text: strings as they are, numbers and
    /// booleans as written, arrays and objects as compact JSON.
    public func track(_ event: TrackedEvent) async throws {
        try await send(Self.croboxEvent(for: event), on: defaultPage)
    }

    static func croboxEvent(for event: TrackedEvent) -> CroboxEvent {
        // Crobox's wire is a query string: every value travels as text (arrays and objects as compact JSON).
        var properties = event.properties.mapValues(\.text)
        let product = event.productID.map {
            CroboxProduct(
                id: $0, price: event.price.map { NSDecimalNumber(decimal: $0.decimalValue).doubleValue }, quantity: event.quantity)
        }
        let custom = { (properties: inout [String: String]) -> CroboxEvent.Kind in
            .custom(
                name: event.name, promotionID: properties.removeValue(forKey: "promotion_id").flatMap(UUID.init(uuidString:)),
                product: product)
        }
        let kind: CroboxEvent.Kind
        switch event.kind {
        case .screenView:
            kind = .pageView(
                title: event.name, searchTerms: properties.removeValue(forKey: "search_terms"), product: nil, otherProductIDs: [])
        case .productView:
            kind = .pageView(title: properties.removeValue(forKey: "title"), searchTerms: nil, product: product, otherProductIDs: [])
        case .click:
            kind = product.map { .click($0) } ?? custom(&properties)
        case .addToCart:
            kind = product.map { .addToCart($0) } ?? custom(&properties)
        case .removeFromCart:
            kind = product.map { .removeFromCart($0) } ?? custom(&properties)
        case .checkout:
            kind = .checkout(step: properties.removeValue(forKey: "step"))
        case .purchase:
            let revenue = event.price.map { NSDecimalNumber(decimal: $0.decimalValue).doubleValue * Double(event.quantity ?? 1) }
            kind = .purchase(
                transactionID: properties.removeValue(forKey: "transaction_id"), affiliation: properties.removeValue(forKey: "affiliation"),
                coupon: properties.removeValue(forKey: "coupon"), revenue: revenue
            )
        default:
            kind = custom(&properties)
        }
        return CroboxEvent(kind, customProperties: properties)
    }
}

extension CroboxPromotion {
    /// This promotion as a cross-provider `Offer` with its badge, or `nil` without content.
    func offer(context: CroboxPromotionContext) -> Offer? {
        guard let content else { return nil }
        var badge = Offer.Badge()
        var title = content.componentName
        switch content.typedConfig {
        case let .imageBadge(image):
            (badge, title) = image.offerBadge(fallbackTitle: title)
        case let .secondaryMessaging(message):
            (badge, title) = (Offer.Badge(text: message.text, foregroundColor: message.fontRGBA), message.text)
        case .textBadge, .unknown:
            // A text badge component's typed config is its by-keys text badge; unknown components are
            // read by keys, text first.
            if let text = content.textBadge {
                (badge, title) = (text.offerBadge, text.text)
            } else if let image = content.imageBadge {
                (badge, title) = image.offerBadge(fallbackTitle: title)
            }
        }
        var attributes = [
            "campaign_id": String(campaignID), "variant_id": String(variantID), "component": content.componentName,
            "message_id": content.messageID, "session_id": context.sessionID.uuidString.lowercased(),
        ]
        if let groupName = context.groupName { attributes["group_name"] = groupName }
        return Offer(
            id: id.uuidString.lowercased(), providerID: .crobox, kind: .promotion, title: LocalizedText(title),
            productID: productID, badge: badge, attributes: attributes
        )
    }
}

extension CroboxTextBadge {
    /// The badge as a cross-provider `Offer.Badge`.
    var offerBadge: Offer.Badge {
        Offer.Badge(text: text, foregroundColor: fontRGBA, backgroundColor: backgroundRGBA)
    }
}

extension CroboxImageBadge {
    /// The badge as a cross-provider `Offer.Badge`, with the offer title it suggests.
    func offerBadge(fallbackTitle: String) -> (Offer.Badge, String) {
        (Offer.Badge(text: altText, imageURL: URL(string: image)), altText ?? fallbackTitle)
    }
}
