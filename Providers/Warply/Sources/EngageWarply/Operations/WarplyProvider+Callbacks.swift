@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

/// The completion-handler twins of every async operation. Each runs the async operation and delivers
/// its `Result` on the main actor; the returned `EngageCancellable` cancels the operation
/// (the completion then receives `.cancelled`, unless the operation had already finished).
extension WarplyProvider {
    /// A completion handler: receives the operation's value or its `EngageError`, run once on the main
    /// actor.
    public typealias Completion<Value> = @MainActor @Sendable (Result<Value, EngageError>) -> Void

    // MARK: Lifecycle and auth

    /// The callback form of ``initialize()``.
    @discardableResult
    public func initialize(completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.initialize() }
    }

    /// The callback form of ``isLoggedIn()``. Local: publishes no operation event.
    @discardableResult
    public func isLoggedIn(completion: @escaping Completion<Bool>) -> any EngageCancellable {
        context.callback(completion) { try await self.isLoggedIn() }
    }

    /// The callback form of ``register(_:)``.
    @discardableResult
    public func register(_ signUp: WarplySignUp, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.register(signUp) }
    }

    /// The callback form of ``deiLogin(email:)``.
    @discardableResult
    public func deiLogin(email: String, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.deiLogin(email: email) }
    }

    /// The callback form of ``verifyTicket(guid:ticket:)``.
    @discardableResult
    public func verifyTicket(guid: String, ticket: String, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.verifyTicket(guid: guid, ticket: ticket) }
    }

    /// The callback form of ``cosmoteUser(guid:)``.
    @discardableResult
    public func cosmoteUser(guid: String, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.cosmoteUser(guid: guid) }
    }

    /// The callback form of ``refreshToken()``.
    @discardableResult
    public func refreshToken(completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.refreshToken() }
    }

    /// The callback form of ``updateTokens(accessToken:refreshToken:)``.
    @discardableResult
    public func updateTokens(accessToken: String, refreshToken: String, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.updateTokens(accessToken: accessToken, refreshToken: refreshToken) }
    }

    /// The callback form of ``logout()``.
    @discardableResult
    public func logout(completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.logout() }
    }

    // MARK: Campaigns

    /// The callback form of ``campaigns(language:filters:)``.
    @discardableResult
    public func campaigns(
        language: WarplyLanguage? = nil, filters: [String: JSONValue] = [:], completion: @escaping Completion<[WarplyCampaign]>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.campaigns(language: language, filters: filters) }
    }

    /// The callback form of ``personalizedCampaigns(language:filters:)``.
    @discardableResult
    public func personalizedCampaigns(
        language: WarplyLanguage? = nil, filters: [String: JSONValue] = [:], completion: @escaping Completion<[WarplyCampaign]>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.personalizedCampaigns(language: language, filters: filters) }
    }

    /// The callback form of ``singleCampaign(sessionUUID:)``.
    @discardableResult
    public func singleCampaign(sessionUUID: String, completion: @escaping Completion<WarplyCampaign>) -> any EngageCancellable {
        context.callback(completion) { try await self.singleCampaign(sessionUUID: sessionUUID) }
    }

    /// The callback form of ``supermarketCampaign(language:)``.
    @discardableResult
    public func supermarketCampaign(
        language: WarplyLanguage? = nil, completion: @escaping Completion<WarplyCampaign?>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.supermarketCampaign(language: language) }
    }

    /// The callback form of ``campaignURL(for:)``. Local: publishes no operation event.
    @discardableResult
    public func campaignURL(for campaign: WarplyCampaign, completion: @escaping Completion<URL?>) -> any EngageCancellable {
        context.callback(completion) { try await self.campaignURL(for: campaign) }
    }

    /// The callback form of ``campaignParameters(for:isMap:)``. Local: publishes no operation event.
    @discardableResult
    public func campaignParameters(
        for campaign: WarplyCampaign, isMap: Bool = false, completion: @escaping Completion<WarplyCampaignParameters>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.campaignParameters(for: campaign, isMap: isMap) }
    }

    /// The callback form of ``ccmsURL(for:)``. Local: publishes no operation event.
    @discardableResult
    public func ccmsURL(for offer: WarplyContextualOffer, completion: @escaping Completion<URL?>) -> any EngageCancellable {
        context.callback(completion) { try await self.ccmsURL(for: offer) }
    }

    // MARK: Coupons

    /// The callback form of ``coupons(language:)``.
    @discardableResult
    public func coupons(language: WarplyLanguage? = nil, completion: @escaping Completion<WarplyCouponLists>) -> any EngageCancellable {
        context.callback(completion) { try await self.coupons(language: language) }
    }

    /// The callback form of ``universalCoupons(language:)``.
    @discardableResult
    public func universalCoupons(
        language: WarplyLanguage? = nil, completion: @escaping Completion<WarplyCouponLists>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.universalCoupons(language: language) }
    }

    /// The callback form of ``couponSets(language:)``.
    @discardableResult
    public func couponSets(language: WarplyLanguage? = nil, completion: @escaping Completion<[WarplyCouponSet]>) -> any EngageCancellable {
        context.callback(completion) { try await self.couponSets(language: language) }
    }

    /// The callback form of ``availableCoupons()``.
    @discardableResult
    public func availableCoupons(completion: @escaping Completion<[String: Int]>) -> any EngageCancellable {
        context.callback(completion) { try await self.availableCoupons() }
    }

    /// The callback form of ``validateCoupon(code:)``.
    @discardableResult
    public func validateCoupon(code: String, completion: @escaping Completion<WarplyCouponValidation>) -> any EngageCancellable {
        context.callback(completion) { try await self.validateCoupon(code: code) }
    }

    /// The callback form of ``redeemCoupon(productID:productUUID:merchantID:)``.
    @discardableResult
    public func redeemCoupon(
        productID: String? = nil, productUUID: String, merchantID: String? = nil, completion: @escaping Completion<WarplyRedemption>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.redeemCoupon(productID: productID, productUUID: productUUID, merchantID: merchantID) }
    }

    /// The callback form of ``redeemedSupermarketHistory(language:)``.
    @discardableResult
    public func redeemedSupermarketHistory(
        language: WarplyLanguage? = nil, completion: @escaping Completion<WarplyRedeemedSupermarketHistory>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.redeemedSupermarketHistory(language: language) }
    }

    // MARK: User

    /// The callback form of ``profile()``.
    @discardableResult
    public func profile(completion: @escaping Completion<WarplyProfile>) -> any EngageCancellable {
        context.callback(completion) { try await self.profile() }
    }

    /// The callback form of ``changePassword(oldPassword:newPassword:)``.
    @discardableResult
    public func changePassword(oldPassword: String, newPassword: String, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.changePassword(oldPassword: oldPassword, newPassword: newPassword) }
    }

    /// The callback form of ``resetPassword(email:)``.
    @discardableResult
    public func resetPassword(email: String, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.resetPassword(email: email) }
    }

    /// The callback form of ``requestOTP(phoneNumber:)``.
    @discardableResult
    public func requestOTP(phoneNumber: String, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.requestOTP(phoneNumber: phoneNumber) }
    }

    // MARK: Cards

    /// The callback form of ``addCard(_:)``.
    @discardableResult
    public func addCard(_ card: WarplyNewCard, completion: @escaping Completion<WarplyCard>) -> any EngageCancellable {
        context.callback(completion) { try await self.addCard(card) }
    }

    /// The callback form of ``cards()``.
    @discardableResult
    public func cards(completion: @escaping Completion<[WarplyCard]>) -> any EngageCancellable {
        context.callback(completion) { try await self.cards() }
    }

    /// The callback form of ``deleteCard(token:)``.
    @discardableResult
    public func deleteCard(token: String, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.deleteCard(token: token) }
    }

    // MARK: History

    /// The callback form of ``transactionHistory(productDetail:)``.
    @discardableResult
    public func transactionHistory(
        productDetail: String = "min", completion: @escaping Completion<[WarplyTransaction]>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.transactionHistory(productDetail: productDetail) }
    }

    /// The callback form of ``pointsHistory()``.
    @discardableResult
    public func pointsHistory(completion: @escaping Completion<[WarplyPointsEntry]>) -> any EngageCancellable {
        context.callback(completion) { try await self.pointsHistory() }
    }

    // MARK: Merchants, content, market pass, device

    /// The callback form of ``merchants(_:)-(WarplyMerchantQuery)``.
    @discardableResult
    public func merchants(
        _ query: WarplyMerchantQuery = WarplyMerchantQuery(), completion: @escaping Completion<[WarplyMerchant]>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.merchants(query) }
    }

    /// The callback form of ``merchantCategories(language:)``.
    @discardableResult
    public func merchantCategories(
        language: WarplyLanguage? = nil, completion: @escaping Completion<[WarplyMerchantCategory]>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.merchantCategories(language: language) }
    }

    /// The callback form of ``articles(language:categories:)``.
    @discardableResult
    public func articles(
        language: WarplyLanguage? = nil, categories: [String] = [], completion: @escaping Completion<[WarplyArticle]>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.articles(language: language, categories: categories) }
    }

    /// The callback form of ``marketPassDetails()``.
    @discardableResult
    public func marketPassDetails(completion: @escaping Completion<WarplyMarketPassDetails>) -> any EngageCancellable {
        context.callback(completion) { try await self.marketPassDetails() }
    }

    /// The callback form of ``updateDeviceToken(_:)``.
    @discardableResult
    public func updateDeviceToken(_ deviceToken: String, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.updateDeviceToken(deviceToken) }
    }

    /// The callback form of ``track(_:)``.
    @discardableResult
    public func track(_ event: TrackedEvent, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.track(event) }
    }

    /// The callback form of ``offers(_:)``.
    @discardableResult
    public func offers(_ query: OfferQuery, completion: @escaping Completion<[Offer]>) -> any EngageCancellable {
        context.callback(completion) { try await self.offers(query) }
    }

    /// The callback form of ``merchants(_:)-(MerchantQuery)``.
    @discardableResult
    public func merchants(_ query: MerchantQuery, completion: @escaping Completion<Page<MerchantSummary>>) -> any EngageCancellable {
        context.callback(completion) { try await self.merchants(query) }
    }

    /// The callback form of ``content(_:)``.
    @discardableResult
    public func content(_ query: ContentQuery, completion: @escaping Completion<[ContentItem]>) -> any EngageCancellable {
        context.callback(completion) { try await self.content(query) }
    }

    /// The callback form of ``logIn(_:)``.
    @discardableResult
    public func logIn(_ identity: UserIdentity, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.logIn(identity) }
    }

    /// The callback form of ``setPushToken(_:)``.
    @_spi(EngageProvider) @discardableResult
    public func setPushToken(_ token: String?, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.setPushToken(token) }
    }

    /// The callback form of ``logOut()``.
    @discardableResult
    public func logOut(completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.logOut() }
    }
}
