@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import EngageTestTraits
import Foundation
import HTTPTypes
import Testing
import WarplyEmulator

/// Warply's requests and answers as recorded in `Development/Providers/Warply/Tests/Fixtures` (each file's source is
/// in its README): the client reads every recorded answer to the right values and sends the recorded
/// requests' shapes, and the emulator, whose types are its own, answers every call of a whole session in
/// the recorded shapes. A client or emulator key renamed, retyped or dropped without a new recording
/// fails here.
@Suite("Warply: client and emulator speak the recorded shapes", .bounded)
struct WarplyRecordedAnswerTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func data(_ file: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(file)) }
    static func recorded(_ file: String) throws -> Any { try JSONSerialization.jsonObject(with: data(file), options: [.fragmentsAllowed]) }

    /// The context actions whose answers are recorded, by root and action.
    static let contextAnswers: [String: String] = [
        "campaigns/retrieve": "campaigns-answer.json", "campaigns/retrieve_personalized": "campaigns-answer.json",
        "coupon/retrieve_multilingual": "coupon-sets-answer.json", "coupon/availability": "coupon-availability-answer.json",
        "coupon/user_coupons": "user-coupons-answer.json", "coupon/validate": "validate-coupon-answer.json",
        "coupon/redeem": "redeem-answer.json", "coupon/get_redeemed_sm_history": "redeemed-sm-history-answer.json",
        "consumer_data/handle_user_details": "profile-answer.json", "consumer_data/get_transaction_history": "transactions-answer.json",
        "consumer_data/get_points_history": "points-history-answer.json", "consumer_data/integration": "market-pass-answer.json",
        "cards/add_card": "add-card-answer.json", "cards/get_cards": "cards-answer.json", "cards/delete_card": "delete-card-answer.json",
        "shops/retrieve_multilingual": "merchants-answer.json", "shops/get_merchant_categories": "merchant-categories-answer.json",
        "content/retrieve_multilingual": "articles-answer.json",
    ]

    /// The context requests whose bodies are recorded.
    static let contextRequests: [String: String] = [
        "campaigns/retrieve": "campaigns-request.json", "coupon/user_coupons": "user-coupons-request.json",
        "consumer_data/handle_user_details": "profile-request.json", "cards/add_card": "add-card-request.json",
        "shops/retrieve_multilingual": "merchants-request.json",
    ]

    /// `root/action` of a context request body, or `nil` for another body.
    static func contextKey(_ body: Data?) -> String? {
        guard let body, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any], object.count == 1,
            let (root, value) = object.first, let fields = value as? [String: Any], let action = fields["action"] as? String
        else { return nil }
        return "\(root)/\(action)"
    }

    static func path(_ request: HTTPRequestMessage) -> String {
        String((request.head.path ?? "/").prefix { $0 != "?" })
    }

    /// The recorded answer of `request`, or `nil` when none is recorded for it.
    static func answerFile(_ request: HTTPRequestMessage) -> String? {
        let path = path(request)
        if path.hasSuffix("/register/") { return "register-answer.json" }
        if path.hasSuffix("/partners/dei/app_login") { return "login-answer.json" }
        if path.contains("/api/session/") { return "single-campaign-answer.json" }
        if path.hasSuffix("/context") || path.hasSuffix("/context/") { return contextKey(request.body).flatMap { contextAnswers[$0] } }
        if path.hasSuffix("/token") { return "refresh-answer.json" }
        if path.hasSuffix("/logout") || path.contains("/api/async/") || path.contains("/user/") { return "status-answer.json" }
        return nil
    }

    /// The recorded request `request` is held to, or `nil`.
    static func requestFile(_ request: HTTPRequestMessage) -> String? {
        if path(request).hasSuffix("/oauth/\(WarplyHarness.appUUID)/token") { return "refresh-request.json" }
        return contextKey(request.body).flatMap { contextRequests[$0] }
    }

    /// Passes every request on and keeps each exchange.
    final class Recorder: HTTPTransport {
        private let base = URLSessionTransport()
        private let kept = Locked<[(request: HTTPRequestMessage, answer: Data)]>([])

        func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
            let response = try await base.send(request)
            kept.withLock { $0.append((request, response.body)) }
            return response
        }

        var exchanges: [(request: HTTPRequestMessage, answer: Data)] { kept.withLock { $0 } }
    }

    /// Answers every request with its recorded answer; `override` picks another file for a context
    /// action (`root/action`) or a path suffix.
    static func recordedTransport(override: [String: String] = [:]) -> InMemoryTransport {
        InMemoryTransport { request in
            let key = contextKey(request.body) ?? path(request)
            let file = override.first { key == $0.key || key.hasSuffix($0.key) }?.value ?? answerFile(request)
            guard let file else { return HTTPResponseMessage(head: HTTPResponse(status: .notFound)) }
            var head = HTTPResponse(status: .ok)
            head.headerFields[.contentType] = "application/json"
            return HTTPResponseMessage(head: head, body: try data(file))
        }
    }

    /// A whole session: every operation whose answer is recorded.
    static func session(_ warply: WarplyProvider) async throws {
        let campaigns = try await warply.campaigns()
        _ = try await warply.couponSets()
        _ = try await warply.availableCoupons()
        let coupons = try await warply.coupons()
        if let code = coupons.active.first?.code { _ = try await warply.validateCoupon(code: code) }
        let available = try await warply.availableCoupons().filter { $0.value > 0 }.keys.sorted()
        if let set = available.first { _ = try await warply.redeemCoupon(productUUID: set) }
        _ = try await warply.redeemedSupermarketHistory()
        _ = try await warply.profile()
        let card = try await warply.addCard(
            WarplyNewCard(
                number: "4111111111111111", issuer: "VISA", holder: "MARIA PAPADOPOULOU", expirationMonth: 9, expirationYear: 2_035))
        _ = try await warply.cards()
        try await warply.deleteCard(token: card.token)
        _ = try await warply.transactionHistory()
        _ = try await warply.pointsHistory()
        _ = try await warply.merchants()
        _ = try await warply.merchantCategories()
        _ = try await warply.articles()
        _ = try await warply.marketPassDetails()
        if let first = campaigns.first { _ = try await warply.singleCampaign(sessionUUID: first.sessionUUID) }
        try await warply.refreshToken()
        try await warply.logOut()
    }

    @Test("the emulator answers a whole session in the recorded shapes, and the client sends the recorded requests")
    func emulatorAndRequestsMatchTheRecordings() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        defer { Task { await harness.stop() } }
        let recorder = Recorder()
        let (engage, warply) = try await harness.loggedIn(transport: recorder)
        defer { Task { await engage.shutdown() } }
        try await Self.session(warply)

        var answered: Set<String> = []
        var requested: Set<String> = []
        for (request, answer) in recorder.exchanges {
            if let file = Self.answerFile(request) {
                answered.insert(file)
                let value = try JSONSerialization.jsonObject(with: answer, options: [.fragmentsAllowed])
                // Not exact: the emulator leaves out an optional key it has no value for.
                let differences = JSONShape.differences(value, from: try Self.recorded(file), exact: false)
                #expect(differences.isEmpty, "\(file) (\(Self.path(request))): \(differences)")
            }
            if let file = Self.requestFile(request), let body = request.body {
                requested.insert(file)
                let sent = try JSONSerialization.jsonObject(with: body)
                let differences = JSONShape.differences(sent, from: try Self.recorded(file), exact: true)
                #expect(differences.isEmpty, "\(file): \(differences)")
            }
        }
        let answers = Set(Self.contextAnswers.values).union([
            "register-answer.json", "login-answer.json", "single-campaign-answer.json", "refresh-answer.json", "status-answer.json",
        ])
        #expect(answered == answers)
        #expect(requested == Set(Self.contextRequests.values).union(["refresh-request.json"]))
    }

    @Test("the client reads every recorded answer to the recorded values")
    func clientReadsTheRecordings() async throws {
        let harness = try await WarplyHarness()
        defer { Task { await harness.stop() } }
        let (engage, warply) = try await harness.loggedIn(transport: Self.recordedTransport())
        defer { Task { await engage.shutdown() } }

        let campaigns = try await warply.campaigns()
        #expect(campaigns.map(\.sessionUUID).contains("d7b8be1d47acefbf1a44bfe5924676a6"))
        #expect(campaigns.allSatisfy { $0.indexURL?.contains(#"\/"#) != true && $0.logoURL?.contains(#"\/"#) != true })
        let sets = try await warply.couponSets()
        #expect(sets.count == 2 && sets[0].uuid == "e75dba2bf21078c09f3ea2b78c8748b7" && sets[0].expiration?.date != nil)
        #expect(try await warply.availableCoupons()["e75dba2bf21078c09f3ea2b78c8748b7"] == 18)
        let coupons = try await warply.coupons()
        #expect(coupons.active.map(\.code) == ["CINEMA-7Q2X9K"] && coupons.redeemed.count == 1)
        #expect(try await warply.validateCoupon(code: "CINEMA-7Q2X9K").isValid)
        let redemption = try await warply.redeemCoupon(productUUID: "aad60e25c0675e3de5d687252398cd65")
        #expect(redemption.couponCode == "CPN-M3KD7P" && redemption.redeemedAt?.date != nil)
        let history = try await warply.redeemedSupermarketHistory()
        #expect(history.totalRedeemedValue == 10 && history.redeemedCoupons.map(\.code) == ["SM-H4TR8W"])
        let profile = try await warply.profile()
        #expect(profile.email == "maria.papadopoulou@example.gr" && profile.firstName == "Μαρία" && profile.lastName == "Παπαδοπούλου")
        let card = try await warply.addCard(
            WarplyNewCard(
                number: "4111111111111111", issuer: "VISA", holder: "MARIA PAPADOPOULOU", expirationMonth: 9, expirationYear: 2_035))
        #expect(
            card.token == "card_1b7bef667e83c711514f21a7" && card.maskedNumber == "**** **** **** 1111"
                && card.holder == "MARIA PAPADOPOULOU")
        #expect(try await warply.cards().map(\.token).first == "card_1b7bef667e83c711514f21a7")
        try await warply.deleteCard(token: card.token)
        #expect(try await warply.transactionHistory().map(\.transactionID).contains("0fd91f0d31be3b74f4255730a7526797"))
        #expect(try await warply.pointsHistory().first?.points == 120)
        let merchants = try await warply.merchants()
        #expect(merchants.first?.uuid == "218d2299717600a4e3f90eb07ff550e2" && merchants.first?.location != nil)
        #expect(try await warply.merchantCategories().first?.adminName == "supermarkets")
        #expect(try await warply.articles().first?.uuid == "f734b055b17db20e13712e938167a7ec")
        let pass = try await warply.marketPassDetails()
        #expect(pass.barcode == "9904817263540" && pass.supermarkets.count == 1 && pass.mapURL?.contains(#"\/"#) != true)
        #expect(try await warply.singleCampaign(sessionUUID: "d7b8be1d47acefbf1a44bfe5924676a6").title == "Εισιτήριο σινεμά με 5€")
        try await warply.refreshToken()
        try await warply.logOut()
    }

    @Test("the recorded refusals reach the app as errors with the backend's message")
    func recordedRefusals() async throws {
        let harness = try await WarplyHarness()
        defer { Task { await harness.stop() } }
        let transport = Self.recordedTransport(override: ["coupon/redeem": "error-section-failure.json"])
        let (engage, warply) = try await harness.loggedIn(transport: transport)
        defer { Task { await engage.shutdown() } }
        let soldOut = await #expect(throws: EngageError.self) {
            try await warply.redeemCoupon(productUUID: "aad60e25c0675e3de5d687252398cd65")
        }
        #expect(soldOut?.message.contains("No coupons are left") == true)

        let refused = Self.recordedTransport(override: ["coupon/retrieve_multilingual": "error-status-minus-one.json"])
        let (other, otherWarply) = try await harness.startProvider(transport: refused)
        defer { Task { await other.shutdown() } }
        let error = await #expect(throws: EngageError.self) { try await otherWarply.couponSets() }
        #expect(error?.message.contains("invalid signature") == true)
    }

    @Test("a recorded status 9 makes the client register again and retry once")
    func recordedStatusNine() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        defer { Task { await harness.stop() } }
        let transport = Self.recordedTransport(override: ["coupon/retrieve_multilingual": "error-registration-invalid.json"])
        let (engage, warply) = try await harness.startProvider(transport: transport)
        defer { Task { await engage.shutdown() } }
        let registrationsBefore = transport.requests.filter { Self.path($0).hasSuffix("/register/") }.count
        await #expect(throws: EngageError.self) { try await warply.couponSets() }
        let couponSetCalls = transport.requests.filter { Self.contextKey($0.body) == "coupon/retrieve_multilingual" }
        #expect(couponSetCalls.count == 2)
        #expect(transport.requests.filter { Self.path($0).hasSuffix("/register/") }.count == registrationsBefore + 1)
    }
}
