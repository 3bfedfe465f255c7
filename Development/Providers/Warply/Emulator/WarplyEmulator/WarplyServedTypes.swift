@_spi(EngageProvider) import EngageCore
import Crypto
import Foundation

// What the emulator serves and reads, in types of its own: the Warply client's models and wire types are
// not used here, so a client that reads a key under another name or type fails its end-to-end tests
// against this emulator. The keys follow the SwiftWarplyFramework knowledge file where it names them, and
// the recorded answers in `Development/Providers/Warply/Tests/Fixtures` (with their provenance) where it does not;
// `WarplyRecordedAnswerTests` holds both this emulator and the client to those recordings.

/// A date as the backend writes it: text in one of its formats, in the server's zone (Europe/Athens).
package struct ServedTimestamp: Encodable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text sent.
    package let text: String
    /// The date the text names, when it is one of ``formats``.
    package let date: Date?

    /// The server's zone, in which every date is written.
    static let serverTimeZone = TimeZone(identifier: "Europe/Athens") ?? TimeZone(secondsFromGMT: 7_200) ?? .current
    /// The formats of the knowledge file (§11), the coupon sets' expiration and a bare day.
    static let formats = [
        "yyyy-MM-dd HH:mm:ssZZZZZ", "yyyy-MM-dd HH:mm:ss.SSSSSS", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd",
    ]

    /// `date` written with `format`.
    init(_ date: Date, format: String = "yyyy-MM-dd HH:mm:ss") {
        text = Self.formatter(format).string(from: date)
        self.date = Self.formatter(format).date(from: text) ?? date
    }

    /// A date as received (for example an analytics event's `time_submitted`).
    init(_ text: String) {
        self.text = text
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        date = Self.formats.lazy.compactMap { Self.formatter($0).date(from: trimmed) }.first
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.date, rhs.date) {
        case let (left?, right?): left == right ? lhs.text < rhs.text : left < right
        case (nil, _?): true
        case (_?, nil): false
        case (nil, nil): lhs.text < rhs.text
        }
    }

    package var description: String { text }

    private static let formatters = Locked<[String: DateFormatter]>([:])

    private static func formatter(_ format: String) -> DateFormatter {
        formatters.withLock { cache in
            if let formatter = cache[format] { return formatter }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = serverTimeZone
            formatter.dateFormat = format
            cache[format] = formatter
            return formatter
        }
    }
}

/// A flag the backend writes as the text `"true"` or `"false"` (the knowledge file §5: a campaign is a
/// carousel item when `_carousel == "true"`).
package struct ServedTextFlag: Encodable, Sendable, Hashable, ExpressibleByBooleanLiteral {
    package var value: Bool

    package init(_ value: Bool) { self.value = value }
    package init(booleanLiteral value: Bool) { self.value = value }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value ? "true" : "false")
    }
}

/// A campaign as the backend sends it (the knowledge file §11 CampaignItemModel; see the recordings).
package struct ServedCampaign: Encodable, Sendable, Hashable {
    /// Whether this is a supermarket campaign.
    var isSupermarket: Bool { type?.lowercased() == Self.supermarketType }
    package static let ccmsType = "ccms"
    package static let questionnaireType = "questionnaire"
    package static let supermarketType = "supermarket"
    package static let telcoCategory = "telco"
    package var sessionUUID: String
    package var indexURL: String?
    package var title: String?
    package var subtitle: String?
    package var offerCategory: String?
    package var logoURL: String?
    package var couponSetUUID: String?
    package var sorting: Int = 0
    package var type: String?
    package var isCarousel: ServedTextFlag = false
    package var couponAvailability: Int?
    package var bannerImage: String?
    package var bannerImageMobile: String?
    package var couponImage: String?
    package var campaignURL: String?
    package var filter: String?
    package var startDate: ServedTimestamp?
    package var endDate: ServedTimestamp?
    package var communicationCategory: String?

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
}

