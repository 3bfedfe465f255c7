import Foundation

/// A loyalty campaign (offer) from `campaigns` / `retrieve` or `retrieve_personalized`, in the
/// `MAPP_CAMPAIGNING` section.
///
/// Wire form (the emulator encodes this type, the provider decodes it):
/// ```json
/// { "session_uuid": "c1a2…", "index_url": "https:\/\/engage-uat.dei.gr\/campaign\/c1a2", "title": "Έκπτωση 10%",
///   "subtitle": "Στα καύσιμα", "offer_category": "fuel", "logo_url": "https:\/\/…\/logo.png", "couponset": "cs-1",
///   "sorting": "3", "type": "coupon", "carousel": "false", "coupon_availability": 12,
///   "banner_img": "…", "banner_img_mobile": "…", "coupon_img": "…", "campaign_url": "…", "filter": "all",
///   "start_date": "2026-01-01 00:00:00", "end_date": "2026-12-31 23:59:59", "communication_category": "rewards" }
/// ```
/// Scalars are read leniently (`"3"` or `3`, `"true"`/`true`/`1`) and escaped slashes in URLs are
/// cleaned. Only `session_uuid` is required.
public struct WarplyCampaign: Codable, Sendable, Hashable, Identifiable {
    /// The campaign's session id (`session_uuid`), which also opens it (`/api/session/{sessionUuid}`).
    public var sessionUUID: String
    /// The campaign's web page (`index_url`), shown in a web view.
    public var indexURL: String?
    /// The title.
    public var title: String?
    /// The subtitle.
    public var subtitle: String?
    /// The offer category (`offer_category`), e.g. `telco`.
    public var offerCategory: String?
    /// The logo image address (`logo_url`).
    public var logoURL: String?
    /// The coupon set the campaign hands out (`couponset`), if any.
    public var couponSetUUID: String?
    /// The position in lists (`sorting`); lower comes first.
    public var sorting: Int
    /// The campaign type (`type`), e.g. `ccms`, `questionnaire` or `supermarket`.
    public var type: String?
    /// Whether the campaign belongs in the carousel rather than the list (`carousel`, sent as `"true"`/`"false"`).
    public var isCarousel: Bool
    /// How many coupons of the campaign's coupon set are left (`coupon_availability`), once known.
    public var couponAvailability: Int?
    /// The banner image address (`banner_img`).
    public var bannerImage: String?
    /// The banner image address for phones (`banner_img_mobile`).
    public var bannerImageMobile: String?
    /// The coupon image address (`coupon_img`).
    public var couponImage: String?
    /// The campaign's own page (`campaign_url`).
    public var campaignURL: String?
    /// The filter tag the app groups campaigns by (`filter`).
    public var filter: String?
    /// When the campaign starts (`start_date`).
    public var startDate: WarplyTimestamp?
    /// When the campaign ends (`end_date`).
    public var endDate: WarplyTimestamp?
    /// The communication category (`communication_category`).
    public var communicationCategory: String?

    /// The campaign's identity: its session UUID.
    public var id: String { sessionUUID }

    /// The `type` of CCMS contextual-offer campaigns (removed from the displayed list).
    public static let ccmsType = "ccms"
    /// The `type` of questionnaire campaigns (removed from the displayed list).
    public static let questionnaireType = "questionnaire"
    /// The `type` of supermarket campaigns.
    public static let supermarketType = "supermarket"
    /// The `offer_category` of telco campaigns (removed from the displayed list).
    public static let telcoCategory = "telco"

    /// Whether this is a CCMS contextual-offer campaign (`type == "ccms"`, any case).
    public var isCCMS: Bool { type?.lowercased() == Self.ccmsType }
    /// Whether this is a telco campaign (`offer_category == "telco"`, any case).
    public var isTelco: Bool { offerCategory?.lowercased() == Self.telcoCategory }
    /// Whether this is a questionnaire campaign (`type == "questionnaire"`, any case).
    public var isQuestionnaire: Bool { type?.lowercased() == Self.questionnaireType }
    /// Whether this is a supermarket campaign (`type == "supermarket"`, any case).
    public var isSupermarket: Bool { type?.lowercased() == Self.supermarketType }

