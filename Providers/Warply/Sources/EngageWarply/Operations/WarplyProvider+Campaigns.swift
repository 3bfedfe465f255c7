import EngageCore
import Foundation
import HTTPTypes
import Logging

extension WarplyProvider {
    /// The campaigns to show.
    ///
    /// For a logged-in user this is the seed's merged flow: basic and personalized campaigns and the
    /// coupon availability are fetched together, each campaign gets its coupon set's availability,
    /// campaigns with none left are dropped, carousel campaigns go to `state.carouselList`, CCMS,
    /// telco and questionnaire campaigns are removed, and the rest is sorted by `sorting`. Without a
    /// session it is every basic campaign, sorted, unfiltered. Either way the state is updated and
    /// `campaigns_retrieved` published.
    ///
    /// - Parameters:
    ///   - language: The language of the texts; the provider's language when `nil`.
    ///   - filters: Extra filters passed to Warply as they are.
    public func campaigns(language: WarplyLanguage? = nil, filters: [String: JSONValue] = [:]) async throws -> [WarplyCampaign] {
        try await context.perform("campaigns") {
            let language = language ?? self.language
            guard try await tokens.hasSession() else {
                let basic = WarplyCampaignProcessing.sorted(try await basicCampaigns(language: language, filters: filters))
                state.setCampaignList(basic)
                return basic
            }
            async let basic = basicCampaigns(language: language, filters: filters)
            async let personalized = personalizedCampaignList(language: language, filters: filters)
            async let availability = couponAvailability()
            let result = WarplyCampaignProcessing.process(basic: try await basic, personalized: try await personalized, availability: try await availability)
            state.setCarouselList(result.carousel)
            state.setCampaignList(result.all.filter { $0.couponAvailability != 0 && !$0.isCarousel })
            return result.campaigns
        }
    }

    /// The user's personalized campaigns alone, sorted by `sorting`. Needs a logged-in user.
    public func personalizedCampaigns(language: WarplyLanguage? = nil, filters: [String: JSONValue] = [:]) async throws -> [WarplyCampaign] {
        try await context.perform("campaigns_personalized") {
            WarplyCampaignProcessing.sorted(try await personalizedCampaignList(language: language ?? self.language, filters: filters))
        }
    }

    /// The campaign of a session (`GET /api/session/{sessionUuid}`).
    public func singleCampaign(sessionUUID: String) async throws -> WarplyCampaign {
        try await context.perform("single_campaign") {
            try WarplyInput.identifier(sessionUUID, name: "sessionUUID", limit: 128)
            let campaign = try await client.result(
                WarplyCampaign.self, .get, WarplyWire.path(.session, appUUID: configuration.appUUID, sessionUUID: sessionUUID),
                credentials: .signed, operation: "single_campaign", repeatable: true
            )
            guard let campaign else {
                throw EngageError(.decoding, "Warply's session answer has no campaign.", providerID: .warply)
            }
            return campaign
        }
    }

    /// The supermarket campaign (`nil` when there is none), also kept in `state.supermarketCampaign`.
    public func supermarketCampaign(language: WarplyLanguage? = nil) async throws -> WarplyCampaign? {
        try await context.perform("supermarket_campaign") {
            let campaigns = try await client.context(
                [WarplyCampaign].self,
                WarplyContextRequest(root: WarplyWire.Root.campaigns, action: WarplyWire.Action.retrieveSupermarket, fields: [
                    "language": .string((language ?? self.language).rawValue),
                ]),
                section: WarplyWire.Section.campaigning, credentials: .signed, operation: "supermarket_campaign"
            ) ?? []
            let campaign = WarplyCampaignProcessing.sorted(campaigns).first
            state.setSupermarketCampaign(campaign)
            return campaign
        }
    }

    // MARK: Web views

    /// The URL a campaign's web view opens: its `index_url` with escaped slashes cleaned and the
    /// non-secret placeholders `{appUUID}`, `{web_id}`, `{language}` and `{sessionUuid}` filled.
    /// Tokens are never put in a URL: pass ``campaignParameters(for:isMap:)`` to the page instead.
    public func campaignURL(for campaign: WarplyCampaign) async throws -> URL? {
        guard let text = campaign.indexURL ?? campaign.campaignURL else { return nil }
        let webID = try await registrar.currentRegistration()?.webID ?? configuration.merchantID
        let filled = WarplyPlaceholders.fill(text, values: [
            "appUUID": configuration.appUUID, "web_id": webID, "language": language.rawValue, "sessionUuid": campaign.sessionUUID,
            "api_key": "",
        ])
        return URL(string: filled)
    }

