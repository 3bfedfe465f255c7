#if PiggyCards
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
    @_spi(EngageProvider) @testable import EngageCore
    @_spi(EngageProvider) @testable import EngageExplore
    import Foundation
    import EngageTestTraits
    import Testing

    extension GiftCardSuites {
        @Suite("PiggyCards products and quotes (unit)", .bounded)
        struct PiggyCardsDecodingTests {
            private func product(_ json: String) throws -> PiggyCardsProduct {
                try JSONDecoder().decode(PiggyCardsProduct.self, from: Data(json.utf8))
            }

            @Test("numbers or strings, a single or a listed denomination, percent to basis points")
            func lenientProduct() throws {
                let fixed = try product(
                    #"{"id":2626,"name":"Fuel","price_type":"fixed","currency":"USD","discount_percentage":"3.25","denomination":"25","quantity":"0","brand_id":13}"#
                )
                #expect(fixed.id == "2626" && fixed.brandID == "13")
                #expect(fixed.discountBasisPoints == 325)
                #expect(fixed.denominations == .fixed([25]))
                #expect(fixed.quantity == 0)
                let range = try product(
                    #"{"id":"1","name":"R","price_type":"range","discount_percentage":15.0,"min_denomination":"10","max_denomination":500}"#
                )
                #expect(range.discountBasisPoints == 1_500)
                #expect(range.denominations == .range(minimum: 10, maximum: 500))
                let option = try product(#"{"id":"2","name":"O","price_type":"option","denomination":"25, 50,100"}"#)
                #expect(option.denominations == .fixed([25, 50, 100]))
                #expect(throws: DecodingError.self) { try product(#"{"id":"3","name":"X","price_type":"auction"}"#) }
                #expect(throws: DecodingError.self) { try product(#"{"id":"3","name":"X","price_type":"fixed","denomination":"25,abc"}"#) }
            }

            /// The Dash wallet takes its 1.5 % service fee off the discount, in percentage points
            /// (`max(0, discount − 1.5) / 100`, DashSpendPayViewModel.swift line 509, and the Android
            /// wallet's `(discountPercentage − 1.5) / 100`): a 15 % card of $100 costs $86.50. The SDK
            /// added 1.5 % of the discounted price on top ($86.28).
            @Test("the quote takes the wallet's 1.5 points off the discount, rounding half away from zero, in cents")
            func quote() throws {
                let product = PiggyCardsProduct(
                    id: "p", name: "P", priceType: .range, discountBasisPoints: 1_000, minDenomination: 1, maxDenomination: 2_500)
                let quote = try PiggyCardsQuote(product: product, denomination: try #require(Decimal(string: "33.33")))
                #expect(quote.faceValueMinorUnits == 3_333)
                #expect(quote.discountMinorUnits == 333)  // 10 % of 33.33 = 3.333
                #expect(quote.serviceFeeMinorUnits == 50)  // 3.33 − 8.5 % of 33.33 (2.833 → 2.83)
                #expect(quote.totalMinorUnits == 3_050)  // 33.33 − 2.83
                #expect(quote.total == Decimal(string: "30.5"))
                let fifteen = PiggyCardsProduct(
                    id: "p", name: "P", priceType: .range, discountBasisPoints: 1_500, minDenomination: 1, maxDenomination: 2_500)
                #expect(try PiggyCardsQuote(product: fifteen, denomination: 100).total == Decimal(string: "86.5"))
                let small = PiggyCardsProduct(
                    id: "p", name: "P", priceType: .range, discountBasisPoints: 100, minDenomination: 1, maxDenomination: 2_500)
                let noDiscount = try PiggyCardsQuote(product: small, denomination: 100)
                #expect(noDiscount.totalMinorUnits == 10_000, "a discount under 1.5 points leaves none, never a surcharge")
                #expect(noDiscount.serviceFeeMinorUnits == 100)
                #expect(throws: EngageError.self) { try PiggyCardsQuote(product: product, denomination: 10, quantity: 0) }
            }

            @Test(
                "a discount outside 0 to 100 % is refused: when decoded, and when a quote is asked for",
                arguments: [("150", 15_000), ("-5", -500), ("100.01", 10_001)]
            )
            func discountOutOfRange(percent: String, basisPoints: Int) throws {
                #expect(throws: DecodingError.self) {
                    try product(
                        #"{"id":"1","name":"R","price_type":"range","discount_percentage":\#(percent),"min_denomination":1,"max_denomination":500}"#
                    )
                }
                let custom = PiggyCardsProduct(
                    id: "p", name: "P", priceType: .range, discountBasisPoints: basisPoints, minDenomination: 1, maxDenomination: 2_500)
                let error = #expect(throws: EngageError.self) { try PiggyCardsQuote(product: custom, denomination: 100) }
                #expect(error?.code == .invalidInput)
                // An app's own product with an absurd discount is refused too, not an overflow.
                let absurd = PiggyCardsProduct(
                    id: "p", name: "P", priceType: .range, discountBasisPoints: .max, minDenomination: 1, maxDenomination: 2_500)
                #expect(throws: EngageError.self) { try PiggyCardsQuote(product: absurd, denomination: 100) }
                let free = PiggyCardsProduct(
                    id: "p", name: "P", priceType: .range, discountBasisPoints: 10_000, minDenomination: 1, maxDenomination: 2_500)
                // 100 % off less the wallet's 1.5 points: $1.50 of $100.
                #expect(try PiggyCardsQuote(product: free, denomination: 100).totalMinorUnits == 150)
            }
        }
    }
#endif