    /// `indexURL` as a `URL`, when it is one.
    public var resolvedIndexURL: URL? { WarplyModelSupport.url(indexURL) }
    /// `logoURL` as a `URL`, when it is one.
    public var resolvedLogoURL: URL? { WarplyModelSupport.url(logoURL) }
    /// `campaignURL` as a `URL`, when it is one.
    public var resolvedCampaignURL: URL? { WarplyModelSupport.url(campaignURL) }
    /// `bannerImage` as a `URL`, when it is one.
    public var bannerImageURL: URL? { WarplyModelSupport.url(bannerImage) }
    /// `bannerImageMobile` as a `URL`, when it is one.
    public var bannerImageMobileURL: URL? { WarplyModelSupport.url(bannerImageMobile) }
    /// `couponImage` as a `URL`, when it is one.
    public var couponImageURL: URL? { WarplyModelSupport.url(couponImage) }

    enum CodingKeys: String, CodingKey {
        case sessionUUID = "session_uuid"
        case indexURL = "index_url"
        case title, subtitle
        case offerCategory = "offer_category"
        case logoURL = "logo_url"
        case couponSetUUID = "couponset"
        case sorting, type
        case isCarousel = "carousel"
        case couponAvailability = "coupon_availability"
        case bannerImage = "banner_img"
        case bannerImageMobile = "banner_img_mobile"
        case couponImage = "coupon_img"
        case campaignURL = "campaign_url"
        case filter
        case startDate = "start_date"
        case endDate = "end_date"
        case communicationCategory = "communication_category"
    }

    /// A campaign; every field but the session UUID is optional.
    public init(
        sessionUUID: String,
        indexURL: String? = nil,
        title: String? = nil,
        subtitle: String? = nil,
        offerCategory: String? = nil,
        logoURL: String? = nil,
        couponSetUUID: String? = nil,
        sorting: Int = 0,
        type: String? = nil,
        isCarousel: Bool = false,
        couponAvailability: Int? = nil,
        bannerImage: String? = nil,
        bannerImageMobile: String? = nil,
        couponImage: String? = nil,
        campaignURL: String? = nil,
        filter: String? = nil,
        startDate: WarplyTimestamp? = nil,
        endDate: WarplyTimestamp? = nil,
        communicationCategory: String? = nil
    ) {
        self.sessionUUID = sessionUUID
        self.indexURL = indexURL
        self.title = title
        self.subtitle = subtitle
        self.offerCategory = offerCategory
        self.logoURL = logoURL
        self.couponSetUUID = couponSetUUID
        self.sorting = sorting
        self.type = type
        self.isCarousel = isCarousel
        self.couponAvailability = couponAvailability
        self.bannerImage = bannerImage
        self.bannerImageMobile = bannerImageMobile
        self.couponImage = couponImage
        self.campaignURL = campaignURL
        self.filter = filter
        self.startDate = startDate
        self.endDate = endDate
        self.communicationCategory = communicationCategory
    }

    /// Decodes the wire form leniently; throws when `session_uuid` is missing or empty, or a field has
    /// a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sessionUUID = try container.requiredString(forKey: .sessionUUID)
        indexURL = try container.cleanedURLString(forKey: .indexURL)
        title = try container.looseString(forKey: .title)
        subtitle = try container.looseString(forKey: .subtitle)
        offerCategory = try container.looseString(forKey: .offerCategory)
        logoURL = try container.cleanedURLString(forKey: .logoURL)
        couponSetUUID = try container.looseString(forKey: .couponSetUUID)
        sorting = try container.looseInt(forKey: .sorting) ?? 0
        type = try container.looseString(forKey: .type)
        isCarousel = try container.looseBool(forKey: .isCarousel) ?? false
        couponAvailability = try container.looseInt(forKey: .couponAvailability)
        bannerImage = try container.cleanedURLString(forKey: .bannerImage)
        bannerImageMobile = try container.cleanedURLString(forKey: .bannerImageMobile)
        couponImage = try container.cleanedURLString(forKey: .couponImage)
        campaignURL = try container.cleanedURLString(forKey: .campaignURL)
        filter = try container.looseString(forKey: .filter)
        startDate = try container.looseTimestamp(forKey: .startDate)
        endDate = try container.looseTimestamp(forKey: .endDate)
        communicationCategory = try container.looseString(forKey: .communicationCategory)
    }
}
