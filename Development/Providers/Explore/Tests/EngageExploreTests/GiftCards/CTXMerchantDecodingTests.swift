@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
import Foundation
import EngageTestTraits
import Testing

extension GiftCardSuites {
    @Suite("CTX merchant decoding (unit)", .bounded)
    struct CTXMerchantDecodingTests {
        private func merchant(_ json: String) throws -> CTXMerchant {
            try JSONDecoder().decode(CTXMerchant.self, from: Data(json.utf8))
        }

        @Test("the current spelling with numbers")
        func current() throws {
            let value = try merchant(
                #"""
                {"id":"7b2e0c1a-0000-4000-8000-000000000001","name":"Grocer","logoUrl":"https://x/l.png","enabled":true,
                 "savingsPercentage":500,"denominationsType":"min-max","denominations":[10,500],"cachedLocationCount":12}
                """#)
            #expect(value.savingsBasisPoints == 500)
            #expect(value.denominations == .range(minimum: 10, maximum: 500))
            #expect(value.locationCount == 12)
            #expect(value.isEnabled)
        }

        @Test("the legacy spelling with strings")
        func legacy() throws {
            let value = try merchant(
                #"""
                {"id":"m-2","name":"Fuel","enabled":false,"userDiscount":"300","denominationType":"Fixed",
                 "denominations":["25","50.00","100"],"locationCount":"4"}
                """#)
            #expect(value.savingsBasisPoints == 300)
            #expect(value.denominationsType == .fixed)
            #expect(value.denominations == .fixed([25, 50, 100]))
            #expect(value.locationCount == 4)
            #expect(value.isEnabled == false)
        }

        @Test("a missing type with values reads as fixed; no values means unknown denominations; a numeric id is kept as text")
        func partial() throws {
            let value = try merchant(#"{"id":42,"name":"X","denominations":[25.5, "30"]}"#)
            #expect(value.id == "42")
            #expect(value.denominations == .fixed([Decimal(string: "25.5") ?? 0, 30]))
            #expect(try merchant(#"{"id":"y","name":"Y"}"#).denominations == nil)
        }

        @Test("hostile values fail with the field's path instead of being guessed")
        func hostile() {
            #expect(throws: DecodingError.self) { try merchant(#"{"id":"z","name":"Z","savingsPercentage":"5%"}"#) }
            #expect(throws: DecodingError.self) { try merchant(#"{"id":"z","name":"Z","denominations":["25","lots"]}"#) }
            #expect(throws: DecodingError.self) { try merchant(#"{"id":"z","name":"Z","cachedLocationCount":1.5}"#) }
            #expect(throws: DecodingError.self) { try merchant(#"{"id":"z","name":"Z","denominations":{"min":1}}"#) }
        }

        @Test("encoding writes the current spelling and reads back equal")
        func roundTrip() throws {
            let original = CTXMerchant(
                id: "m", name: "M", savingsBasisPoints: -150, denominationsType: .minMax, denominationValues: [5, 200], locationCount: 3)
            let data = try JSONEncoder().encode(original)
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("savingsPercentage") && text.contains("denominationsType") && text.contains("cachedLocationCount"))
            #expect(try JSONDecoder().decode(CTXMerchant.self, from: data) == original)
        }
    }
}
