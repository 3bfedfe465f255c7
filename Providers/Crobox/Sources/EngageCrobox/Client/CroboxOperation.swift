@_spi(EngageProvider) import EngageCore

/// Every Crobox operation, declared once: the name its event, requests and own error reports carry.
enum CroboxOperation: String, ProviderOperation {
    /// `POST /promotions`: asks which promotions to show; asking twice changes nothing.
    case promotions
    /// `GET /socket.gif`: one queued event delivered.
    case event = "crobox_event"
    // Queuing an event, by kind (``CroboxEvent``).
    case pageViewEvent = "page_view_event"
    case clickEvent = "click_event"
    case addToCartEvent = "add_to_cart_event"
    case removeFromCartEvent = "remove_from_cart_event"
    case checkoutEvent = "checkout_event"
    case purchaseEvent = "purchase_event"
    case errorEvent = "error_event"
    case customEvent = "custom_event"

    /// Asking for promotions may be repeated; an event goes by GET, which HTTP lets be resent anyway.
    var isRepeatable: Bool { self == .promotions }
}
