@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import Engage
import Foundation

// snippet.deals-capability
extension ProviderCapability {
    /// Discounted deals: providers adopting ``DealsProviding``; `engage.deals()` fans out to them.
    public static let deals: Self = "acme.deals"
}

/// A provider of deals: any provider, Acme's or another's, that adopts it is reached by `engage.deals()`.
public protocol DealsProviding: Sendable {
    /// Up to `limit` current deals.
    func deals(limit: Int) async throws -> [AcmeDeal]
}

extension Engage {
    /// Deals from every running provider with the deals capability, with each provider's failure
    /// reported apart.
    public func deals(limit: Int = 20) async throws(EngageError) -> AggregateResult<AcmeDeal> {
        try await fanOut(.deals, operation: AcmeOperation.deals) { (provider: any DealsProviding) in
            try await provider.deals(limit: limit)
        }
    }
}
// snippet.end

/// A discount on one product.
public struct AcmeDeal: Codable, Sendable, Hashable, Identifiable {
    /// The deal's id, used to claim it.
    public var id: String
    /// What the deal is, ready to show.
    public var title: String
    /// The discount in percent (1...100).
    public var percentOff: Int
    /// The product it applies to.
    public var sku: String
    /// The provider the deal came from.
    public var providerID: ProviderID

    /// A deal.
    public init(id: String, title: String, percentOff: Int, sku: String, providerID: ProviderID) {
        self.id = id
        self.title = title
        self.percentOff = percentOff
        self.sku = sku
        self.providerID = providerID
    }
}

/// A claimed deal: the code to show at checkout.
public struct AcmeClaim: Codable, Sendable, Hashable {
    /// The claimed deal.
    public var dealID: String
    /// The checkout code.
    public var code: String
}

extension EngageError.Code {
    /// The deal was claimed already (Acme answers 409): claiming it again cannot succeed.
    public static let acmeAlreadyClaimed: Self = "acme.alreadyClaimed"
    /// The deal does not exist (any more).
    public static let acmeUnknownDeal: Self = "acme.unknownDeal"
}
