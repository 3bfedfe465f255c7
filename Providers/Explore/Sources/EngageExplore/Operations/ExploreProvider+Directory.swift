@_spi(EngageProvider) import EngageCore
import Foundation

extension ExploreProvider {
    /// One page of the merchants matching `query` (one entry per merchant, at its closest location
    /// when the query has a centre), with the total count. PiggyCards-only merchants are hidden per
    /// ``hidesPiggyCardsOnly``.
    ///
    /// - Throws: `.exploreDirectoryMissing` before the first sync; `.invalidInput` for a distance
    ///   sort without a centre.
    public func merchants(_ query: ExploreMerchantQuery) async throws(EngageError) -> Page<ExploreMerchant> {
        try await context.perform("merchants") {
            let directory = try await directory()
            let hides = hidesPiggyCardsOnly
            return try await ExploreBlockingWork.run { try directory.merchants(query, hidesPiggyCardsOnly: hides) }
        }
    }

    /// One merchant with its gift-card providers and best discount, shown at its closest location to
    /// `center` when given; `nil` for an unknown (or hidden) merchant.
    public func merchant(id merchantID: String, center: GeoPoint? = nil) async throws(EngageError) -> ExploreMerchant? {
        try await context.perform("merchant") {
            let directory = try await directory()
            let hides = hidesPiggyCardsOnly
            return try await ExploreBlockingWork.run { try directory.merchant(id: merchantID, center: center, hidesPiggyCardsOnly: hides) }
        }
    }

    /// All locations of one merchant, closest first when `center` is given (within `radius` if given).
    public func locations(
        ofMerchant merchantID: String, center: GeoPoint? = nil, radius: ExploreRadius? = nil
    ) async throws(EngageError) -> [ExploreLocation] {
        try await context.perform("locations") {
            let directory = try await directory()
            return try await ExploreBlockingWork.run { try directory.locations(ofMerchant: merchantID, center: center, radius: radius) }
        }
    }

    /// One page of the ATMs matching `query`.
    public func atms(_ query: ExploreATMQuery) async throws(EngageError) -> Page<ExploreATM> {
        try await context.perform("atms") {
            let directory = try await directory()
            return try await ExploreBlockingWork.run { try directory.atms(query) }
        }
    }

    /// The territories (states, regions) the directory lists, sorted by name.
    public func territories() async throws(EngageError) -> [String] {
        try await context.perform("territories") {
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