/// A coupon set (§11 CouponSetItemModel).
package struct ServedCouponSet: Encodable, Sendable, Hashable {
    package var uuid: String
    package var name: String?
    package var description: String?
    package var imagePreview: String?
    package var expiration: ServedTimestamp?
    package var discount: String?
    package var discountType: String?
    package var finalPrice: Decimal?
    package var couponSetType: String?
    package var merchantUUID: String?
    package var terms: String?
    package var shopAvailability: String?
    package var isActive: Bool = true
    package var points: Int?
    package var isVisible: Bool = true

    enum CodingKeys: String, CodingKey {
        case uuid, name, description
        case imagePreview = "img_preview"
        case expiration, discount
        case discountType = "discount_type"
        case finalPrice = "final_price"
        case couponSetType = "couponset_type"
        case merchantUUID = "merchant_uuid"
        case terms
        case shopAvailability = "shop_availability"
        case isActive = "active"
        case points
        case isVisible = "visible"
    }
}

/// A user's coupon (§11 CouponItemModel: status 1 active, 0 redeemed).
package struct ServedCoupon: Encodable, Sendable, Hashable {
    /// Whether the coupon can still be used (status 1).
    package var isActive: Bool { status == Self.activeStatus }
    /// Whether the coupon was used (status 0).
    package var isRedeemed: Bool { status == Self.redeemedStatus }
    package static let activeStatus = 1
    package static let redeemedStatus = 0
    package var id: String?
    package var couponSetUUID: String
    package var name: String?
    package var code: String?
    package var barcode: String?
    package var status: Int = ServedCoupon.activeStatus
    package var expiration: ServedTimestamp?
    package var redeemedDate: ServedTimestamp?
    package var couponSet: ServedCouponSet?
    package var merchant: ServedMerchant?
    package var discount: String?

    enum CodingKeys: String, CodingKey {
        case id = "coupon_id"
        case couponSetUUID = "couponset_uuid"
        case name
        case code = "coupon"
        case barcode, status, expiration
        case redeemedDate = "redeemed_date"
        case couponSet = "couponset_data"
        case merchant = "merchant_details"
        case discount
    }
}

/// A merchant (inferred keys; §11 MerchantModel has none).
package struct ServedMerchant: Encodable, Sendable, Hashable {
    /// Where the merchant is, when both coordinates are valid.
    var location: GeoPoint? {
        guard let latitude, let longitude else { return nil }
        return try? GeoPoint(latitude: latitude, longitude: longitude)
    }
    package var uuid: String
    package var name: String?
    package var address: String?
    package var city: String?
    package var region: String?
    package var postalCode: String?
    package var telephone: String?
    package var website: String?
    package var email: String?
    package var logo: String?
    package var description: String?
    package var categories: [String] = []
    package var tags: [String] = []
    package var latitude: Double?
    package var longitude: Double?
    package var isDefaultShown: Bool = false
    package var parentUUID: String?
    package var distanceMeters: Double?

    enum CodingKeys: String, CodingKey {
        case uuid, name, address, city, region
        case postalCode = "postal_code"
        case telephone, website, email
        case logo = "img_preview"
        case description, categories, tags, latitude, longitude
        case isDefaultShown = "default_shown"
        case parentUUID = "parent"
        case distanceMeters = "distance"
    }
}

/// A merchant category (inferred keys).
package struct ServedMerchantCategory: Encodable, Sendable, Hashable {
    package var uuid: String
    package var name: String?
    package var adminName: String?
    package var image: String?
    package var parentUUID: String?

    enum CodingKeys: String, CodingKey {
        case uuid, name
        case adminName = "admin_name"
        case image
        case parentUUID = "parent"
    }
}

/// An article (inferred keys).
package struct ServedArticle: Encodable, Sendable, Hashable {
    package var uuid: String
    package var title: String?
    package var subtitle: String?
    package var body: String?
    package var imageURL: String?
    package var url: String?
    package var categories: [String] = []
    package var tags: [String] = []
    package var publishedAt: ServedTimestamp?
    package var language: String?

    enum CodingKeys: String, CodingKey {
        case uuid, title, subtitle
        case body = "content"
        case imageURL = "img_preview"
        case url, categories, tags
        case publishedAt = "publish_date"
        case language
    }
}

