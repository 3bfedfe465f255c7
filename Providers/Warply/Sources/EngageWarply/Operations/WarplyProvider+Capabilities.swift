@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

extension WarplyProvider {
    /// Campaigns and coupon sets as offers, for `engage.offers(_:)`: the campaigns ``campaigns(language:filters:)``
    /// returns (kind `.campaign`), then the active, visible coupon sets (kind `.coupon`), paged by
    /// `query.page`. `query.language` `"el"` or `"en"` picks the language.
    public func offers(_ query: OfferQuery) async throws -> [Offer] {
        let language = query.language.flatMap(WarplyLanguage.init(rawValue:)) ?? self.language
        async let campaigns = campaigns(language: language)
        async let couponSets = couponSets(language: language)
        let offers =
            try await campaigns.map { $0.offer(language: language) }
            + couponSets.filter { $0.isActive && $0.isVisible }.map { $0.offer(language: language) }
        return Array(offers[query.page.range(in: offers.count)])
    }

    /// Warply shops as merchants, for `engage.merchants(near:)`: the centre and radius become Warply's
    /// centre and distance; `query.text` keeps merchants whose name contains it (case- and
    /// diacritic-insensitive). Paged locally; `totalCount` is the number of matches.
    public func merchants(_ query: MerchantQuery) async throws -> Page<MerchantSummary> {
        let warplyQuery = WarplyMerchantQuery(
            center: query.center, distanceKilometers: query.center == nil ? nil : query.radiusMeters.map { $0 / 1000 })
        var merchants = try await merchants(warplyQuery)
        if let text = query.text?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            merchants = merchants.filter { ($0.name ?? "").range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
        }
        let items = merchants[query.page.range(in: merchants.count)].map(\.summary)
        return Page(items: Array(items), offset: query.page.offset, totalCount: merchants.count)
    }

    /// Articles as content items, for `engage.content(_:)`: `query.category` filters by category and
    /// `query.text` by title or body (case- and diacritic-insensitive).
    public func content(_ query: ContentQuery) async throws -> [ContentItem] {
        let language = query.language.flatMap(WarplyLanguage.init(rawValue:)) ?? self.language
        var articles = try await articles(language: language, categories: query.category.map { [$0] } ?? [])
        if let text = query.text?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            articles = articles.filter { article in
                [article.title, article.body].compactMap { $0 }.contains {
                    $0.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil
                }
            }
        }
        return articles[query.page.range(in: articles.count)].map { $0.contentItem(language: language) }
    }

    /// The app logged in: a DEI login with the identity's email (Warply logins are by email).
    ///
    /// - Throws: `.invalidInput` when the identity has no email.
    public func logIn(_ identity: UserIdentity) async throws {
        guard let email = identity.email else {
            throw EngageError(
                .invalidInput, "Warply logs users in by email; the identity has none.", providerID: .warply,
                recoverySuggestion:
                    "Log in with UserIdentity(userID:email:) and the user's e-mail, or sign in with Warply directly: logIn(deiEmail:), logIn(cosmoteGUID:ticket:) or logIn(cosmoteGUID:)."
            )
        }
        try await logIn(deiEmail: email)
    }

}

extension WarplyCampaign {
    func offer(language: WarplyLanguage) -> Offer {
        var attributes = ["session_uuid": sessionUUID, "sorting": String(sorting)]
        if let couponSetUUID { attributes["couponset"] = couponSetUUID }
        if let type { attributes["type"] = type }
        if let offerCategory { attributes["offer_category"] = offerCategory }
        if let couponAvailability { attributes["coupon_availability"] = String(couponAvailability) }
        if isCarousel { attributes["carousel"] = "true" }
        return Offer(
            id: sessionUUID, providerID: .warply, kind: .campaign, title: LocalizedText(title ?? "", language: language.rawValue),
            details: subtitle.map { LocalizedText($0, language: language.rawValue) },
            imageURL: (bannerImage ?? logoURL).flatMap(URL.init(string:)), actionURL: (indexURL ?? campaignURL).flatMap(URL.init(string:)),
            validFrom: startDate?.date, validUntil: endDate?.date, attributes: attributes
        )
    }
}

extension WarplyCouponSet {
    func offer(language: WarplyLanguage) -> Offer {
        var attributes = ["couponset_uuid": uuid]
        if let discount { attributes["discount"] = discount }
        if let discountType { attributes["discount_type"] = discountType }
        if let merchantUUID { attributes["merchant_uuid"] = merchantUUID }
        if let points { attributes["points"] = String(points) }
        if let couponSetType { attributes["couponset_type"] = couponSetType }
        return Offer(
            id: uuid, providerID: .warply, kind: .coupon, title: LocalizedText(name ?? "", language: language.rawValue),
            details: description.map { LocalizedText($0, language: language.rawValue) }, imageURL: imagePreview.flatMap(URL.init(string:)),
            badge: discount.map { Offer.Badge(text: $0) }, value: finalPrice.flatMap { try? Money(decimal: "\($0)", currency: "EUR") },
            validUntil: expiration?.date, attributes: attributes
        )
    }
}

extension WarplyMerchant {
    var summary: MerchantSummary {
        var attributes: [String: String] = [:]
        if let address { attributes["address"] = address }
        if let telephone { attributes["telephone"] = telephone }
        if let website { attributes["website"] = website }
        if !tags.isEmpty { attributes["tags"] = tags.joined(separator: ",") }
        if let parentUUID { attributes["parent"] = parentUUID }
        return MerchantSummary(
            id: uuid, providerID: .warply, name: name ?? "", logoURL: logo.flatMap(URL.init(string:)), category: categories.first,
            location: location, distanceMeters: distanceMeters, locationCount: location == nil ? 0 : 1, isOnline: location == nil,
            attributes: attributes
        )
    }
}

extension WarplyArticle {
    func contentItem(language: WarplyLanguage) -> ContentItem {
        var attributes: [String: String] = [:]
        if !tags.isEmpty { attributes["tags"] = tags.joined(separator: ",") }
        return ContentItem(
            id: uuid, providerID: .warply, type: "article", title: LocalizedText(title ?? "", language: self.language ?? language.rawValue),
            summary: (subtitle ?? body).map { LocalizedText($0, language: self.language ?? language.rawValue) },
            imageURL: imageURL.flatMap(URL.init(string:)), url: url.flatMap(URL.init(string:)), publishedAt: publishedAt?.date,
            categories: categories, attributes: attributes
        )
    }
}

@_spi(EngageProvider) extension WarplyProvider: Resettable {
    /// Forgets the user and this device: logs out (telling Warply when a session exists), forgets
    /// the device registration (`web_id`, `api_key`) and the user's in-memory data and push token,
    /// and, unless ``WarplyConfiguration/deviceID`` is set, starts over with a new persisted device
    /// id. The next request registers the new device.
    public func reset() async throws {
        try await logOut()
        try await context.local {
            try installation.renew()
            try await registrar.reset()
            pushToken.withLock { $0 = nil }
            state.clear()
        }
    }
}
