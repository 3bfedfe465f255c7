@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes

extension PiggyCardsClient {
    /// `GET brands/{country}`: a bare JSON array of `{id, name}`.
    package func brands(country: String) async throws -> [PiggyCardsBrand] {
        try await ensureSession()
        return try await client.json(
            [PiggyCardsBrand].self, .get, APIClient.path("brands", GiftCardInput.identifier(country, "country")),
            options: PiggyCardsOperation.brands.options(authorization: .required)
        )
    }

    /// `GET giftcards/{country}?brandId=`: the brand's products, with their price type and
    /// denominations (`"25"` or `"25,50,100"`, or a range) and discount in basis points.
    package func giftCards(country: String, brandID: String) async throws -> [PiggyCardsProduct] {
        try await ensureSession()
        return try await client.piggyCardsPayload(
            [PiggyCardsProduct].self, APIClient.path("giftcards", GiftCardInput.identifier(country, "country")),
            query: [("brandId", GiftCardInput.identifier(brandID, "brand id"))], operation: .giftCards
        )
    }

    /// `GET exchange-rate?currency=`: a bare `{currency, exchange_rate, date_modified}`; a rate that is
    /// not above zero is refused.
    package func exchangeRate(currency: String = "USD") async throws -> PiggyCardsExchangeRate {
        try await ensureSession()
        let rate = try await client.json(
            PiggyCardsWire.ExchangeRate.self, .get, "exchange-rate", query: [("currency", GiftCardInput.identifier(currency, "currency"))],
            options: PiggyCardsOperation.exchangeRate.options(authorization: .required)
        )
        guard rate.dashPerUnit > 0 else {
            throw EngageError(.decoding, "PiggyCards sent an exchange rate that is not above zero.", providerID: .explore)
        }
        return PiggyCardsExchangeRate(currency: rate.currency, dashPerUnit: rate.dashPerUnit, modified: rate.dateModified)
    }
}
