@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import Engage
import Foundation

/// Acme's deals as an EngageKit provider: offers for the facade, deals through its own capability,
/// and claiming a deal. Requests carry the configured API key as a bearer token.
public final class AcmeProvider: EngageProvider, DealsProviding {
    /// `acme`, with the offers and deals capabilities.
    public static let descriptor = ProviderDescriptor(
        id: "acme", displayName: "Acme deals", version: "1.0.0"
    )

    let context: ProviderContext
    private let client: APIClient
    private let pageSize: Int

    /// The wire shapes: the backend's, not the app's.
    private struct DealsAnswer: Decodable {
        struct Deal: Decodable { var id: String, title: String, percentOff: Int, sku: String }
        var deals: [Deal]
    }

    private struct ClaimAnswer: Decodable { var code: String }

    /// A provider for `configuration`'s backend.
    @_spi(EngageProvider) public init(configuration: AcmeConfiguration, context: ProviderContext) async throws {
        self.context = context
        pageSize = configuration.pageSize
        // The backend's error bodies become this provider's errors; everything else is the core's.
        let policy = ResponsePolicy { answer in
            switch answer.response.status {
            case 409: .fail(EngageError(.acmeAlreadyClaimed, "This deal was claimed already.", providerID: "acme", httpStatus: 409))
            case 404: .fail(EngageError(.acmeUnknownDeal, "Acme knows no such deal.", providerID: "acme", httpStatus: 404))
            default: .accept
            }
        }
        client = try context.makeAPIClient(
            baseURL: configuration.baseURL, authorizer: StaticBearerAuthorizer(key: configuration.apiKey), policy: policy
        )
    }

    /// Up to `limit` current deals (at most the configured page size).
    public func deals(limit: Int) async throws(EngageError) -> [AcmeDeal] {
        try await context.perform(AcmeOperation.deals) { try await fetchDeals(limit: limit) }
    }

    /// The deals as offers with a "-N %" badge, for `engage.offers()`; `query.productIDs` filters them.
    public func offers(_ query: OfferQuery) async throws(EngageError) -> [Offer] {
        try await context.perform(AcmeOperation.offers) {
            try await fetchDeals(limit: pageSize).filter { query.productIDs.isEmpty || query.productIDs.contains($0.sku) }.map { deal in
                Offer(
                    id: deal.id, providerID: "acme", kind: .promotion, title: LocalizedText(deal.title), productID: deal.sku,
                    badge: Offer.Badge(text: "-\(deal.percentOff) %")
                )
            }
        }
    }

    private func fetchDeals(limit: Int) async throws -> [AcmeDeal] {
        guard limit > 0 else { throw EngageError(.invalidInput, "limit must be positive (got \(limit)).", providerID: "acme") }
        let answer = try await client.json(
            DealsAnswer.self, .get, "/deals", query: [("limit", String(min(limit, pageSize)))],
            options: RequestOptions(authorization: .required)
        )
        return answer.deals.map { AcmeDeal(id: $0.id, title: $0.title, percentOff: $0.percentOff, sku: $0.sku, providerID: "acme") }
    }

    /// Claims a deal and returns its checkout code. Claiming is not repeated by the SDK: a lost answer
    /// is an error, and a second claim is ``EngageError/Code/acmeAlreadyClaimed``.
    public func claim(dealID: String) async throws(EngageError) -> AcmeClaim {
        try await context.perform(AcmeOperation.claim) {
            let answer = try await client.json(
                ClaimAnswer.self, .post, APIClient.path("deals", dealID, "claim"), options: RequestOptions(authorization: .required)
            )
            return AcmeClaim(dealID: dealID, code: answer.code)
        }
    }
}

// The capabilities the facade fans out to: the provider-author surface.
@_spi(EngageProvider) extension AcmeProvider: OffersProviding {}

/// Acme's operations, declared once: the name each one's events and requests carry (`deals` is also
/// the facade's `engage.deals()` fan-out), and whether its requests may be resent.
enum AcmeOperation: String, ProviderOperation {
    case deals
    case offers
    case claim

    /// Reads may be repeated; a claim may not (a lost answer would otherwise claim twice).
    var isRepeatable: Bool { self != .claim }
}
