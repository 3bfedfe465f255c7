@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes

extension PiggyCardsClient {
    /// `GET brands/{country}`.
    package func brands(country: String) async throws -> [PiggyCardsBrand] {
        try await ensureSession()
        return try await client.piggyCardsPayload(
            [PiggyCardsBrand].self, APIClient.path("brands", GiftCardInput.identifier(country, "country")), operation: .brands
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

    /// `GET exchange-rate?currency=`: the price of one DASH in `currency`.
    package func exchangeRate(currency: String = "USD") async throws -> Decimal {
        try await ensureSession()
        let rate = try await client.piggyCardsPayload(
            PiggyCardsWire.ExchangeRate.self, "exchange-rate", query: [("currency", currency)], operation: .exchangeRate
        )
        guard let value = GiftCardMoney.parse(rate.rate), value > 0 else {
            throw EngageError(.decoding, "PiggyCards sent an exchange rate that is not a positive decimal.", providerID: .explore)
        }
        return value
    }
}
