import Foundation

/// The answer of `POST /promotions`: the campaign context and the promotions computed for the request.
///
/// Wire form (the emulator encodes this type, the provider decodes it):
/// ```json
/// { "context": { "experiments": [ {"id":1,"name":"Campaign 1","variantId":1,"variantName":"Crobox","control":false} ],
///                "groupName": "Campaign 1 : Crobox", "pid": "<visitor UUID>", "sid": "<session UUID>" },
///   "promotions": [ { "id": "<UUID>", "productId": "Product1", "campaignId": 1, "variantId": 1,
///                     "content": { "id": "<message UUID>", "component": "mob-app-text-badge.tsx",
///                                  "config": { "text": "Best seller", "fontColor": "#0e1111" } } } ] }
/// ```
public struct CroboxPromotionsResponse: Codable, Sendable, Equatable {
    public var context: CroboxPromotionContext
    public var promotions: [CroboxPromotion]

    public init(context: CroboxPromotionContext, promotions: [CroboxPromotion]) {
        self.context = context
        self.promotions = promotions
    }
}

/// Which campaigns ran for the visitor, and the session.
public struct CroboxPromotionContext: Codable, Sendable, Equatable {
    /// The ongoing campaigns (`experiments` on the wire).
    public var campaigns: [CroboxCampaign]
    /// Campaign and variant names combined, e.g. `Campaign 1 : Crobox`.
    public var groupName: String?
    /// The visitor id (`pid`), echoing the request.
    public var visitorID: UUID
    /// The session id (`sid`).
    public var sessionID: UUID

    enum CodingKeys: String, CodingKey {
        case campaigns = "experiments"
        case groupName
        case visitorID = "pid"
        case sessionID = "sid"
    }

    public init(campaigns: [CroboxCampaign], groupName: String?, visitorID: UUID, sessionID: UUID) {
        self.campaigns = campaigns
        self.groupName = groupName
        self.visitorID = visitorID
        self.sessionID = sessionID
    }
}

/// A campaign and the variant the visitor was allocated to.
public struct CroboxCampaign: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var variantID: Int
    public var variantName: String
    /// Whether the variant is the control group (no promotion shown).
    public var isControl: Bool

    enum CodingKeys: String, CodingKey {
        case id, name
        case variantID = "variantId"
        case variantName
        case isControl = "control"
    }

    public init(id: Int, name: String, variantID: Int, variantName: String, isControl: Bool) {
        self.id = id
        self.name = name
        self.variantID = variantID
        self.variantName = variantName
        self.isControl = isControl
    }
}

/// A promotion for one product (or for the page when no product was asked for).
public struct CroboxPromotion: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    public var productID: String?
    public var campaignID: Int
    public var variantID: Int
    public var content: CroboxPromotionContent?

    enum CodingKeys: String, CodingKey {
        case id
        case productID = "productId"
        case campaignID = "campaignId"
        case variantID = "variantId"
        case content
    }

    public init(id: UUID, productID: String?, campaignID: Int, variantID: Int, content: CroboxPromotionContent?) {
        self.id = id
        self.productID = productID
        self.campaignID = campaignID
        self.variantID = variantID
        self.content = content
    }
}

/// What to show: a component and its visual configuration, managed in the Crobox admin app.
public struct CroboxPromotionContent: Codable, Sendable, Equatable {
    /// The message assigned to this promotion (`id` on the wire).
    public var messageID: UUID
    /// The component name, e.g. `mob-app-text-badge.tsx` (`component` on the wire).
    public var componentName: String
    /// Every configuration item as sent, string to string.
    public var config: [String: String]

    enum CodingKeys: String, CodingKey {
        case messageID = "id"
        case componentName = "component"
        case config
    }

    public init(messageID: UUID, componentName: String, config: [String: String]) {
        self.messageID = messageID
        self.componentName = componentName
        self.config = config
    }

    /// A missing `config` is read as empty; a `config` that is not a string-to-string map is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messageID = try container.decode(UUID.self, forKey: .messageID)
        componentName = try container.decode(String.self, forKey: .componentName)
        config = try container.decodeIfPresent([String: String].self, forKey: .config) ?? [:]
    }
}
