@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

/// The user's coupons, split the seed's way.
public struct WarplyCouponLists: Sendable, Hashable {
    /// Active coupons (status 1), soonest expiration first.
    public var active: [WarplyCoupon]
    /// Redeemed coupons (status 0), most recently redeemed first.
    public var redeemed: [WarplyCoupon]

    /// Lists.
    public init(active: [WarplyCoupon], redeemed: [WarplyCoupon]) {
        self.active = active
        self.redeemed = redeemed
    }
}

extension WarplyProvider {
    /// The user's coupons, with merchant and redemption details: active ones soonest-expiring first,
    /// redeemed ones newest first. Kept in `state.couponList` / `state.oldCouponList`; publishes
    /// `coupons_fetched`. Needs a logged-in user.
    public func coupons(language: WarplyLanguage? = nil) async throws(EngageError) -> WarplyCouponLists {
        try await context.perform(WarplyOperation.coupons) {
            let generation = state.generation
            let coupons = try await userCoupons(
                action: WarplyWire.Action.userCoupons, language: language ?? self.language)
            // Return the lists computed here: reading them back from the shared state could return
            // another call's lists (a concurrent fetch, a logout, the app's own setters).
            let lists = WarplyCouponLists(
                active: WarplyCouponProcessing.active(coupons), redeemed: WarplyCouponProcessing.redeemed(coupons))
            state.setCouponLists(coupons, since: generation)
            return lists
        }
    }

    /// The user's universal coupons (valid at every merchant), split like ``coupons(language:)``.
    /// Needs a logged-in user.
    public func universalCoupons(language: WarplyLanguage? = nil) async throws(EngageError) -> WarplyCouponLists {
        try await context.perform(WarplyOperation.couponsUniversal) {
            let coupons = try await userCoupons(
                action: WarplyWire.Action.universalCoupons, language: language ?? self.language
            )
            return WarplyCouponLists(active: WarplyCouponProcessing.active(coupons), redeemed: WarplyCouponProcessing.redeemed(coupons))
        }
    }

    /// Every coupon set, kept in `state.couponSetList`.
    public func couponSets(language: WarplyLanguage? = nil) async throws(EngageError) -> [WarplyCouponSet] {
        try await context.perform(WarplyOperation.couponsets) {
            let generation = state.generation
            let sets =
                try await client.context(
                    [WarplyCouponSet].self,
                    WarplyContextRequest(
                        root: WarplyWire.Root.coupon, action: WarplyWire.Action.couponSets,
                        fields: [
                            "language": .string((language ?? self.language).rawValue), "active": .bool(true), "visible": .bool(true),
                        ]),
                    section: WarplyWire.Section.coupon, credentials: .signed
                ) ?? []
            state.setCouponSetList(sets, since: generation)
            return sets
        }
    }

    /// How many coupons each coupon set has left, by coupon set UUID.
    public func availableCoupons() async throws(EngageError) -> [String: Int] {
        try await context.perform(WarplyOperation.availableCoupons) {
            Dictionary(try await couponAvailability().map { ($0.couponSetUUID, $0.availability) }, uniquingKeysWith: { _, last in last })
        }
    }

    /// Checks whether `code` is one of the user's active coupons. Needs a logged-in user.
    public func validateCoupon(code: String) async throws(EngageError) -> WarplyCouponValidation {
        try await context.perform(WarplyOperation.validateCoupon) {
            try WarplyInput.identifier(code, name: "code", limit: 128)
            guard
                let validation = try await client.context(
                    WarplyCouponValidation.self,
                    WarplyContextRequest(
                        root: WarplyWire.Root.coupon, action: WarplyWire.Action.validate, fields: ["coupon": .string(code)]),
                    section: WarplyWire.Section.coupon, credentials: .bearer
                )
            else {
                throw EngageError(.decoding, "Warply's validation answer is empty.", providerID: .warply)
            }
            return validation
        }
    }

    /// Redeems a coupon from a coupon set for the user (spending its points).
    ///
    /// - Parameters:
    ///   - productID: The product (coupon set) id, if the set has one.
    ///   - productUUID: The coupon set's UUID.
    ///   - merchantID: The merchant's id, if any.
    /// - Throws: `.warplyCouponNotRedeemable` when the set has no coupons left, is unknown, or the user
    ///   lacks points (the message says which); `.unauthorized` without a session.
    public func redeemCoupon(
        productID: String? = nil, productUUID: String, merchantID: String? = nil
    ) async throws(EngageError) -> WarplyRedemption {
        try await context.perform(WarplyOperation.redeemCoupon) {
            try WarplyInput.identifier(productUUID, name: "productUUID", limit: 128)
            var fields: [String: JSONValue] = ["product_uuid": .string(productUUID)]
            if let productID { fields["product_id"] = .string(productID) }
            if let merchantID { fields["merchant_id"] = .string(merchantID) }
            let redemption: WarplyRedemption?
            do {
                // Not repeatable: a resend after a lost answer could spend the points twice.
                redemption = try await client.context(
                    WarplyRedemption.self,
                    WarplyContextRequest(root: WarplyWire.Root.coupon, action: WarplyWire.Action.redeem, fields: fields),
                    section: WarplyWire.Section.coupon, credentials: .bearer
                )
            } catch let error as EngageError where error.code == .warplyRequestRejected {
                throw EngageError(
                    .warplyCouponNotRedeemable, error.message, providerID: .warply,
                    recoverySuggestion: "Refresh the coupon sets and the user's points; the set may be sold out.", underlyingError: error
                )
            }
            guard let redemption else {
                throw EngageError(.decoding, "Warply's redemption answer is empty.", providerID: .warply)
            }
            return redemption
        }
    }

    /// The user's redeemed supermarket coupons and their total value. Needs a logged-in user.
    public func redeemedSupermarketHistory(language: WarplyLanguage? = nil) async throws(EngageError) -> WarplyRedeemedSupermarketHistory {
        try await context.perform(WarplyOperation.redeemedSMHistory) {
            let history = try await client.context(
                WarplyRedeemedSupermarketHistory.self,
                WarplyContextRequest(
                    root: WarplyWire.Root.coupon, action: WarplyWire.Action.redeemedSupermarketHistory,
                    fields: [
                        "language": .string((language ?? self.language).rawValue)
                    ]),
                section: WarplyWire.Section.coupon, credentials: .bearer
            )
            guard var history else {
                throw EngageError(.decoding, "Warply's supermarket history answer is empty.", providerID: .warply)
            }
            history.redeemedCoupons = WarplyCouponProcessing.stableSorted(history.redeemedCoupons) { left, right in
                switch (left.redeemedDate?.date, right.redeemedDate?.date) {
                case let (l?, r?): l > r
                case (_?, nil): true
                default: false
                }
            }
            return history
        }
    }

    func userCoupons(action: String, language: WarplyLanguage) async throws -> [WarplyCoupon] {
        try await client.context(
            [WarplyCoupon].self,
            WarplyContextRequest(
                root: WarplyWire.Root.coupon, action: action,
                fields: [
                    "details": .array([.string("merchant"), .string("redemption")]), "language": .string(language.rawValue),
                    "couponset_types": .array([.string("supermarket"), .string("coupon")]),
                ]),
            section: WarplyWire.Section.coupon, credentials: .bearer
        ) ?? []
    }
}
