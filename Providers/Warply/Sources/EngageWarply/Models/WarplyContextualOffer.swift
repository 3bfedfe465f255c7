import Foundation

/// A CCMS contextual offer: a loyalty campaign the CCMS engine selected for the user, with the assets
/// (e.g. lines or contracts) it applies to.
///
/// Wire form (keys are camelCase on the wire):
/// ```json
/// { "loyaltyCampaignId": "lc-42", "eligibleAssets": ["6900000000", "6911111111"],
///   "offerName": "Διπλοί πόντοι", "sessionId": "s-7" }
/// ```
/// `eligibleAssets` may also arrive as one comma-separated string. Only `loyaltyCampaignId` is required.
public struct WarplyContextualOffer: Codable, Sendable, Hashable, Identifiable {
    /// The loyalty campaign the offer belongs to (`loyaltyCampaignId`).
    public var loyaltyCampaignID: String
    /// The assets the offer applies to (`eligibleAssets`).
    public var eligibleAssets: [String]
    /// The offer's name (`offerName`).
    public var offerName: String?
    /// The CCMS session (`sessionId`).
    public var sessionID: String?

    /// The offer's identity: its loyalty campaign id.
    public var id: String { loyaltyCampaignID }

    enum CodingKeys: String, CodingKey {
        case loyaltyCampaignID = "loyaltyCampaignId"
        case eligibleAssets
        case offerName
        case sessionID = "sessionId"
    }

    /// A contextual offer.
    public init(loyaltyCampaignID: String, eligibleAssets: [String] = [], offerName: String? = nil, sessionID: String? = nil) {
        self.loyaltyCampaignID = loyaltyCampaignID
        self.eligibleAssets = eligibleAssets
        self.offerName = offerName
        self.sessionID = sessionID
    }

    /// Decodes the wire form leniently; throws when `loyaltyCampaignId` is missing or empty, or a
    /// field has a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        loyaltyCampaignID = try container.requiredString(forKey: .loyaltyCampaignID)
        eligibleAssets = try container.looseStringList(forKey: .eligibleAssets)
        offerName = try container.looseString(forKey: .offerName)
        sessionID = try container.looseString(forKey: .sessionID)
    }
}
