@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import ExploreEmulator
import Foundation
import HTTPTypes
import Testing

/// CTX's answers as the Dash wallet's official client reads them, recorded in
/// `Development/Providers/Explore/Tests/Fixtures/CTX` (each file's source is in its README): the client's types
/// decode them to the right values, and the emulator answers with the same keys and JSON types.
@Suite("CTX: the recorded official answers decode, and the emulator answers in their shape", .bounded)
struct CTXRecordedAnswerTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/CTX")

    static func recorded(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A card's amounts and merchant come from `paymentFiatAmount`, `cardFiatAmount`,
    /// `paymentCryptoAmount` and `merchantName`; the client read `fiatAmount`, `cryptoAmount` and
    /// `merchantId`, which CTX does not send, and lost all of them.
    @Test("an unpaid card: what is paid, the card's value, the Dash amount and the merchant's name")
    func unpaidCard() throws {
        let card = try JSONDecoder().decode(CTXGiftCard.self, from: Self.recorded("gift-card-unpaid.json"))
        #expect(card.id == "8c1b4d1e-5b7a-4f5e-9a0c-2f4e6d8b1a3c" && card.status == .unpaid)
        #expect(card.paymentID == "b3f1c2d4e5a6978812345678")
        #expect(card.paymentURLs?["DASH.DASH"]?.hasPrefix("dash:") == true)
        #expect(card.fiatAmount == Decimal(string: "21.25") && card.fiatCurrency == "USD")
        #expect(card.cardFiatAmount == 25 && card.cardFiatCurrency == "USD")
        #expect(card.cryptoAmount == Decimal(string: "0.8155") && card.cryptoCurrency == "DASH")
        #expect(card.merchantName == "Corner Grocer")
        #expect(card.merchantID == nil, "CTX does not send the merchant's id")
        #expect(card.secrets.isEmpty, "nulls are no secrets")
    }

    @Test("a fulfilled card: number, PIN, barcode, redeem link and its challenge, all kept secret")
    func fulfilledCard() throws {
        let card = try JSONDecoder().decode(CTXGiftCard.self, from: Self.recorded("gift-card-fulfilled.json"))
        #expect(card.status == .fulfilled && card.status.isTerminal)
        #expect(card.secrets.number == "6006 4912 3456 7890" && card.secrets.pin == "8421")
        #expect(card.secrets.barcodeURL == "https://spend.ctx.com/barcodes/6006491234567890.png")
        #expect(card.secrets.redeemURL == "https://spend.ctx.com/redeem/8c1b4d1e" && card.secrets.redeemURLChallenge == "3371")
        for secret in ["6006 4912", "8421", "3371", "redeem/8c1b"] {
            #expect(!"\(card)".contains(secret) && !String(reflecting: card).contains(secret))
        }
        // Written back, it reads the same (apps may keep cards as JSON).
        #expect(try JSONDecoder().decode(CTXGiftCard.self, from: JSONEncoder().encode(card)) == card)
    }

    @Test("GET gift-cards?txid= answers one card object, not a list")
    func cardByTransaction() throws {
        let data = try Self.recorded("gift-card-by-txid.json")
        let card = try JSONDecoder().decode(CTXGiftCard.self, from: data)
        #expect(card.status == .paid && card.merchantName == "Blue Fuel" && card.cardFiatAmount == 50)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CTXGiftCard].self, from: data) }
    }

    @Test("a merchant in production's spelling and in staging's (userDiscount, locationCount, denominationValues)")
    func merchantSpellings() throws {
        let production = try JSONDecoder().decode(CTXMerchant.self, from: Self.recorded("merchant-production.json"))
        #expect(production.savingsBasisPoints == 1_500 && production.savingsPercent == 15)
        #expect(production.denominations == .range(minimum: 10, maximum: 500))
        #expect(production.locationCount == 12 && production.isEnabled)
        #expect(production.logoURL == "https://spend.ctx.com/logos/corner-grocer.png")
        let staging = try JSONDecoder().decode(CTXMerchant.self, from: Self.recorded("merchant-staging.json"))
        #expect(staging.savingsBasisPoints == 300)
        #expect(staging.denominations == .fixed([25, 50, 100]), "denominationValues, when denominations is absent")
        #expect(staging.locationCount == 4 && staging.logoURL == nil)
    }

    @Test("the token answer and the error body")
    func tokensAndErrors() throws {
        let tokens = try JSONDecoder().decode(CTXWire.TokenAnswer.self, from: Self.recorded("token-answer.json"))
        #expect(tokens.accessToken?.hasPrefix("eyJ") == true && tokens.refreshToken?.hasPrefix("eyJ") == true)
        let error = try JSONDecoder().decode(CTXWire.ErrorBody.self, from: Self.recorded("error-above-threshold.json"))
        #expect(error.summary == "Invalid amount; fiatAmount: above threshold")
    }

    /// Every key of `answer` is one of `recorded`'s keys, with the same JSON type (a recorded `null`
    /// matches any type); `required` keys are present.
    static func expectShape(
        _ answer: [String: Any], like recorded: [String: Any], required: [String], _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (key, value) in answer {
            guard let expected = recorded[key] else {
                Issue.record("\(label): the emulator sends \(key), which CTX does not", sourceLocation: sourceLocation)
                continue
            }
            let (got, want) = (JSONShape.kind(value), JSONShape.kind(expected))
            #expect(want == "null" || got == want, "\(label).\(key): \(got), CTX sends \(want)", sourceLocation: sourceLocation)
        }
        for key in required {
            #expect(answer[key] != nil, "\(label): \(key) is missing", sourceLocation: sourceLocation)
        }
    }

    @Test("the emulator's cards and merchants have the recorded answers' keys and JSON types")
    func emulatorAnswersInTheRecordedShape() async throws {
        let harness = try await CTXHarness(configuration: .init(fulfillmentDelay: .zero, clientID: CTXHarness.clientID))
        try await harness.signIn()
        let token = try #require(try await harness.client.tokens.currentTokens()?.accessToken)
        func get(_ path: String) async throws -> [String: Any] {
            var head = HTTPRequest(
                method: .get, scheme: "http", authority: "127.0.0.1:\(harness.baseURL.port ?? 0)", path: harness.baseURL.path + path)
            head.headerFields[.authorization] = "Bearer \(token)"
            if let clientID = HTTPField.Name("X-Client-Id") { head.headerFields[clientID] = CTXHarness.clientID }
            let response = try await URLSessionTransport().send(HTTPRequestMessage(head: head))
            #expect(response.status == 200, "\(path)")
            return try Self.object(response.body)
        }
        let recordedCard = try Self.object(Self.recorded("gift-card-fulfilled.json"))
        let card = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(0).id, fiatAmount: 40)
        Self.expectShape(try await get("/gift-cards/\(card.id)"), like: recordedCard, required: ["id", "status", "paymentId"], "unpaid")
        harness.emulator.markPaid(cardID: card.id, transactionID: "tx-shape")
        let fulfilled = try await get("/gift-cards?txid=tx-shape")
        Self.expectShape(fulfilled, like: recordedCard, required: ["id", "status", "paymentId", "number", "pin"], "fulfilled")
        #expect(fulfilled["status"] as? String == "fulfilled")

        let production = try await get("/merchants/\(harness.merchant(0).id)")
        Self.expectShape(
            production, like: try Self.object(Self.recorded("merchant-production.json")),
            required: ["id", "savingsPercentage", "denominations", "denominationsType"], "production merchant")
        let staging = try await get("/merchants/\(harness.merchant(1).id)")
        let recordedStaging = try Self.object(Self.recorded("merchant-staging.json"))
            .merging(try Self.object(Self.recorded("merchant-production.json")).filter { $0.key.hasSuffix("Url") || $0.key == "type" }) {
                first, _ in first
            }
        Self.expectShape(
            staging, like: recordedStaging.merging(["redeemType": "", "currency": ""]) { first, _ in first },
            required: ["id", "userDiscount", "denominationValues", "locationCount"], "staging merchant")
        await harness.stop()
    }
}
