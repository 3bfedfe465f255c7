import Foundation

/// The answer of `POST /promotions`: the campaign context and the promotions computed for the request.
///
/// Wire form (the provider decodes it; the emulator writes the same shape with its own code, and the
/// official SDK's document is recorded in the Crobox tests' `Fixtures`):
/// ```json
/// { "context": { "experiments": [ {"id":1,"name":"Campaign 1","variantId":1,"variantName":"Crobox","control":false} ],
///                "groupName": "Campaign 1 : Crobox", "pid": "<visitor UUID>", "sid": "<session UUID>" },
///   "promotions": [ { "id": "<UUID>", "productId": "Product1", "campaignId": 1, "variantId": 1,
///                     "content": { "id": "<message UUID>", "component": "mob-app-text-badge.tsx",
///                                  "config": { "text": "Best seller", "fontColor": "#0e1111" } } } ] }
/// ```
///
/// Read as leniently as the official Crobox SDK reads it (`Sources/Crobox/domain/model/` in
/// crobox-sdk-ios), and more so where the SDK loses what is still good: a promotion whose `id` is not
/// a UUID is dropped alone (the SDK drops them all), a campaign that is not an object is dropped alone,
/// a `config` keeps its string values when others are not strings (the SDK empties it). Only `context`
/// with its `pid` and `sid` is required. What was dropped is counted (``droppedPromotionCount``,
/// ``droppedValueCount``) and logged by the provider.
public struct CroboxPromotionsResponse: Codable, Sendable, Equatable {
    /// Which campaigns ran, and the visitor and session.
    public var context: CroboxPromotionContext
    /// The promotions that could be read, in the order sent.
    public var promotions: [CroboxPromotion]
    /// How many promotions were dropped for an `id` that is not a UUID, or for not being objects.
    public var droppedPromotionCount: Int
    /// How many other values were dropped or read as their defaults: campaigns that are not objects,
    /// configuration values that are not strings, fields of the wrong type.
    public var droppedValueCount: Int

    /// A response (nothing dropped).
    public init(context: CroboxPromotionContext, promotions: [CroboxPromotion]) {
        self.context = context
        self.promotions = promotions
        droppedPromotionCount = 0
        droppedValueCount = 0
    }

    enum CodingKeys: String, CodingKey {
        case context, promotions
    }

    /// Reads the answer, dropping only what cannot be read (see the type's documentation).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        context = try container.decode(CroboxPromotionContext.self, forKey: .context)
        var promotions: [CroboxPromotion] = []
        var dropped = 0
        if var list = try? container.nestedUnkeyedContainer(forKey: .promotions) {
            while !list.isAtEnd {
                if let promotion = try? list.decode(CroboxPromotion.self) {
                    promotions.append(promotion)
                } else {
                    dropped += 1
                    _ = try? list.decode(CroboxSkipped.self)
                }
            }
        }
        self.promotions = promotions
        droppedPromotionCount = dropped
        droppedValueCount = context.droppedValueCount + promotions.reduce(0) { $0 + $1.droppedValueCount }
    }

}

/// Any JSON value, read only to move past an element that could not be decoded.
struct CroboxSkipped: Decodable {
    init(from decoder: any Decoder) throws {}
}

extension KeyedDecodingContainer {
    /// The value at `key` as `type`, or `nil` when it is missing or of another type; `dropped` counts a
    /// value that was present but unreadable.
    fileprivate func lenient<Value: Decodable>(_ type: Value.Type, _ key: Key, dropped: inout Int) -> Value? {
        guard contains(key), (try? decodeNil(forKey: key)) == false else { return nil }
        if let value = try? decode(type, forKey: key) { return value }
        dropped += 1
        return nil
    }

    /// An integer at `key`, also from a string of digits (`"1"`), or `nil`.
    fileprivate func lenientInteger(_ key: Key, dropped: inout Int) -> Int? {
        guard contains(key), (try? decodeNil(forKey: key)) == false else { return nil }
        if let value = try? decode(Int.self, forKey: key) { return value }
        if let text = try? decode(String.self, forKey: key), let value = Int(text) { return value }
        dropped += 1
        return nil
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

    /// How many campaigns or values were dropped while reading.
    var droppedValueCount = 0

    public init(campaigns: [CroboxCampaign], groupName: String?, visitorID: UUID, sessionID: UUID) {
        self.campaigns = campaigns
        self.groupName = groupName
        self.visitorID = visitorID
        self.sessionID = sessionID
    }

    /// `pid` and `sid` must be UUIDs; campaigns that are not objects are dropped alone; a `groupName`
    /// that is not a string reads as absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        visitorID = try container.decode(UUID.self, forKey: .visitorID)
        sessionID = try container.decode(UUID.self, forKey: .sessionID)
        var dropped = 0
        groupName = container.lenient(String.self, .groupName, dropped: &dropped)
        var campaigns: [CroboxCampaign] = []
        if var list = try? container.nestedUnkeyedContainer(forKey: .campaigns) {
            while !list.isAtEnd {
                if let campaign = try? list.decode(CroboxCampaign.self) {
                    campaigns.append(campaign)
                    dropped += campaign.droppedValueCount
                } else {
                    dropped += 1
                    _ = try? list.decode(CroboxSkipped.self)
                }
            }
        }
        self.campaigns = campaigns
        droppedValueCount = dropped
    }

