@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes

extension CTXClient {
    /// `GET merchants/{id}`: the merchant with its discount and denominations, read from either
    /// spelling the API uses (see ``CTXMerchant``). Sent with the session when there is one.
    package func merchant(id: String) async throws -> CTXMerchant {
        let id = try GiftCardInput.identifier(id, "merchant id")
        return try await client.json(
            CTXMerchant.self, .get, APIClient.path(CTXWire.Path.merchants, id),
            options: CTXOperation.merchant.options(authorization: .ifAvailable)
        )
    }
}