/// A stored payment card, its number masked (inferred keys).
package struct ServedCard: Encodable, Sendable, Hashable {
    /// `number` as the backend stores it: its last four digits only, or fully masked when it has fewer
    /// than eight digits.
    static func mask(_ number: String) -> String {
        let digits = number.filter { $0.isASCII && $0.isWholeNumber }
        return digits.count >= 8 ? "**** **** **** " + digits.suffix(4) : fullyMasked
    }
    package static let fullyMasked = "**** **** **** ****"
    package var token: String
    package var maskedNumber: String?
    package var issuer: String?
    package var holder: String?
    package var expirationMonth: String?
    package var expirationYear: String?
    package var isDefault: Bool = false

    enum CodingKeys: String, CodingKey {
        case token = "card_token"
        case maskedNumber = "card_number"
        case issuer = "card_issuer"
        case holder = "cardholder"
        case expirationMonth = "expiration_month"
        case expirationYear = "expiration_year"
        case isDefault = "default"
    }
}

/// A user's profile (inferred keys).
package struct ServedProfile: Encodable, Sendable, Hashable {
    package var userID: String?
    package var email: String?
    package var firstName: String?
    package var lastName: String?
    package var displayName: String?
    package var birthday: ServedTimestamp?
    package var gender: String?
    package var msisdn: String?
    package var loyaltyID: String?
    package var points: Int = 0
    package var tier: String?
    package var nameDay: String?
    package var imageURL: String?
    package var isSubscribed: Bool = false
    package var language: String?

    enum CodingKeys: String, CodingKey {
        case userID = "consumer_uuid"
        case email
        case firstName = "firstname"
        case lastName = "lastname"
        case displayName = "display_name"
        case birthday, gender, msisdn
        case loyaltyID = "loyalty_id"
        case points = "user_points"
        case tier
        case nameDay = "nameday"
        case imageURL = "image_url"
        case isSubscribed = "subscribe"
        case language
    }
}

/// A points history entry (inferred keys).
package struct ServedPointsEntry: Encodable, Sendable, Hashable {
    package var id: String?
    package var date: ServedTimestamp?
    package var points: Int
    package var source: String?
    package var description: String?
    package var expiration: ServedTimestamp?

    enum CodingKeys: String, CodingKey {
        case id = "entry_id"
        case date = "entry_date"
        case points, source, description, expiration
    }
}

/// A transaction (inferred keys).
package struct ServedTransaction: Encodable, Sendable, Hashable {
    package var transactionID: String
    package var date: ServedTimestamp?
    package var merchantName: String?
    package var merchantUUID: String?
    package var amount: Decimal?
    package var points: Int?
    package var productCode: String?
    package var productDescription: String?
    package var quantity: Int?

    enum CodingKeys: String, CodingKey {
        case transactionID = "transaction_id"
        case date = "transaction_date"
        case merchantName = "shop_name"
        case merchantUUID = "shop_uuid"
        case amount, points
        case productCode = "product_code"
        case productDescription = "product_description"
        case quantity
    }
}

/// The answer of `coupon`/`validate` (inferred keys).
package struct ServedCouponValidation: Encodable, Sendable, Hashable {
    package var isValid: Bool
    package var couponCode: String?
    package var message: String?
    package var couponSetUUID: String?

    enum CodingKeys: String, CodingKey {
        case isValid = "valid"
        case couponCode = "coupon"
        case message
        case couponSetUUID = "couponset_uuid"
    }
}

/// The answer of `coupon`/`redeem` (inferred keys).
package struct ServedRedemption: Encodable, Sendable, Hashable {
    package var couponCode: String?
    package var couponSetUUID: String?
    package var redeemedAt: ServedTimestamp?
    package var transactionID: String?

    enum CodingKeys: String, CodingKey {
        case couponCode = "coupon"
        case couponSetUUID = "couponset_uuid"
        case redeemedAt = "redeemed_date"
        case transactionID = "transaction_id"
    }
}

/// The answer of `coupon`/`get_redeemed_sm_history` (inferred keys).
package struct ServedRedeemedSupermarketHistory: Encodable, Sendable, Hashable {
    package var totalRedeemedValue: Decimal = 0
    package var redeemedCoupons: [ServedCoupon] = []

    enum CodingKeys: String, CodingKey {
        case totalRedeemedValue = "total_redeemed_value"
        case redeemedCoupons = "redeemed_coupon_list"
    }
}

