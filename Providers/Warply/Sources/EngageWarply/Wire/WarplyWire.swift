import Crypto
import Foundation

/// The Warply wire format in one place: paths, header names, request root keys and actions, response
/// sections, and the signature. The provider builds requests from it and the emulator serves it, so
/// the two cannot drift apart.
public enum WarplyWire {
    // MARK: Paths (relative to the environment's base URL)

    /// Path templates. `{appUUID}` and `{sessionUuid}` are filled by ``path(_:appUUID:sessionUUID:)``.
    public enum PathTemplate: String, Sendable, CaseIterable {
        /// Device registration, unsigned `GET`.
        case register = "/api/mobile/v2/{appUUID}/register/"
        /// Standard (signed) context, `POST`.
        case standardContext = "/api/mobile/v2/{appUUID}/context/"
        /// Authenticated (bearer) context, `POST`.
        case authenticatedContext = "/oauth/{appUUID}/context"
        /// Token refresh, `POST`.
        case token = "/oauth/{appUUID}/token"
        /// Logout, `POST`.
        case logout = "/oauth/{appUUID}/logout"
        /// Change password (user management), `POST`.
        case changePassword = "/user/{appUUID}/change_password"
        /// Reset password (user management), `POST`.
        case resetPassword = "/user/{appUUID}/password_reset"
        /// Request an OTP (user management), `POST`.
        case requestOTP = "/user/{appUUID}/otp/generate"
        /// DEI login by email (partner), `POST`.
        case deiLogin = "/partners/dei/app_login"
        /// Cosmote ticket verification (partner), `POST`.
        case verifyTicket = "/partners/cosmote/verify"
        /// Cosmote user login by GUID (partner, basic auth), `POST`.
        case cosmoteUser = "/partners/oauth/{appUUID}/token"
        /// A single campaign's session, `GET`.
        case session = "/api/session/{sessionUuid}"
        /// Analytics events, `POST`.
        case analytics = "/api/async/analytics/{appUUID}/"
        /// Device information (push token and device details), `POST`.
        case deviceInfo = "/api/async/info/{appUUID}/"
    }

    /// The path of `template` with its placeholders filled, each value percent-encoded as one segment:
    /// everything but ASCII letters, digits and `-._~` is encoded, and a value that is `.` or `..` has
    /// its dots encoded (`%2E`) so it can never become a dot segment that climbs the path.
    public static func path(_ template: PathTemplate, appUUID: String, sessionUUID: String = "") -> String {
        WarplyPlaceholders.fill(template.rawValue, values: ["appUUID": segment(appUUID), "sessionUuid": segment(sessionUUID)])
    }

    private static let segmentCharacters: CharacterSet = {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return allowed
    }()

    /// `value` percent-encoded as one path segment.
    static func segment(_ value: String) -> String {
        if value == "." || value == ".." { return value.replacingOccurrences(of: ".", with: "%2E") }
        return value.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? ""
    }

    // MARK: Headers

    /// Header names.
    public enum Header {
        /// The registration's `web_id`.
        public static let webID = "loyalty-web-id"
        /// The Unix timestamp the signature covers, as sent.
        public static let date = "loyalty-date"
        /// `hex(sha256(api_key + loyalty-date))`.
        public static let signature = "loyalty-signature"
        /// `<platform>:<bundle id>`, e.g. `ios:gr.dei.loyalty`.
        public static let bundleID = "loyalty-bundle-id"
        /// Always `mobile`.
        public static let channel = "channel"
        /// The device id (`WarplyConfiguration.deviceID`).
        public static let uniqueDeviceID = "unique-device-id"
        /// The device vendor, e.g. `apple`.
        public static let vendor = "vendor"
        /// The platform, e.g. `ios` or `linux`.
        public static let platform = "platform"
        /// The operating system version.
        public static let osVersion = "os_version"
        /// Headers whose values are secrets or identify the device, redacted from logs.
        public static let sensitive: Set<String> = [signature, webID, uniqueDeviceID]
    }

