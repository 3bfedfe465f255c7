@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
import Foundation
import EngageTestTraits
import Testing

extension GiftCardSuites {
    @Suite("Gift-card amounts and money arithmetic (unit)", .bounded)
    struct GiftCardAmountTests {
        private func decimal(_ text: String) throws -> Decimal { try #require(GiftCardMoney.parse(text)) }

        @Test(
            "a range accepts its bounds and whole cents between, refuses outside",
            arguments: [
                ("10", nil), ("500", nil), ("25.50", nil), ("9.99", GiftCardAmountViolation.Reason.belowMinimum), ("500.01", .aboveMaximum),
                ("0", .notWholeCents), ("12.345", .notWholeCents),
            ])
        func range(amount: String, expected: GiftCardAmountViolation.Reason?) throws {
            let range = GiftCardDenominations.range(minimum: 10, maximum: 500)
            #expect(range.violation(of: try decimal(amount)) == expected)
        }

        @Test("fixed values accept only themselves, whatever their written scale")
        func fixed() throws {
            let fixed = GiftCardDenominations.fixed([25, 50, 100])
            #expect(fixed.violation(of: try decimal("25.00")) == nil)
            #expect(fixed.violation(of: 50) == nil)
            #expect(fixed.violation(of: try decimal("25.50")) == .notOffered)
            #expect(fixed.violation(of: 75) == .notOffered)
            do {
                try fixed.validate(75)
                Issue.record("75 was accepted")
            } catch {
                #expect(error.code == .exploreGiftCardAmountInvalid)
                #expect(error.message.contains("fixed 25, 50, 100"))
                let violation = try #require(error.underlyingError as? GiftCardAmountViolation)
                #expect(violation.minimum == 25 && violation.maximum == 100)
            }
        }

        @Test(
            "strict decimal parsing",
            arguments: [
                ("25", "25"), ("25.50", "25.5"), (" 100 ", "100"), ("0.01", "0.01"),
            ])
        func parses(text: String, plain: String) throws {
            #expect(GiftCardMoney.plainString(try decimal(text)) == plain)
        }

        @Test("garbage is not an amount", arguments: ["25abc", "1e3", "25,50", "", ".5", "5.", "--1", "NaN"])
        func refusesGarbage(text: String) {
            #expect(GiftCardMoney.parse(text) == nil)
        }

        @Test("minor units and wire strings are exact")
        func minorUnits() throws {
            #expect(GiftCardMoney.minorUnits(of: try decimal("25.50")) == 2_550)
            #expect(GiftCardMoney.minorUnits(of: try decimal("0.1")) == 10)
            #expect(GiftCardMoney.minorUnits(of: try decimal("0.001")) == nil)
            #expect(GiftCardMoney.wireString(try decimal("25.5")) == "25.50")
            #expect(GiftCardMoney.wireString(minorUnits: 5) == "0.05")
            #expect(GiftCardMoney.wireString(minorUnits: 250_000) == "2500.00")
        }

        @Test("basis points round half away from zero in integer arithmetic")
        func basisPoints() {
            #expect(GiftCardMoney.percentage(of: 10_000, basisPoints: 150) == 150)  // 1.5 % of 100.00 = 1.50
            #expect(GiftCardMoney.percentage(of: 2_550, basisPoints: 150) == 38)  // 38.25 → 38
            #expect(GiftCardMoney.percentage(of: 2_500, basisPoints: 150) == 38)  // 37.5 → 38
            #expect(GiftCardMoney.percentage(of: 100, basisPoints: 1_500) == 15)
            #expect(GiftCardMoney.percentage(of: 1_000, basisPoints: -150) == -15)
        }
    }
}
