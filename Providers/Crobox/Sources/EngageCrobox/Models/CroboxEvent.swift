import Foundation

/// A product in an event: id, unit price and quantity.
public struct CroboxProduct: Sendable, Equatable, Codable {
    public var id: String
    public var price: Double?
    public var quantity: Int?

    public init(id: String, price: Double? = nil, quantity: Int? = nil) {
        self.id = id
        self.price = price
        self.quantity = quantity
    }
}

/// An event sent to Crobox (`GET /socket.gif`). Build it with the static constructors:
///
/// ```swift
/// try await crobox.send(.pageView(title: "Shoes", impressions: ["sku-1", "sku-2"]), on: page)
/// try await crobox.send(.addToCart(CroboxProduct(id: "sku-1", price: 49.9, quantity: 1)), on: page)
/// try await crobox.send(.purchase(transactionID: "T-1", revenue: 49.9, coupon: "SPRING"), on: page)
/// ```
public struct CroboxEvent: Sendable, Equatable {
    /// The event's kind, with its own parameters.
    public enum Kind: Sendable, Equatable {
        case pageView(title: String?, searchTerms: String?, product: CroboxProduct?, otherProductIDs: [String])
        case click(CroboxProduct)
        case addToCart(CroboxProduct)
        case removeFromCart(CroboxProduct)
        case checkout(step: String?)
        case purchase(transactionID: String?, affiliation: String?, coupon: String?, revenue: Double?)
        case error(tag: String, name: String, message: String?, file: String?, line: Int?)
        case custom(name: String, promotionID: UUID?, product: CroboxProduct?)
    }

    public var kind: Kind
    /// Product ids shown on the page (`[i]` / `imp[i]`), for page views, checkouts and purchases.
    public var impressions: [String]
    /// Custom properties of this event (`cp.<key>`), overriding the page's.
    public var customProperties: [String: String]

    public init(_ kind: Kind, impressions: [String] = [], customProperties: [String: String] = [:]) {
        self.kind = kind
        self.impressions = impressions
        self.customProperties = customProperties
    }

    public static func pageView(
        title: String? = nil, searchTerms: String? = nil, product: CroboxProduct? = nil, otherProductIDs: [String] = [],
        impressions: [String] = [], customProperties: [String: String] = [:]
    ) -> CroboxEvent {
        CroboxEvent(
            .pageView(title: title, searchTerms: searchTerms, product: product, otherProductIDs: otherProductIDs),
            impressions: impressions, customProperties: customProperties)
    }

    public static func click(_ product: CroboxProduct) -> CroboxEvent { CroboxEvent(.click(product)) }
    public static func addToCart(_ product: CroboxProduct) -> CroboxEvent { CroboxEvent(.addToCart(product)) }
    public static func removeFromCart(_ product: CroboxProduct) -> CroboxEvent { CroboxEvent(.removeFromCart(product)) }

    /// A checkout, at `step` (any text, sent as `stp`: the official SDK's `CheckoutParams.step` is a
    /// `String`, its sample sends `"step-1"`).
    public static func checkout(step: String? = nil, impressions: [String] = [], customProperties: [String: String] = [:]) -> CroboxEvent {
        CroboxEvent(.checkout(step: step), impressions: impressions, customProperties: customProperties)
    }

    /// A checkout at a numbered step.
    @available(*, deprecated, message: "Crobox's checkout step is text: pass a String, e.g. checkout(step: \"2\").")
    public static func checkout(step: Int, impressions: [String] = [], customProperties: [String: String] = [:]) -> CroboxEvent {
        checkout(step: String(step), impressions: impressions, customProperties: customProperties)
    }

    public static func purchase(
        transactionID: String? = nil, affiliation: String? = nil, coupon: String? = nil, revenue: Double? = nil,
        impressions: [String] = [], customProperties: [String: String] = [:]
    ) -> CroboxEvent {
        CroboxEvent(
            .purchase(transactionID: transactionID, affiliation: affiliation, coupon: coupon, revenue: revenue),
            impressions: impressions, customProperties: customProperties)
    }

    public static func error(tag: String, name: String, message: String? = nil, file: String? = nil, line: Int? = nil) -> CroboxEvent {
        CroboxEvent(.error(tag: tag, name: name, message: message, file: file, line: line))
    }

    public static func custom(
        name: String, promotionID: UUID? = nil, product: CroboxProduct? = nil, customProperties: [String: String] = [:]
    ) -> CroboxEvent {
        CroboxEvent(.custom(name: name, promotionID: promotionID, product: product), customProperties: customProperties)
    }

    /// The operation that queues it, by kind: its event is named after it (`add_to_cart_event`).
    var operation: CroboxOperation {
        switch kind {
        case .pageView: .pageViewEvent
        case .click: .clickEvent
        case .addToCart: .addToCartEvent
        case .removeFromCart: .removeFromCartEvent
        case .checkout: .checkoutEvent
        case .purchase: .purchaseEvent
        case .error: .errorEvent
        case .custom: .customEvent
        }
    }
}
