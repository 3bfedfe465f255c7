@_spi(EngageProvider) import EngageCore
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
    /// session it is every basic campaign, sorted, unfiltered. A stored session that turns out to be
    /// dead (its refresh is rejected, or the personalized request is refused as unauthorized) is
    /// treated as no session: the basic campaigns are returned instead of an error. Either way the
    /// state is updated and `campaigns_retrieved` published.
    ///
    /// - Parameters:
    ///   - language: The language of the texts; the provider's language when `nil`.
    ///   - filters: Extra filters passed to Warply as they are.
    public func campaigns(language: WarplyLanguage? = nil, filters: [String: JSONValue] = [:]) async throws(EngageError) -> [WarplyCampaign]
    {
        try await context.perform(WarplyOperation.campaigns) {
            let language = language ?? self.language
            let generation = state.generation
            guard try await tokens.hasSession() else {
                return storeLoggedOutCampaigns(try await basicCampaigns(language: language, filters: filters), since: generation)
            }
            async let basicList = basicCampaigns(language: language, filters: filters)
            async let personalizedList = personalizedCampaignList(language: language, filters: filters)
            async let availabilityList = couponAvailability()
            let personalized: [WarplyCampaign]
            do {
                personalized = try await personalizedList
            } catch let error as EngageError where Self.isDeadSession(error) {
                logger.notice(
                    "Warply session is no longer valid; showing the logged-out campaigns", metadata: ["error": "\(error.code)"])
                // Ending the dead session cleared the state: the logged-out list belongs to the new one.
                let loggedOut = state.generation
                return storeLoggedOutCampaigns(try await basicList, since: loggedOut)
            }
            let result = WarplyCampaignProcessing.process(
                basic: try await basicList, personalized: personalized, availability: try await availabilityList)
            state.setCarouselList(result.carousel, since: generation)
            state.setCampaignList(result.all.filter { $0.couponAvailability != 0 && !$0.isCarousel }, since: generation)
            return result.campaigns
        }
    }

    /// The logged-out flow's result: every basic campaign, sorted, stored as the campaign list unless
    /// the state was cleared since `generation`.
    private func storeLoggedOutCampaigns(_ basic: [WarplyCampaign], since generation: UInt64) -> [WarplyCampaign] {
        let sorted = WarplyCampaignProcessing.sorted(basic)
        state.setCampaignList(sorted, since: generation)
        return sorted
    }

    /// Whether `error`, from a bearer request, means the stored session cannot be used: no session,
    /// a rejected refresh, or a request refused as unauthorized after the one renewal.
    static func isDeadSession(_ error: EngageError) -> Bool {
        error.code == .sessionExpired || error.code == .unauthorized
    }

    /// The user's personalized campaigns alone, sorted by `sorting`. Needs a logged-in user.
    public func personalizedCampaigns(
        language: WarplyLanguage? = nil, filters: [String: JSONValue] = [:]
    ) async throws(EngageError) -> [WarplyCampaign] {
        try await context.perform(WarplyOperation.campaignsPersonalized) {
            WarplyCampaignProcessing.sorted(try await personalizedCampaignList(language: language ?? self.language, filters: filters))
        }
    }

    /// The campaign of a session (`GET /api/session/{sessionUuid}`).
    public func singleCampaign(sessionUUID: String) async throws(EngageError) -> WarplyCampaign {
        try await context.perform(WarplyOperation.singleCampaign) {
            try WarplyInput.identifier(sessionUUID, name: "sessionUUID", limit: 128)
            let campaign = try await client.result(
                WarplyCampaign.self, .get, WarplyWire.path(.session, appUUID: configuration.appUUID, sessionUUID: sessionUUID),
                credentials: .signed
            )
            guard let campaign else {
                throw EngageError(.decoding, "Warply's session answer has no campaign.", providerID: .warply)
            }
            return campaign
        }
    }

    /// The supermarket campaign (`nil` when there is none), also kept in `state.supermarketCampaign`.
    public func supermarketCampaign(language: WarplyLanguage? = nil) async throws(EngageError) -> WarplyCampaign? {
        try await context.perform(WarplyOperation.supermarketCampaign) {
            let generation = state.generation
            let campaigns =
                try await client.context(
                    [WarplyCampaign].self,
                    WarplyContextRequest(
                        root: WarplyWire.Root.campaigns, action: WarplyWire.Action.retrieveSupermarket,
                        fields: [
                            "language": .string((language ?? self.language).rawValue)
                        ]),
                    section: WarplyWire.Section.campaigning, credentials: .signed
                ) ?? []
            let campaign = WarplyCampaignProcessing.sorted(campaigns).first
            state.setSupermarketCampaign(campaign, since: generation)
            return campaign
        }
    }

    // MARK: Web views

    /// The URL a campaign's web view opens: its `index_url` with escaped slashes cleaned and the
    /// non-secret placeholders filled as the seed does: `{appUUID}`, `{web_id}` (the configured
    /// `merchantID`, not the device registration's `web_id`), `{language}` and `{sessionUuid}`;
    /// `{api_key}` becomes empty. Tokens are never put in a URL: pass
    /// ``campaignParameters(for:isMap:)`` to the page instead.
    ///
    /// Local: publishes no operation event (it is a computation, not a Warply operation).
    public func campaignURL(for campaign: WarplyCampaign) async throws(EngageError) -> URL? {
        guard let text = campaign.indexURL ?? campaign.campaignURL else { return nil }
        let filled = WarplyPlaceholders.fill(
            WarplyWire.cleanEscapedURL(text),
            values: [
                "appUUID": configuration.appUUID, "web_id": configuration.merchantID, "language": language.rawValue,
                "sessionUuid": campaign.sessionUUID, "api_key": "",
            ])
        return URL(string: filled)
    }

    /// The parameters a campaign's web page expects (the seed's `constructCampaignParams`): the
    /// session, the app and the device; `web_id` is the configured `merchantID`, as in the seed. They
    /// contain the tokens: hand them only to the page.
    ///
    /// Local: publishes no operation event (it is a computation, not a Warply operation).
    public func campaignParameters(for campaign: WarplyCampaign, isMap: Bool = false) async throws(EngageError) -> WarplyCampaignParameters
    {
        let current = try await context.local { try await tokens.currentTokens() }
        let credentials = try await context.local { try session.clientCredentials() }
        return WarplyCampaignParameters(values: [
            "web_id": configuration.merchantID,
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
    ///
    /// Local: publishes no operation event (it is a computation, not a Warply operation).
    public func ccmsURL(for offer: WarplyContextualOffer) async throws(EngageError) -> URL? {
        guard let sessionID = offer.sessionID, let campaign = state.allCampaignList.first(where: { $0.sessionUUID == sessionID }) else {
            return nil
        }
        return try await campaignURL(for: campaign)
    }

    // MARK: Requests

    func basicCampaigns(language: WarplyLanguage, filters: [String: JSONValue]) async throws -> [WarplyCampaign] {
        try await campaignList(
            action: WarplyWire.Action.retrieve, language: language, filters: filters, credentials: .signed, operation: .campaigns)
    }

    func personalizedCampaignList(language: WarplyLanguage, filters: [String: JSONValue]) async throws -> [WarplyCampaign] {
        try await campaignList(
            action: WarplyWire.Action.retrievePersonalized, language: language, filters: filters, credentials: .bearer,
            operation: .campaignsPersonalized
        )
    }

    private func campaignList(
        action: String, language: WarplyLanguage, filters: [String: JSONValue], credentials: WarplyClient.Credentials,
        operation: WarplyOperation
    ) async throws -> [WarplyCampaign] {
        try await client.context(
            [WarplyCampaign].self,
            WarplyContextRequest(
                root: WarplyWire.Root.campaigns, action: action,
                fields: [
                    "language": .string(language.rawValue), "filters": .object(filters),
                ]),
            section: WarplyWire.Section.campaigning, credentials: credentials, operation: operation
        ) ?? []
    }

    func couponAvailability() async throws -> [WarplyCouponAvailability] {
        try await client.context(
            [WarplyCouponAvailability].self,
            WarplyContextRequest(root: WarplyWire.Root.coupon, action: WarplyWire.Action.availability),
            section: WarplyWire.Section.coupon, credentials: .signed, operation: .availableCoupons
        ) ?? []
    }
}