/// The market pass (inferred keys).
package struct ServedMarketPassDetails: Encodable, Sendable, Hashable {
    package var barcode: String?
    package var totalDiscount: Decimal = 0
    package var newOffers: Int = 0
    package var supermarkets: [ServedMerchant] = []
    package var mapURL: String?

    enum CodingKeys: String, CodingKey {
        case barcode
        case totalDiscount = "total_discount"
        case newOffers = "new_offers"
        case supermarkets
        case mapURL = "map_url"
    }
}

/// Coupons left of one coupon set (inferred keys).
package struct ServedCouponAvailability: Encodable, Sendable, Hashable {
    package var couponSetUUID: String
    package var availability: Int

    enum CodingKeys: String, CodingKey {
        case couponSetUUID = "couponset_uuid"
        case availability
    }
}

/// A device registration: the `web_id` that signs requests and the `api_key` their signature hashes.
struct ServedRegistration: Encodable, Sendable, Hashable, SecretBearing {
    var webID: String
    var apiKey: String

    enum CodingKeys: String, CodingKey {
        case webID = "web_id", apiKey = "api_key"
    }

    var description: String { "ServedRegistration(<redacted>)" }
}

/// The tokens of a login or a refresh.
struct ServedTokens: Encodable, Sendable, Hashable, SecretBearing {
    var accessToken: String
    var refreshToken: String?
    var clientID: String?
    var clientSecret: String?
    var tokenType: String? = "Bearer"

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", refreshToken = "refresh_token", clientID = "client_id", clientSecret = "client_secret"
        case tokenType = "token_type"
    }

    var description: String { "ServedTokens(<redacted>)" }
}

/// The envelopes the backend answers in (the knowledge file §6 and §13).
enum ServedAnswer {
    /// The context form: `{"status":"1","context":{"<section>":{"result":…},"<section>-status":1}}`; a
    /// refusal carries its `msg` in the section and a section status other than 1.
    static func context(section: String, result: some Encodable, sectionStatus: Int = 1, message: String? = nil) throws -> Data {
        try encode(Context(section: section, result: result, sectionStatus: sectionStatus, message: message))
    }

    /// The result form: `{"status":1,"msg":…,"result":…}` (`result` left out when `nil`).
    static func result(status: Int = 1, message: String? = nil, _ result: (some Encodable)?) throws -> Data {
        try encode(Result(status: status, message: message, result: result))
    }

    /// The status form: `{"status":1}` or `{"status":0,"msg":…}`.
    static func status(_ status: Int, message: String? = nil) throws -> Data {
        try encode(Result<JSONValue>(status: status, message: message, result: nil))
    }

    /// The registration answer: `{"status":"1","context":{"web_id":…,"api_key":…}}`.
    static func registration(_ registration: ServedRegistration) throws -> Data {
        try encode(Registration(context: registration))
    }

    private static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        // Slashes as they are: an escaped URL the backend sends (the text `https:\/\/…`) is written once.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct Context<Payload: Encodable>: Encodable {
        var section: String
        var result: Payload
        var sectionStatus: Int
        var message: String?

        func encode(to encoder: any Encoder) throws {
            var root = encoder.container(keyedBy: Key.self)
            try root.encode("1", forKey: Key("status"))
            var context = root.nestedContainer(keyedBy: Key.self, forKey: Key("context"))
            var body = context.nestedContainer(keyedBy: Key.self, forKey: Key(section))
            if let message {
                try body.encode(message, forKey: Key("msg"))
            } else {
                try body.encode(result, forKey: Key("result"))
            }
            try context.encode(sectionStatus, forKey: Key(section + "-status"))
        }
    }

    private struct Result<Payload: Encodable>: Encodable {
        var status: Int
        var message: String?
        var result: Payload?

        enum CodingKeys: String, CodingKey { case status, message = "msg", result }
    }

    private struct Registration: Encodable {
        var status = "1"
        var context: ServedRegistration
    }
}