    /// The parameters a campaign's web page expects (the seed's `constructCampaignParams`): the
    /// session, the app and the device. They contain the tokens: hand them only to the page.
    public func campaignParameters(for campaign: WarplyCampaign, isMap: Bool = false) async throws -> WarplyCampaignParameters {
        let current = try await tokens.currentTokens()
        let credentials = try session.clientCredentials()
        let registration = try await registrar.currentRegistration()
        return WarplyCampaignParameters(values: [
            "web_id": registration?.webID ?? configuration.merchantID,
            "app_uuid": configuration.appUUID,
            "api_key": "",
            "session_uuid": campaign.sessionUUID,
            "fcm_token": deviceTokenValue ?? "",
            "lan": language.rawValue,
            "access_token": current?.accessToken ?? "",
            "refresh_token": current?.refreshToken ?? "",
            "client_id": credentials?.clientID ?? "",
            "client_secret": credentials?.clientSecret ?? "",
            "map": isMap ? "true" : "false",
            "dark": "false",
        ])
    }

    /// The URL of a CCMS contextual offer: the campaign URL of the stored campaign with the offer's
    /// session id, or `nil` when that campaign has not been fetched.
    public func ccmsURL(for offer: WarplyContextualOffer) async throws -> URL? {
        guard let sessionID = offer.sessionID, let campaign = state.allCampaignList.first(where: { $0.sessionUUID == sessionID }) else {
            return nil
        }
        return try await campaignURL(for: campaign)
    }

    // MARK: Requests

    func basicCampaigns(language: WarplyLanguage, filters: [String: JSONValue]) async throws -> [WarplyCampaign] {
        try await campaignList(action: WarplyWire.Action.retrieve, language: language, filters: filters, credentials: .signed, operation: "campaigns")
    }

    func personalizedCampaignList(language: WarplyLanguage, filters: [String: JSONValue]) async throws -> [WarplyCampaign] {
        try await campaignList(
            action: WarplyWire.Action.retrievePersonalized, language: language, filters: filters, credentials: .bearer,
            operation: "campaigns_personalized"
        )
    }

    private func campaignList(
        action: String, language: WarplyLanguage, filters: [String: JSONValue], credentials: WarplyClient.Credentials, operation: String
    ) async throws -> [WarplyCampaign] {
        try await client.context(
            [WarplyCampaign].self,
            WarplyContextRequest(root: WarplyWire.Root.campaigns, action: action, fields: [
                "language": .string(language.rawValue), "filters": .object(filters),
            ]),
            section: WarplyWire.Section.campaigning, credentials: credentials, operation: operation
        ) ?? []
    }

    func couponAvailability() async throws -> [WarplyCouponAvailability] {
        try await client.context(
            [WarplyCouponAvailability].self,
            WarplyContextRequest(root: WarplyWire.Root.coupon, action: WarplyWire.Action.availability),
            section: WarplyWire.Section.coupon, credentials: .signed, operation: "available_coupons"
        ) ?? []
    }
}

/// The parameters handed to a campaign's web page. They include the session tokens, so
/// `description` hides every value; use ``jsonString()`` to pass them to the page.
public struct WarplyCampaignParameters: Sendable, Hashable, CustomStringConvertible {
    /// The parameters by name.
    public let values: [String: String]

    /// The parameters as a JSON object (keys sorted).
    public func jsonString() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(values), as: UTF8.self)
    }

    /// The parameter names only.
    public var description: String { "WarplyCampaignParameters(\(values.keys.sorted().joined(separator: ", ")))" }
}

/// The seed's placeholder substitution: `{name}` replaced by its value.
public enum WarplyPlaceholders {
    /// `text` with every `{name}` in `values` replaced; unknown placeholders are left as they are.
    public static func fill(_ text: String, values: [String: String]) -> String {
        var result = text
        for (name, value) in values {
            result = result.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return result
    }
}
