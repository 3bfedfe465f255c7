@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing
#if PiggyCards
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
#endif

/// The Explore provider's and its gift-card sources' public `Codable` values not covered by the
/// directory and configuration sweeps: hostile JSON decodes to a value or an error, never a trap.
@Suite("Hostile input: Explore and gift-card Codable values", .bounded)
struct ExploreHostileValueTests {
    @Test("locations, offers, sync state, vault cards and secrets, denominations, statuses and the directory's enumerations")
    func exploreValues() throws {
        var problems: [String] = []
        problems += try HostileJSON.problems(
            decoding: ExploreLocation(
                id: 42, latitude: -33.87, longitude: 151.21, distanceMeters: 12.5, addressLines: ["1 George St"], city: "Sydney",
                territory: "NSW", phone: "+61 2 0000 0000", googleMaps: "https://maps.example.com/?q=1", plusCode: "4RRH+"
            ),
            seed: 501
        )
        problems += try HostileJSON.problems(
            decoding: ExploreGiftCardOffer(
                provider: .ctx, savingsBasisPoints: 450, denominationsType: .minMax, redeemType: .barcode, sourceID: "m-1"),
            seed: 502
        )
        problems += try HostileJSON.problems(
            decoding: ExploreSyncState(
                timestamp: 1_763_700_000_000, checksum: String(repeating: "ab", count: 32),
                installedAt: Date(timeIntervalSince1970: 1_763_700_000),
                checkedAt: Date(timeIntervalSince1970: 1_763_700_100)
            ),
            seed: 503
        )
        let secrets = GiftCardSecrets(
            number: "6006491234", pin: "1234", claimCode: "CLAIM", claimPin: "99", barcodeURL: "https://b", redeemURL: "https://r")
        problems += try HostileJSON.problems(decoding: secrets, seed: 504)
        problems += try HostileJSON.problems(
            decoding: StoredGiftCard(
                provider: .piggyCards, id: "o-1", merchantID: "p-9", fiatAmount: Decimal(string: "25.50"), fiatCurrency: "USD",
                secrets: secrets,
                storedAt: Date(timeIntervalSince1970: 1_763_700_000)
            ),
            seed: 505
        )
        problems += try HostileJSON.problems(decoding: GiftCardDenominations.fixed([10, 25, 50]), seed: 506)
        problems += try HostileJSON.problems(decoding: GiftCardDenominations.range(minimum: 5, maximum: 500), seed: 507)
        problems += try HostileJSON.problems(decoding: ExploreGiftCardProviderID.ctx, seed: 508)
        problems += try HostileJSON.problems(decoding: CTXGiftCardStatus(rawValue: "fulfilled"), seed: 509)
        problems += try HostileJSON.problems(decoding: ExploreNetwork.testnet, seed: 510)
        problems += try HostileJSON.problems(decoding: ExploreTab.nearby, seed: 511)
        problems += try HostileJSON.problems(decoding: ExploreMerchantSort.distance, seed: 512)
        problems += try HostileJSON.problems(decoding: ExploreMerchantType.both, seed: 513)
        problems += try HostileJSON.problems(decoding: ExplorePaymentMethod.giftCard, seed: 514)
        problems += try HostileJSON.problems(decoding: ExploreRedeemType.online, seed: 515)
        problems += try HostileJSON.problems(decoding: ExploreATMType.buyAndSell, seed: 516)
        problems += try HostileJSON.problems(decoding: ExploreDenominationsType.fixed, seed: 517)
        #expect(problems.isEmpty, "\(problems)")
    }

    #if PiggyCards
        @Test("PiggyCards' brands, products, quotes, orders and statuses")
        func piggyCardsValues() throws {
            var problems: [String] = []
            let product = PiggyCardsProduct(
                id: "p-1", name: "Books", priceType: .range, discountBasisPoints: 1_500, minDenomination: 10, maxDenomination: 200,
                fee: 1, quantity: 5, brandID: "b-1"
            )
            let quote = try PiggyCardsQuote(product: product, denomination: 50, quantity: 2)
            problems += try HostileJSON.problems(decoding: PiggyCardsBrand(id: "b-1", name: "Books & Co", logo: "https://logo"), seed: 601)
            problems += try HostileJSON.problems(decoding: product, seed: 602)
            problems += try HostileJSON.problems(decoding: quote, seed: 603)
            problems += try HostileJSON.problems(
                decoding: PiggyCardsOrder(id: "o-1", payTo: "Xyz", payMessage: "dash:Xyz?amount=1", quote: quote), seed: 604)
            problems += try HostileJSON.problems(decoding: PiggyCardsOrderStatus(rawValue: "Complete"), seed: 605)
            problems += try HostileJSON.problems(decoding: PiggyCardsPriceType.fixed, seed: 606)
            #expect(problems.isEmpty, "\(problems)")
        }
    #endif
}
