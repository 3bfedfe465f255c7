import Engage
import EngageSandbox
import EngageTesting
import EngageWarply
import Foundation
import Testing
import WarplyEmulator

/// Every Warply operation that reads an answer, answered with hostile variations of the emulator's
/// real answer (dropped keys, wrong types, huge and negative numbers, hostile strings, deep nesting,
/// truncation): each call ends with a value or an `EngageError`, and the stored session survives.
@Suite("Warply: hostile answers to every operation that reads one")
struct WarplyHostileAnswerTests {
    @Test("60 hostile variations of each real answer: values or EngageErrors, never a trap; the session survives")
    func hostileAnswers() async throws {
        let harness = try await WarplyHarness()
        let answers = HostileAnswers()
        let (engage, warply) = try await harness.loggedIn(transport: answers)
        let session = try await warply.tokens.currentTokens()
        let operations: [(String, () async throws(EngageError) -> Void)] = [
            ("campaigns", { () async throws(EngageError) in _ = try await warply.campaigns() }),
            ("personalizedCampaigns", { () async throws(EngageError) in _ = try await warply.personalizedCampaigns() }),
            ("supermarketCampaign", { () async throws(EngageError) in _ = try await warply.supermarketCampaign() }),
            ("coupons", { () async throws(EngageError) in _ = try await warply.coupons() }),
            ("universalCoupons", { () async throws(EngageError) in _ = try await warply.universalCoupons() }),
            ("couponSets", { () async throws(EngageError) in _ = try await warply.couponSets() }),
            ("availableCoupons", { () async throws(EngageError) in _ = try await warply.availableCoupons() }),
            ("validateCoupon", { () async throws(EngageError) in _ = try await warply.validateCoupon(code: "SUMMER10") }),
            ("redeemedSupermarketHistory", { () async throws(EngageError) in _ = try await warply.redeemedSupermarketHistory() }),
            ("cards", { () async throws(EngageError) in _ = try await warply.cards() }),
            ("transactionHistory", { () async throws(EngageError) in _ = try await warply.transactionHistory() }),
            ("pointsHistory", { () async throws(EngageError) in _ = try await warply.pointsHistory() }),
            ("merchants", { () async throws(EngageError) in _ = try await warply.merchants() }),
            ("merchantCategories", { () async throws(EngageError) in _ = try await warply.merchantCategories() }),
            ("articles", { () async throws(EngageError) in _ = try await warply.articles() }),
            ("marketPassDetails", { () async throws(EngageError) in _ = try await warply.marketPassDetails() }),
            ("profile", { () async throws(EngageError) in _ = try await warply.profile() }),
        ]
        for (index, (name, operation)) in operations.enumerated() {
            let outcomes = await answers.sweep(seed: UInt64(100 + index), operation: operation)
            #expect(outcomes.count >= 60, "\(name): swept \(outcomes.count) answers")
            let failures = outcomes.compactMap { outcome -> EngageError? in
                if case let .failure(error) = outcome { return error }
                return nil
            }
            #expect(failures.allSatisfy { $0.providerID == .warply }, "\(name)")
            #expect(failures.contains { $0.code == .decoding }, "\(name): the variations reached the decoder")
            #expect(try await warply.tokens.currentTokens() == session, "\(name): a hostile answer cost the session")
        }
        // The token answer last (each refresh rotates the token at the server, so the session may end
        // on the way, as a rejected refresh ends it).
        let refreshes = await answers.sweep(seed: 99) { () async throws(EngageError) in _ = try await warply.refreshToken() }
        #expect(refreshes.count >= 60)
        #expect(refreshes.allSatisfy { outcome in
            if case let .failure(error) = outcome { return error.providerID == .warply }
            return true
        })
        await engage.shutdown()
        await harness.stop()
    }
}