    /// Equal when the values read are (what was dropped on the way is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.campaigns == rhs.campaigns && lhs.groupName == rhs.groupName && lhs.visitorID == rhs.visitorID
            && lhs.sessionID == rhs.sessionID
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

    /// How many fields were of the wrong type (read as their defaults).
    var droppedValueCount = 0

    public init(id: Int, name: String, variantID: Int, variantName: String, isControl: Bool) {
        self.id = id
        self.name = name
        self.variantID = variantID
        self.variantName = variantName
        self.isControl = isControl
    }

    /// Every field defaults on its own, as the official SDK reads it (0, `""`, `false`); numbers may
    /// come as strings of digits, and `control` as `"true"` or `"false"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var dropped = 0
        id = container.lenientInteger(.id, dropped: &dropped) ?? 0
        name = container.lenient(String.self, .name, dropped: &dropped) ?? ""
        variantID = container.lenientInteger(.variantID, dropped: &dropped) ?? 0
        variantName = container.lenient(String.self, .variantName, dropped: &dropped) ?? ""
        if let flag = try? container.decode(Bool.self, forKey: .isControl) {
            isControl = flag
        } else if let text = try? container.decode(String.self, forKey: .isControl), let flag = Bool(text.lowercased()) {
            isControl = flag
        } else {
            isControl = false
            if container.contains(.isControl), (try? container.decodeNil(forKey: .isControl)) == false { dropped += 1 }
        }
        droppedValueCount = dropped
    }

    /// Equal when the values read are (what was dropped on the way is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.variantID == rhs.variantID && lhs.variantName == rhs.variantName
            && lhs.isControl == rhs.isControl
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

    /// How many fields were of the wrong type (read as their defaults), content included.
    var droppedValueCount = 0

    public init(id: UUID, productID: String?, campaignID: Int, variantID: Int, content: CroboxPromotionContent?) {
        self.id = id
        self.productID = productID
        self.campaignID = campaignID
        self.variantID = variantID
        self.content = content
    }

    /// `id` must be a UUID (the response drops the promotion otherwise); every other field defaults
    /// on its own, as the official SDK reads it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        var dropped = 0
        productID = container.lenient(String.self, .productID, dropped: &dropped)
        campaignID = container.lenientInteger(.campaignID, dropped: &dropped) ?? 0
        variantID = container.lenientInteger(.variantID, dropped: &dropped) ?? 0
        content = container.lenient(CroboxPromotionContent.self, .content, dropped: &dropped)
        droppedValueCount = dropped + (content?.droppedValueCount ?? 0)
    }

    /// Equal when the values read are (what was dropped on the way is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.productID == rhs.productID && lhs.campaignID == rhs.campaignID && lhs.variantID == rhs.variantID
            && lhs.content == rhs.content
    }
}

/// What to show: a component and its visual configuration, managed in the Crobox admin app.
public struct CroboxPromotionContent: Codable, Sendable, Equatable {
    /// The message assigned to this promotion (`id` on the wire; `""` when Crobox sent none, as the
    /// official SDK reads it).
    public var messageID: String
    /// The component name, e.g. `mob-app-text-badge.tsx` (`component` on the wire; `""` when absent).
    public var componentName: String
    /// Every configuration item sent as a string; values of other types are left out (and counted).
    public var config: [String: String]
    /// How many values were left out or defaulted.
    var droppedValueCount = 0

    enum CodingKeys: String, CodingKey {
        case messageID = "id"
        case componentName = "component"
        case config
    }

    public init(messageID: String, componentName: String, config: [String: String]) {
        self.messageID = messageID
        self.componentName = componentName
        self.config = config
    }

    /// Reads each field on its own: a missing or non-string `id` or `component` is `""`, and `config`
    /// keeps its string values (the official SDK empties the whole map for one number).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var dropped = 0
        messageID = container.lenient(String.self, .messageID, dropped: &dropped) ?? ""
        componentName = container.lenient(String.self, .componentName, dropped: &dropped) ?? ""
        var config: [String: String] = [:]
        if let values = try? container.decode([String: CroboxConfigValue].self, forKey: .config) {
            for (key, value) in values {
                if let text = value.text { config[key] = text } else { dropped += 1 }
            }
        } else if container.contains(.config), (try? container.decodeNil(forKey: .config)) == false {
            dropped += 1
        }
        self.config = config
        droppedValueCount = dropped
    }

    /// Equal when the values read are (what was dropped on the way is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.messageID == rhs.messageID && lhs.componentName == rhs.componentName && lhs.config == rhs.config
    }
}

/// A configuration value: its text when it is a string, `nil` for any other JSON value.
struct CroboxConfigValue: Decodable {
    var text: String?

    init(from decoder: any Decoder) throws {
        text = try? decoder.singleValueContainer().decode(String.self)
    }
}