/// A context request: `{"<root>":{"action":"…", …fields}}` (the knowledge file §6).
package struct WarplyEmulatorContextRequest: Decodable, Sendable, Hashable {
    /// The root key, such as `campaigns`.
    package var root: String
    /// The action, or `""` when none was sent.
    package var action: String
    /// The other fields of the root object.
    package var fields: [String: JSONValue]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Expected one root key."))
        }
        root = key.stringValue
        var object = try container.decode([String: JSONValue].self, forKey: key)
        if case let .string(action)? = object.removeValue(forKey: "action") {
            self.action = action
        } else {
            action = ""
        }
        fields = object
    }

    /// The field `name` as text (numbers written as text).
    package func string(_ name: String) -> String? {
        switch fields[name] {
        case let .string(text)?: text
        case let .integer(value)?: String(value)
        case let .number(value)?: String(value)
        default: nil
        }
    }

    /// The field `name` as an integer (text read as a number).
    package func integer(_ name: String) -> Int? {
        switch fields[name] {
        case let .integer(value)?: Int(exactly: value)
        case let .number(value)?: Int(exactly: value)
        case let .string(text)?: Int(text)
        default: nil
        }
    }

    /// The text values of the array field `name`.
    package func strings(_ name: String) -> [String] {
        guard case let .array(values)? = fields[name] else { return [] }
        return values.compactMap { if case let .string(text) = $0 { text } else { nil } }
    }
}

/// The bodies of the non-context requests the emulator reads.
enum ServedRequest {
    /// `POST /oauth/{appUUID}/token`.
    struct Refresh: Decodable, Sendable, SecretBearing {
        var grantType: String
        var refreshToken: String
        var clientID: String
        var clientSecret: String
        enum CodingKeys: String, CodingKey {
            case grantType = "grant_type", refreshToken = "refresh_token", clientID = "client_id", clientSecret = "client_secret"
        }
        var description: String { "Refresh(<redacted>)" }
    }

    /// `POST /oauth/{appUUID}/logout`.
    struct Logout: Decodable, Sendable, SecretBearing {
        var accessToken: String
        var refreshToken: String?
        enum CodingKeys: String, CodingKey { case accessToken = "access_token", refreshToken = "refresh_token" }
        var description: String { "Logout(<redacted>)" }
    }

    /// `POST /partners/dei/app_login`.
    struct DEILogin: Decodable, Sendable, SecretBearing {
        var email: String
        var description: String { "DEILogin(<redacted>)" }
    }

    /// `POST /partners/cosmote/verify`.
    struct VerifyTicket: Decodable, Sendable, SecretBearing {
        var guid: String
        var appUUID: String
        var ticket: String
        enum CodingKeys: String, CodingKey { case guid, appUUID = "app_uuid", ticket }
        var description: String { "VerifyTicket(<redacted>)" }
    }

    /// `POST /partners/oauth/{appUUID}/token`.
    struct CosmoteUser: Decodable, Sendable, SecretBearing {
        var userIdentifier: String
        enum CodingKeys: String, CodingKey { case userIdentifier = "user_identifier" }
        var description: String { "CosmoteUser(<redacted>)" }
    }

    /// `POST /user/{appUUID}/register`.
    struct RegisterUser: Decodable, Sendable, SecretBearing {
        var email: String
        var password: String
        var firstName: String?
        var lastName: String?
        var msisdn: String?
        var language: String
        enum CodingKeys: String, CodingKey { case email, password, firstName = "firstname", lastName = "lastname", msisdn, language }
        var description: String { "RegisterUser(<redacted>, language: \(language))" }
    }

    /// `POST /user/{appUUID}/change_password`.
    struct ChangePassword: Decodable, Sendable, SecretBearing {
        var oldPassword: String
        var newPassword: String
        enum CodingKeys: String, CodingKey { case oldPassword = "old_password", newPassword = "new_password" }
        var description: String { "ChangePassword(<redacted>)" }
    }

    /// `POST /user/{appUUID}/password_reset`.
    struct ResetPassword: Decodable, Sendable, SecretBearing {
        var email: String
        var description: String { "ResetPassword(<redacted>)" }
    }

    /// `POST /user/{appUUID}/otp/generate`.
    struct RequestOTP: Decodable, Sendable, SecretBearing {
        var msisdn: String
        var description: String { "RequestOTP(<redacted>)" }
    }
}

/// The signature of a signed request: hex SHA-256 of the api key followed by the `loyalty-date` header
/// exactly as sent.
enum ServedSignature {
    static func expected(apiKey: String, date: String) -> String {
        SHA256.hash(data: Data((apiKey + date).utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