    /// `hex(sha256(apiKey + date))`, the `loyalty-signature` of a request sent with `loyalty-date: date`.
    public static func signature(apiKey: String, date: String) -> String {
        SHA256.hash(data: Data((apiKey + date).utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    // MARK: Request envelope

    /// Root keys of context request bodies (`{"<root>": {"action": ..., ...}}`).
    public enum Root {
        /// Campaigns (`retrieve`, `retrieve_personalized`, `retrieve_supermarket`).
        public static let campaigns = "campaigns"
        /// Coupons and coupon sets (user coupons, availability, validate, redeem).
        public static let coupon = "coupon"
        /// The user's profile, history and market pass.
        public static let consumerData = "consumer_data"
        /// The user's payment cards.
        public static let cards = "cards"
        /// Merchants and merchant categories.
        public static let shops = "shops"
        /// Articles.
        public static let content = "content"
        /// Device information and the push token.
        public static let deviceInfo = "device_info"
    }

    /// Actions, by root.
    public enum Action {
        /// Basic campaigns (`campaigns`).
        public static let retrieve = "retrieve"
        /// The user's personalized campaigns (`campaigns`, bearer).
        public static let retrievePersonalized = "retrieve_personalized"
        /// The supermarket campaign (`campaigns`).
        public static let retrieveSupermarket = "retrieve_supermarket"
        /// The user's coupons (`coupon`, bearer).
        public static let userCoupons = "user_coupons"
        /// The user's universal coupons (`coupon`, bearer).
        public static let universalCoupons = "user_coupons_universal"
        /// Every coupon set (`coupon`).
        public static let couponSets = "retrieve_multilingual"
        /// Coupons left per coupon set (`coupon`).
        public static let availability = "availability"
        /// Checks a coupon code (`coupon`, bearer).
        public static let validate = "validate"
        /// Spends points on a coupon (`coupon`, bearer).
        public static let redeem = "redeem"
        /// The redeemed supermarket coupons (`coupon`, bearer).
        public static let redeemedSupermarketHistory = "get_redeemed_sm_history"
        /// Reads or updates the profile (`consumer_data`, bearer).
        public static let userDetails = "handle_user_details"
        /// The user's transactions (`consumer_data`, bearer).
        public static let transactionHistory = "get_transaction_history"
        /// The user's points history (`consumer_data`, bearer).
        public static let pointsHistory = "get_points_history"
        /// The market pass details (`consumer_data`, bearer).
        public static let marketPass = "integration"
        /// Adds a payment card (`cards`, bearer).
        public static let addCard = "add_card"
        /// Lists the payment cards (`cards`, bearer).
        public static let getCards = "get_cards"
        /// Deletes a payment card (`cards`, bearer).
        public static let deleteCard = "delete_card"
        /// Merchants or articles in a language (`shops`, `content`).
        public static let retrieveMultilingual = "retrieve_multilingual"
        /// Merchant categories (`shops`).
        public static let merchantCategories = "get_merchant_categories"
        /// Sends the push token (`device_info`).
        public static let updateToken = "update_token"
    }

    // MARK: Response sections

    /// The `context` sections of responses (`{"status":"1","context":{"MAPP_X":{"result":...},"MAPP_X-status":1}}`).
    public enum Section {
        /// Campaigns.
        public static let campaigning = "MAPP_CAMPAIGNING"
        /// Coupons, coupon sets, availability, validation and redemption.
        public static let coupon = "MAPP_COUPON"
        /// The profile.
        public static let user = "MAPP_USER"
        /// Payment cards.
        public static let cards = "MAPP_CARDS"
        /// Transactions.
        public static let transactions = "MAPP_TRANSACTIONS"
        /// Points history.
        public static let points = "MAPP_POINTS"
        /// Merchants and categories.
        public static let shops = "MAPP_SHOPS"
        /// Articles.
        public static let content = "MAPP_CONTENT"
        /// The market pass.
        public static let marketPass = "MAPP_MARKET_PASS"

        /// The key of a section's own status, e.g. `MAPP_COUPON-status`.
        public static func statusKey(_ section: String) -> String { section + "-status" }
    }

    /// Body statuses.
    public enum Status {
        /// Success.
        public static let success = 1
        /// The device registration (`web_id`/`api_key`) is unknown: register again.
        public static let registrationInvalid = 9
    }

    /// `url` with Warply's escaped slashes (`\/`) replaced by `/`.
    public static func cleanEscapedURL(_ url: String) -> String {
        url.replacingOccurrences(of: "\\/", with: "/")
    }
}
