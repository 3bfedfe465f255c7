@_spi(EngageProvider) import EngageCore
import Foundation
import Logging

extension ExploreProvider {
    /// One page of the merchants matching `query` (one entry per merchant, at its closest location
    /// when the query has a centre), with the total count. PiggyCards-only merchants are hidden per
    /// ``hidesPiggyCardsOnly``.
    ///
    /// - Throws: `.exploreDirectoryMissing` before the first sync; `.invalidInput` for a distance
    ///   sort without a centre.
    public func merchants(_ query: ExploreMerchantQuery) async throws(EngageError) -> Page<ExploreMerchant> {
        try await context.perform(ExploreOperation.merchants) {
            let directory = try await directory()
            let hides = hidesPiggyCardsOnly
            return try await ExploreBlockingWork.run { try directory.merchants(query, hidesPiggyCardsOnly: hides) }
        }
    }

    /// One merchant with its gift-card providers and best discount, shown at its closest location to
    /// `center` when given; `nil` for an unknown (or hidden) merchant.
    public func merchant(id merchantID: String, center: GeoPoint? = nil) async throws(EngageError) -> ExploreMerchant? {
        try await context.perform(ExploreOperation.merchant) { try await directoryMerchant(id: merchantID, center: center) }
    }

    /// The directory's merchant `merchantID`, `nil` when unknown or hidden (``hidesPiggyCardsOnly``).
    private func directoryMerchant(id merchantID: String, center: GeoPoint?) async throws -> ExploreMerchant? {
        let directory = try await directory()
        let hides = hidesPiggyCardsOnly
        return try await ExploreBlockingWork.run { try directory.merchant(id: merchantID, center: center, hidesPiggyCardsOnly: hides) }
    }

    /// One merchant with CTX's live view of it merged in (``ExploreMerchantDetails``): whether CTX
    /// sells its cards now, the amounts and the current discount, asked of CTX (`GET merchants/{id}`,
    /// no sign-in needed) when the directory lists a CTX offer and CTX gift cards are on. When CTX
    /// cannot be reached or refuses, the directory's values stand and ``ExploreMerchantDetails/liveDataError``
    /// says why; only the directory can make this throw. `nil` for an unknown (or hidden) merchant.
    ///
    /// - Throws: `.exploreDirectoryMissing` before the first sync; `.cancelled` when the caller cancels.
    public func merchantDetails(id merchantID: String, center: GeoPoint? = nil) async throws(EngageError) -> ExploreMerchantDetails? {
        try await context.perform(ExploreOperation.merchantDetails) {
            guard let merchant = try await directoryMerchant(id: merchantID, center: center) else { return nil }
            guard let ctxID = ExploreMerchantDetails.ctxID(of: merchant) else {
                return ExploreMerchantDetails(directory: merchant, liveData: .notSoldByCTX)
            }
            guard let ctx = giftCardSources[.ctx] as? CTXGiftCards else {
                return ExploreMerchantDetails(directory: merchant, liveData: .ctxOff)
            }
            do {
                return ExploreMerchantDetails(directory: merchant, ctx: try await ctx.client.merchant(id: ctxID))
            } catch {
                let error = EngageError.wrapping(error, providerID: .explore)
                if error.code == .cancelled || Task.isCancelled { throw error }
                context.logger.notice(
                    "CTX's view of a merchant is unavailable; showing the directory's", metadata: ["error": "\(error.code)"])
                return ExploreMerchantDetails(directory: merchant, liveData: .unavailable, error: error)
            }
        }
    }

    /// All locations of one merchant, closest first when `center` is given (within `radius` if given).
    public func locations(
        ofMerchant merchantID: String, center: GeoPoint? = nil, radius: ExploreRadius? = nil
    ) async throws(EngageError) -> [ExploreLocation] {
        try await context.perform(ExploreOperation.locations) {
            let directory = try await directory()
            return try await ExploreBlockingWork.run { try directory.locations(ofMerchant: merchantID, center: center, radius: radius) }
        }
    }

    /// One page of the ATMs matching `query`.
    public func atms(_ query: ExploreATMQuery) async throws(EngageError) -> Page<ExploreATM> {
        try await context.perform(ExploreOperation.atms) {
            let directory = try await directory()
            return try await ExploreBlockingWork.run { try directory.atms(query) }
        }
    }

    /// The territories (states, regions) the directory lists, sorted by name.
    public func territories() async throws(EngageError) -> [String] {
        try await context.perform(ExploreOperation.territories) {
            let directory = try await directory()
            return try await ExploreBlockingWork.run { try directory.territories() }
        }
    }

    /// Merchants for `engage.merchants(near:)`: the directory's merchants sorted by distance from the
    /// query's centre (by name without one), within its radius, matching its text.
    public func merchants(_ query: MerchantQuery) async throws -> Page<MerchantSummary> {
        var explore = ExploreMerchantQuery(text: query.text, page: query.page)
        if let center = query.center {
            explore.center = center
            explore.radius = query.radiusMeters.map { ExploreRadius(meters: $0) }
            explore.sort = .distance
        }
        let page = try await merchants(explore)
        return Page(items: page.items.map(\.summary), offset: page.offset, totalCount: page.totalCount)
    }
}
