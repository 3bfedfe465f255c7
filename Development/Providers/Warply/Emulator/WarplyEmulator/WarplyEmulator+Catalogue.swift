@_spi(EngageProvider) import EngageCore
import Foundation

extension WarplyEmulator {
    /// The campaign filters `campaigns`/`retrieve` applies (each a string or a list of strings); any other
    /// key of `filters` is ignored, as the backend ignores filters it does not know.
    static let campaignFilterKeys = ["offer_category", "type", "filter"]

    /// The basic campaigns in `language`, narrowed by the known `filters`.
    func campaigns(_ body: WarplyEmulatorContextRequest, language: ServedLanguage) throws -> [ServedCampaign] {
        var list = try catalogue().campaigns[language, default: []]
        guard case let .object(filters)? = body.fields["filters"] else { return list }
        for key in Self.campaignFilterKeys {
            let wanted = Self.strings(filters[key])
            guard !wanted.isEmpty else { continue }
            list = list.filter { campaign in
                let value: String?
                switch key {
                case "offer_category": value = campaign.offerCategory
                case "type": value = campaign.type
                default: value = campaign.filter
                }
                return value.map(wanted.contains) ?? false
            }
        }
        return list
    }

    /// The user's personalized campaigns in `language`.
    func personalizedCampaigns(email: String, language: ServedLanguage) throws -> [ServedCampaign] {
        let uuids = try user(email).personalizedCampaignUUIDs
        return try catalogue().personalizedCampaigns[language, default: []].filter { uuids.contains($0.sessionUUID) }
    }

    /// The availability of every coupon set, in catalogue order.
    func availabilityList() throws -> [ServedCouponAvailability] {
        let sets = try catalogue().couponSets[.greek, default: []]
        let availability = state.withLock { $0.availability }
        return sets.map { ServedCouponAvailability(couponSetUUID: $0.uuid, availability: availability[$0.uuid] ?? 0) }
    }

    /// The articles in `language`, narrowed to `categories` when given.
    func articles(_ body: WarplyEmulatorContextRequest, language: ServedLanguage) throws -> [ServedArticle] {
        let list = try catalogue().articles[language, default: []]
        let categories = Set(body.strings("categories"))
        guard !categories.isEmpty else { return list }
        return list.filter { !categories.isDisjoint(with: $0.categories) }
    }

    // MARK: Field readers

    /// A string or a list of strings; empty otherwise.
    static func strings(_ value: JSONValue?) -> [String] {
        switch value {
        case let .string(text)?: return text.isEmpty ? [] : [text]
        case let .array(values)?: return values.compactMap { if case let .string(text) = $0 { text } else { nil } }
        default: return []
        }
    }

    /// A number sent as a JSON number or a numeric string.
    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case let .integer(number)?: return Double(number)
        case let .number(number)?: return number
        case let .string(text)?: return Double(text.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// A flag sent as `true`/`false`, `1`/`0` or their strings.
    static func flag(_ value: JSONValue?) -> Bool? {
        switch value {
        case let .bool(flag)?: return flag
        case let .integer(number)?: return number != 0
        case let .string(text)?:
            return ["true", "1", "yes"].contains(text.lowercased()) ? true : ["false", "0", "no"].contains(text.lowercased()) ? false : nil
        default: return nil
        }
    }
}
