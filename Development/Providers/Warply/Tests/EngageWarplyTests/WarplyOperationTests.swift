@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import EngageTestTraits
import Foundation
import HTTPTypes
import Testing

/// Warply's operations are declared once (`WarplyOperation`): every request names one, and whether a
/// request may be resent after a lost answer comes from that declaration.
@Suite("Warply: every request belongs to one declared operation", .bounded)
struct WarplyOperationTests {
    @Test("each request of a whole session carries its operation, and only what is safe to send twice is resent")
    func requestsCarryTheirOperation() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        defer { Task { await harness.stop() } }
        let transport = WarplyRecordedAnswerTests.recordedTransport()
        let (engage, warply) = try await harness.loggedIn(transport: transport)
        defer { Task { await engage.shutdown() } }
        let before = transport.requests.count
        try await WarplyRecordedAnswerTests.session(warply)

        var repeatable: [String: Bool] = [:]
        for request in transport.requests.dropFirst(before) {
            let name = try #require(request.options.operationName?.rawValue, "a request without an operation: \(request.head.path ?? "")")
            if let earlier = repeatable[name] { #expect(earlier == request.isSafeToRepeat, "\(name): its requests disagree") }
            repeatable[name] = request.isSafeToRepeat
        }
        // A resend after a lost answer could spend points twice, add a card twice or rotate tokens twice.
        for name in ["redeem_coupon", "add_card", "refresh_token", "logout"] { #expect(repeatable[name] == false, "\(name)") }
        for name in ["profile", "couponsets", "campaigns", "campaigns_personalized", "available_coupons", "coupons", "get_cards"] {
            #expect(repeatable[name] == true, "\(name)")
        }
    }
}
