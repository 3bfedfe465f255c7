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

    /// The path of `template` with its placeholders filled (each value percent-encoded as one segment).
    public static func path(_ template: PathTemplate, appUUID: String, sessionUUID: String = "") -> String {
        template.rawValue
            .replacingOccurrences(of: "{appUUID}", with: segment(appUUID))
            .replacingOccurrences(of: "{sessionUuid}", with: segment(sessionUUID))
    }

    private static func segment(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    // MARK: Headers

    /// Header names.
    public enum Header {
        public static let webID = "loyalty-web-id"
        public static let date = "loyalty-date"
        public static let signature = "loyalty-signature"
        public static let bundleID = "loyalty-bundle-id"
        public static let channel = "channel"
        public static let uniqueDeviceID = "unique-device-id"
        public static let vendor = "vendor"
        public static let platform = "platform"
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
        public static let campaigns = "campaigns"
        public static let coupon = "coupon"
        public static let consumerData = "consumer_data"
        public static let cards = "cards"
        public static let shops = "shops"
        public static let content = "content"
        public static let deviceInfo = "device_info"
    }

    /// Actions, by root.
    public enum Action {
        public static let retrieve = "retrieve"
        public static let retrievePersonalized = "retrieve_personalized"
        public static let retrieveSupermarket = "retrieve_supermarket"
        public static let userCoupons = "user_coupons"
        public static let universalCoupons = "user_coupons_universal"
        public static let couponSets = "retrieve_multilingual"
        public static let availability = "availability"
        public static let validate = "validate"
        public static let redeem = "redeem"
        public static let redeemedSupermarketHistory = "get_redeemed_sm_history"
        public static let userDetails = "handle_user_details"
        public static let transactionHistory = "get_transaction_history"
        public static let pointsHistory = "get_points_history"
        public static let marketPass = "integration"
        public static let addCard = "add_card"
        public static let getCards = "get_cards"
        public static let deleteCard = "delete_card"
        public static let retrieveMultilingual = "retrieve_multilingual"
        public static let merchantCategories = "get_merchant_categories"
        public static let updateToken = "update_token"
    }

    // MARK: Response sections

    /// The `context` sections of responses (`{"status":"1","context":{"MAPP_X":{"result":...},"MAPP_X-status":1}}`).
    public enum Section {
        public static let campaigning = "MAPP_CAMPAIGNING"
        public static let coupon = "MAPP_COUPON"
        public static let user = "MAPP_USER"
        public static let cards = "MAPP_CARDS"
        public static let transactions = "MAPP_TRANSACTIONS"
        public static let points = "MAPP_POINTS"
        public static let shops = "MAPP_SHOPS"
        public static let content = "MAPP_CONTENT"
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
