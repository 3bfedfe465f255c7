@_spi(EngageProvider) import EngageCore
import EngageExploreCTX
import EngageExploreGiftCards
import Foundation

/// A directory merchant with CTX's live view of it merged in, as the Dash wallet shows a merchant's
/// page: whether its cards can be bought now, for which amounts, and at which discount come from CTX
/// when CTX answers, and from the directory when it does not (the wallet's fallbacks: enabled unless
/// CTX says otherwise, the directory's denominations kind).
public struct ExploreMerchantDetails: Sendable {
    /// Where the live values come from.
    public enum LiveData: String, Sendable, Hashable, Codable {
        /// CTX answered: its values are merged in (``ExploreMerchantDetails/ctx``).
        case ctx
        /// The directory lists no CTX offer for the merchant: nothing to ask.
        case notSoldByCTX
        /// CTX gift cards are off in this configuration (no `ctx` settings).
        case ctxOff
        /// CTX could not be asked or refused (``ExploreMerchantDetails/liveDataError`` says why): the
        /// directory's values stand.
        case unavailable
    }

    /// The merchant as the directory lists it (its offers at the directory's discounts).
    public var merchant: ExploreMerchant
    /// CTX's answer, when it gave one; the merged values below are read from it.
    public var ctx: CTXMerchant?
    /// Where the live values come from.
    public var liveData: LiveData
    /// Why CTX's view is missing, when ``liveData`` is ``LiveData/unavailable``.
    public var liveDataError: EngageError?

    /// Whether CTX sells the merchant's cards now: CTX's `enabled` when it answered, else `true`.
    public var isEnabled: Bool { ctx?.isEnabled ?? true }
    /// Fixed amounts or a range: CTX's when it said, else the directory's CTX offer's, else the merchant's.
    public var denominationsType: ExploreDenominationsType? {
        ctx?.denominationsType ?? merchant.giftCardOffers.first { $0.provider == .ctx }?.denominationsType ?? merchant.denominationsType
    }
    /// The amounts a CTX card can be bought for, from CTX; `nil` when CTX did not answer or listed none.
    public var denominations: GiftCardDenominations? { ctx?.denominations }
    /// The merchant's best discount in basis points (1 % = 100; negative is a surcharge): the
    /// directory's rule (the best offer's, else the merchant's own) with CTX's offer at CTX's current
    /// discount when it answered.
    public var discountBasisPoints: Int {
        guard let ctx else { return merchant.discountBasisPoints }
        let offers = merchant.giftCardOffers.map { $0.provider == .ctx ? ctx.savingsBasisPoints : $0.savingsBasisPoints }
        return offers.max() ?? ctx.savingsBasisPoints
    }
    /// The discount in percent.
    public var discountPercent: Double { Double(discountBasisPoints) / 100 }

    /// Details from the directory alone.
    package init(directory merchant: ExploreMerchant, liveData: LiveData, error: EngageError? = nil) {
        self.merchant = merchant
        ctx = nil
        self.liveData = liveData
        liveDataError = error
    }

    /// Details with CTX's answer `live` merged into the directory's `merchant`.
    package init(directory merchant: ExploreMerchant, ctx live: CTXMerchant) {
        self.init(directory: merchant, liveData: .ctx)
        ctx = live
    }

    /// The id CTX knows the merchant by: its CTX offer's `sourceId`, else the directory's merchant id;
    /// `nil` when the directory lists no CTX offer.
    package static func ctxID(of merchant: ExploreMerchant) -> String? {
        guard let offer = merchant.giftCardOffers.first(where: { $0.provider == .ctx }) else { return nil }
        return offer.sourceID ?? merchant.merchantID
    }
}
