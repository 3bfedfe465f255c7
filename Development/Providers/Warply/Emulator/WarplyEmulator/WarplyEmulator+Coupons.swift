@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension WarplyEmulator {
    /// The user's coupons in `language`, active and redeemed mixed as stored; narrowed to coupon sets of
    /// the given `couponset_types` when any are given.
    func userCoupons(email: String, types: [String], language: ServedLanguage) throws -> [ServedCoupon] {
        let catalogue = try catalogue()
        let coupons = try user(email).coupons.map { catalogue.coupon($0, language: language) }
        guard !types.isEmpty else { return coupons }
        return coupons.filter { coupon in coupon.couponSet?.couponSetType.map(types.contains) ?? true }
    }

    /// Whether the user's coupon `code` can be used.
    func validate(code: String, email: String, language: ServedLanguage) throws -> ServedCouponValidation {
        let greek = language == .greek
        guard let coupon = try user(email).coupons.first(where: { $0.code.caseInsensitiveCompare(code) == .orderedSame }) else {
            return ServedCouponValidation(isValid: false, couponCode: code, message: greek ? "Άγνωστο κουπόνι" : "Unknown coupon")
        }
        let isActive = coupon.status == ServedCoupon.activeStatus
        let message =
            isActive
            ? (greek ? "Το κουπόνι είναι έγκυρο" : "The coupon is valid")
            : (greek ? "Το κουπόνι έχει ήδη χρησιμοποιηθεί" : "The coupon has already been used")
        return ServedCouponValidation(isValid: isActive, couponCode: coupon.code, message: message, couponSetUUID: coupon.couponSetUUID)
    }

    /// `coupon`/`redeem`: acquires a coupon of the set `product_uuid`, or a section status 2 refusal.
    func redeem(_ body: WarplyEmulatorContextRequest, email: String, environment: EmulatorEnvironment) throws -> Response {
        guard let couponSetUUID = body.string("product_uuid"), !couponSetUUID.isEmpty else {
            return try Self.sectionFailure("MAPP_COUPON", "product_uuid (the coupon set) is required.")
        }
        let outcome = state.withLock { $0.redeem(couponSetUUID: couponSetUUID, email: email, environment: environment) }
        switch outcome {
        case let .success(redemption):
            return try Self.contextAnswer("MAPP_COUPON", redemption)
        case let .failure(refusal):
            return try Self.sectionFailure("MAPP_COUPON", refusal.message)
        }
    }

    /// The user's redeemed supermarket coupons and the sum of their values.
    func supermarketHistory(email: String, language: ServedLanguage) throws -> ServedRedeemedSupermarketHistory {
        let catalogue = try catalogue()
        let redeemed = try user(email).coupons
            .filter { $0.status == ServedCoupon.redeemedStatus && catalogue.isSupermarket($0) }
            .map { catalogue.coupon($0, language: language) }
        let total = redeemed.reduce(Decimal(0)) { sum, coupon in
            sum + (coupon.discount.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) } ?? 0)
        }
        return ServedRedeemedSupermarketHistory(totalRedeemedValue: total, redeemedCoupons: redeemed)
    }
}
