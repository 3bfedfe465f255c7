@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

/// What `WarplyProvider.merchants(_:)` asks for when given this query (rather than the facade's
/// `MerchantQuery`); every filter is optional.
public struct WarplyMerchantQuery: Sendable, Hashable {
    /// The language of the texts; the provider's language when `nil`.
    public var language: WarplyLanguage?
    /// Only merchants in these categories (UUIDs).
    public var categories: [String]
    /// Only merchants shown by default (`true`), or only the others (`false`).
    public var defaultShown: Bool?
    /// Sort by distance from here and report each merchant's distance.
    public var center: GeoPoint?
    /// With `center`: only merchants within this many kilometres.
    public var distanceKilometers: Double?
    /// Only merchants with one of these tags.
    public var tags: [String]
    /// Only the merchant with this UUID.
    public var uuid: String?
    /// Only children of these merchants.
    public var parentUUIDs: [String]

    /// A query.
    public init(
        language: WarplyLanguage? = nil, categories: [String] = [], defaultShown: Bool? = nil, center: GeoPoint? = nil,
        distanceKilometers: Double? = nil, tags: [String] = [], uuid: String? = nil, parentUUIDs: [String] = []
    ) {
        self.language = language
        self.categories = categories
        self.defaultShown = defaultShown
        self.center = center
        self.distanceKilometers = distanceKilometers
        self.tags = tags
        self.uuid = uuid
        self.parentUUIDs = parentUUIDs
    }

    func validate() throws {
        if let distanceKilometers, !(distanceKilometers > 0 && distanceKilometers <= 20_040) {
            throw EngageError(.invalidInput, "distanceKilometers must be within (0, 20040].", providerID: .warply)
        }
        if distanceKilometers != nil, center == nil {
            throw EngageError(.invalidInput, "distanceKilometers needs a center.", providerID: .warply)
        }
        for value in categories + tags + parentUUIDs + [uuid].compactMap({ $0 }) {
            try WarplyInput.identifier(value, name: "merchant filter", limit: 128)
        }
    }

    func fields(defaultLanguage: WarplyLanguage) -> [String: JSONValue] {
        var fields: [String: JSONValue] = ["language": .string((language ?? defaultLanguage).rawValue)]
        if !categories.isEmpty { fields["categories"] = .array(categories.map(JSONValue.string)) }
        if let defaultShown { fields["default_shown"] = .bool(defaultShown) }
        if let center { fields["center"] = .object(["lat": .number(center.latitude), "lon": .number(center.longitude)]) }
        if let distanceKilometers { fields["distance"] = .number(distanceKilometers) }
        if !tags.isEmpty { fields["tags"] = .array(tags.map(JSONValue.string)) }
        if let uuid { fields["uuid"] = .string(uuid) }
        if !parentUUIDs.isEmpty { fields["parent_uuids"] = .array(parentUUIDs.map(JSONValue.string)) }
        return fields
    }
}

extension WarplyProvider {
    /// The merchants matching `query`, kept in `state.merchantList`. With a centre they are sorted by
    /// distance (computed here when Warply does not send one).
    public func merchants(_ query: WarplyMerchantQuery = WarplyMerchantQuery()) async throws(EngageError) -> [WarplyMerchant] {
        try await context.perform(WarplyOperation.merchants) {
            let generation = state.generation
            try query.validate()
            var merchants =
                try await client.context(
                    [WarplyMerchant].self,
                    WarplyContextRequest(
                        root: WarplyWire.Root.shops, action: WarplyWire.Action.retrieveMultilingual,
                        fields: query.fields(defaultLanguage: language)),
                    section: WarplyWire.Section.shops, credentials: .signed
                ) ?? []
            if let center = query.center {
                for index in merchants.indices where merchants[index].distanceMeters == nil {
                    merchants[index].distanceMeters = merchants[index].location.map { center.distance(to: $0) }
                }
                merchants = WarplyCouponProcessing.stableSorted(merchants) { left, right in
                    (left.distanceMeters ?? .infinity) < (right.distanceMeters ?? .infinity)
                }
            }
            state.setMerchantList(merchants, since: generation)
            return merchants
        }
    }

    /// The merchant categories.
    public func merchantCategories(language: WarplyLanguage? = nil) async throws(EngageError) -> [WarplyMerchantCategory] {
        try await context.perform(WarplyOperation.merchantCategories) {
            try await client.context(
                [WarplyMerchantCategory].self,
                WarplyContextRequest(
                    root: WarplyWire.Root.shops, action: WarplyWire.Action.merchantCategories,
                    fields: [
                        "language": .string((language ?? self.language).rawValue)
                    ]),
                section: WarplyWire.Section.shops, credentials: .signed
            ) ?? []
        }
    }

    /// The articles, optionally only those in `categories`.
    public func articles(language: WarplyLanguage? = nil, categories: [String] = []) async throws(EngageError) -> [WarplyArticle] {
        try await context.perform(WarplyOperation.articles) {
            for category in categories { try WarplyInput.identifier(category, name: "category", limit: 128) }
            var fields: [String: JSONValue] = ["language": .string((language ?? self.language).rawValue)]
            if !categories.isEmpty { fields["categories"] = .array(categories.map(JSONValue.string)) }
            return try await client.context(
                [WarplyArticle].self,
                WarplyContextRequest(root: WarplyWire.Root.content, action: WarplyWire.Action.retrieveMultilingual, fields: fields),
                section: WarplyWire.Section.content, credentials: .signed
            ) ?? []
        }
    }

    /// The user's market pass (supermarket deals), kept in `state.marketPassDetails`; publishes
    /// `market_pass_details_fetched`. Needs a logged-in user.
    public func marketPassDetails() async throws(EngageError) -> WarplyMarketPassDetails {
        try await context.perform(WarplyOperation.marketPassDetails) {
            let generation = state.generation
            guard
                let details = try await client.context(
                    WarplyMarketPassDetails.self,
                    WarplyContextRequest(
                        root: WarplyWire.Root.consumerData, action: WarplyWire.Action.marketPass,
                        fields: [
                            "method": .string("supermarket_profile")
                        ]),
                    section: WarplyWire.Section.marketPass, credentials: .bearer
                )
            else {
                throw EngageError(.decoding, "Warply's market pass answer is empty.", providerID: .warply)
            }
            state.setMarketPassDetails(details, since: generation)
            return details
        }
    }

    /// The supermarkets map page of the market pass (from the last ``marketPassDetails()``), with
    /// escaped slashes cleaned; `nil` before the details were fetched.
    public var marketPassMapURL: URL? {
        state.marketPassDetails?.mapURL.flatMap { URL(string: WarplyWire.cleanEscapedURL($0)) }
    }
}
