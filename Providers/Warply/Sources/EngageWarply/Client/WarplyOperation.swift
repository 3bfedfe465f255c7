@_spi(EngageProvider) import EngageCore

/// Every Warply operation, declared once: the name its event and requests carry, and whether its
/// requests may be resent after a lost answer.
enum WarplyOperation: String, ProviderOperation {
    // Device and signing.
    case initialize
    case registerDevice = "register_device"
    case sendDeviceInfo = "send_device_info"
    case updateDeviceToken = "update_device_token"
    // Sessions.
    case registerUser = "register_user"
    case deiLogin = "dei_login"
    case verifyTicket = "verify_ticket"
    case cosmoteUser = "cosmote_user"
    case refreshToken = "refresh_token"
    case updateTokens = "update_tokens"
    case logout
    // The user.
    case profile
    case changePassword = "change_password"
    case resetPassword = "reset_password"
    case requestOTP = "request_otp"
    // Cards and history.
    case addCard = "add_card"
    case getCards = "get_cards"
    case deleteCard = "delete_card"
    case transactionHistory = "transaction_history"
    case pointsHistory = "points_history"
    // Merchants and content.
    case merchants
    case merchantCategories = "merchant_categories"
    case articles
    case marketPassDetails = "market_pass_details"
    // Campaigns and coupons.
    case campaigns
    case campaignsPersonalized = "campaigns_personalized"
    case singleCampaign = "single_campaign"
    case supermarketCampaign = "supermarket_campaign"
    case coupons
    case couponsUniversal = "coupons_universal"
    case couponsets
    case availableCoupons = "available_coupons"
    case validateCoupon = "validate_coupon"
    case redeemCoupon = "redeem_coupon"
    case redeemedSMHistory = "redeemed_sm_history"
    // Analytics.
    case track
    case analytics

    /// Reads, deletes and device details may be resent. Sign-ups, logins, token and password changes
    /// and one-time codes may not (a resend could open a second session or send a second code), nor
    /// adding a card or redeeming a coupon (a resend could add it twice or spend the points twice).
    var isRepeatable: Bool {
        switch self {
        case .registerUser, .deiLogin, .verifyTicket, .cosmoteUser, .refreshToken, .updateTokens, .logout, .changePassword,
            .resetPassword, .requestOTP, .addCard, .redeemCoupon:
            false
        case .initialize, .registerDevice, .sendDeviceInfo, .updateDeviceToken, .profile, .getCards, .deleteCard, .transactionHistory,
            .pointsHistory, .merchants, .merchantCategories, .articles, .marketPassDetails, .campaigns, .campaignsPersonalized,
            .singleCampaign, .supermarketCampaign, .coupons, .couponsUniversal, .couponsets, .availableCoupons, .validateCoupon,
            .redeemedSMHistory, .track, .analytics:
            true
        }
    }
}
