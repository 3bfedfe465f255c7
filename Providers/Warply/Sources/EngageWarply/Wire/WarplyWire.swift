import Crypto
import Foundation

/// The Warply wire format in one place: paths, header names, request root keys and actions, response
/// sections, and the signature. The provider builds requests from it and the emulator serves it, so
/// the two cannot drift apart.
package enum WarplyWire {
    // MARK: Paths (relative to the environment's base URL)

    /// Path templates. `{appUUID}` and `{sessionUuid}` are filled by ``path(_:appUUID:sessionUUID:)``.
    package enum PathTemplate: String, Sendable, CaseIterable {
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
        /// Sign a new user up (user management), `POST`.
        case registerUser = "/user/{appUUID}/register"
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
    package static func path(_ template: PathTemplate, appUUID: String, sessionUUID: String = "") -> String {
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
    package enum Header {
        /// The registration's `web_id`.
        package static let webID = "loyalty-web-id"
        /// The Unix timestamp the signature covers, as sent.
        package static let date = "loyalty-date"
        /// `hex(sha256(api_key + loyalty-date))`.
        package static let signature = "loyalty-signature"
        /// `<platform>:<bundle id>`, e.g. `ios:gr.dei.loyalty`.
        package static let bundleID = "loyalty-bundle-id"
        /// Always `mobile`.
        package static let channel = "channel"
        /// The device id (`WarplyConfiguration.deviceID`).
        package static let uniqueDeviceID = "unique-device-id"
        /// The device vendor, e.g. `apple`.
        package static let vendor = "vendor"
        /// The platform, e.g. `ios` or `linux`.
        package static let platform = "platform"
        /// The operating system version.
        package static let osVersion = "os_version"
        /// Headers whose values are secrets or identify the device, redacted from logs.
        package static let sensitive: Set<String> = [signature, webID, uniqueDeviceID]
    }

    /// `hex(sha256(apiKey + date))`, the `loyalty-signature` of a request sent with `loyalty-date: date`.
    package static func signature(apiKey: String, date: String) -> String {
        sha256Hex(apiKey + date)
    }

    /// The SHA-256 of `text`'s UTF-8 bytes as lower-case hex.
    package static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    // MARK: Request envelope

    /// Root keys of context request bodies (`{"<root>": {"action": ..., ...}}`).
    package enum Root {
        /// Campaigns (`retrieve`, `retrieve_personalized`, `retrieve_supermarket`).
        package static let campaigns = "campaigns"
        /// Coupons and coupon sets (user coupons, availability, validate, redeem).
        package static let coupon = "coupon"
        /// The user's profile, history and market pass.
        package static let consumerData = "consumer_data"
        /// The user's payment cards.
        package static let cards = "cards"
        /// Merchants and merchant categories.
        package static let shops = "shops"
        /// Articles.
        package static let content = "content"
        /// Device information and the push token.
        package static let deviceInfo = "device_info"
    }

    /// Actions, by root.
    package enum Action {
        /// Basic campaigns (`campaigns`).
        package static let retrieve = "retrieve"
        /// The user's personalized campaigns (`campaigns`, bearer).
        package static let retrievePersonalized = "retrieve_personalized"
        /// The supermarket campaign (`campaigns`).
        package static let retrieveSupermarket = "retrieve_supermarket"
        /// The user's coupons (`coupon`, bearer).
        package static let userCoupons = "user_coupons"
        /// The user's universal coupons (`coupon`, bearer).
        package static let universalCoupons = "user_coupons_universal"
        /// Every coupon set (`coupon`).
        package static let couponSets = "retrieve_multilingual"
        /// Coupons left per coupon set (`coupon`).
        package static let availability = "availability"
        /// Checks a coupon code (`coupon`, bearer).
        package static let validate = "validate"
        /// Spends points on a coupon (`coupon`, bearer).
        package static let redeem = "redeem"
        /// The redeemed supermarket coupons (`coupon`, bearer).
        package static let redeemedSupermarketHistory = "get_redeemed_sm_history"
        /// Reads or updates the profile (`consumer_data`, bearer).
        package static let userDetails = "handle_user_details"
        /// The user's transactions (`consumer_data`, bearer).
        package static let transactionHistory = "get_transaction_history"
        /// The user's points history (`consumer_data`, bearer).
        package static let pointsHistory = "get_points_history"
        /// The market pass details (`consumer_data`, bearer).
        package static let marketPass = "integration"
        /// Adds a payment card (`cards`, bearer).
        package static let addCard = "add_card"
        /// Lists the payment cards (`cards`, bearer).
        package static let getCards = "get_cards"
        /// Deletes a payment card (`cards`, bearer).
        package static let deleteCard = "delete_card"
        /// Merchants or articles in a language (`shops`, `content`).
        package static let retrieveMultilingual = "retrieve_multilingual"
        /// Merchant categories (`shops`).
        package static let merchantCategories = "get_merchant_categories"
        /// Sends the push token (`device_info`).
        package static let updateToken = "update_token"
        /// Sends the device's details after it registers, and again when they change (`device_info`).
        package static let updateDeviceInfo = "update_device_info"
    }

    // MARK: Response sections

    /// The `context` sections of responses (`{"status":"1","context":{"MAPP_X":{"result":...},"MAPP_X-status":1}}`).
    package enum Section {
        /// Campaigns.
        package static let campaigning = "MAPP_CAMPAIGNING"
        /// Coupons, coupon sets, availability, validation and redemption.
        package static let coupon = "MAPP_COUPON"
        /// The profile.
        package static let user = "MAPP_USER"
        /// Payment cards.
        package static let cards = "MAPP_CARDS"
        /// Transactions.
        package static let transactions = "MAPP_TRANSACTIONS"
        /// Points history.
        package static let points = "MAPP_POINTS"
        /// Merchants and categories.
        package static let shops = "MAPP_SHOPS"
        /// Articles.
        package static let content = "MAPP_CONTENT"
        /// The market pass.
        package static let marketPass = "MAPP_MARKET_PASS"

        /// The key of a section's own status, e.g. `MAPP_COUPON-status`.
        package static func statusKey(_ section: String) -> String { section + "-status" }
    }

    /// Body statuses.
    package enum Status {
        /// Success.
        package static let success = 1
        /// The device registration (`web_id`/`api_key`) is unknown: register again.
        package static let registrationInvalid = 9
    }

    /// `url` with Warply's escaped slashes (`\/`) replaced by `/`.
    package static func cleanEscapedURL(_ url: String) -> String {
        url.replacingOccurrences(of: "\\/", with: "/")
    }
}
