@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator

/// Every Warply operation that reads an answer, answered with hostile variations of the emulator's
/// real answer (dropped keys, wrong types, huge and negative numbers, hostile strings, deep nesting,
/// truncation): each call ends with a value or an `EngageError`, and the stored session survives.
@Suite("Warply: hostile answers to every operation that reads one", .bounded(.heavy))
struct WarplyHostileAnswerTests {
    @Test("60 hostile variations of each real answer: values or EngageErrors, never a trap; the session survives")
    func hostileAnswers() async throws {
        let harness = try await WarplyHarness()
        let answers = HostileAnswers()
        let (engage, warply) = try await harness.loggedIn(transport: answers)
        let session = try await warply.tokens.currentTokens()
        // One call per operation, not an array of closures: a typed-throws function type as a generic
        // argument needs the iOS 18 / macOS 15 runtime.
        func sweep(_ name: String, seed: UInt64, _ operation: () async throws(EngageError) -> Void) async throws {
            let outcomes = await answers.sweep(seed: seed, operation: operation)
            #expect(outcomes.count >= 60, "\(name): swept \(outcomes.count) answers")
            let failures = outcomes.compactMap { outcome -> EngageError? in
                if case let .failure(error) = outcome { return error }
                return nil
            }
            #expect(failures.allSatisfy { $0.providerID == .warply }, "\(name)")
            #expect(failures.contains { $0.code == .decoding }, "\(name): the variations reached the decoder")
            #expect(try await warply.tokens.currentTokens() == session, "\(name): a hostile answer cost the session")
        }
        try await sweep("campaigns", seed: 100) { () async throws(EngageError) in _ = try await warply.campaigns() }
        try await sweep("personalizedCampaigns", seed: 101) { () async throws(EngageError) in _ = try await warply.personalizedCampaigns() }
        try await sweep("supermarketCampaign", seed: 102) { () async throws(EngageError) in _ = try await warply.supermarketCampaign() }
        try await sweep("coupons", seed: 103) { () async throws(EngageError) in _ = try await warply.coupons() }
        try await sweep("universalCoupons", seed: 104) { () async throws(EngageError) in _ = try await warply.universalCoupons() }
        try await sweep("couponSets", seed: 105) { () async throws(EngageError) in _ = try await warply.couponSets() }
        try await sweep("availableCoupons", seed: 106) { () async throws(EngageError) in _ = try await warply.availableCoupons() }
        try await sweep("validateCoupon", seed: 107) { () async throws(EngageError) in _ = try await warply.validateCoupon(code: "SUMMER10")
        }
        try await sweep("redeemedSupermarketHistory", seed: 108) { () async throws(EngageError) in
            _ = try await warply.redeemedSupermarketHistory()
        }
        try await sweep("cards", seed: 109) { () async throws(EngageError) in _ = try await warply.cards() }
        try await sweep("transactionHistory", seed: 110) { () async throws(EngageError) in _ = try await warply.transactionHistory() }
        try await sweep("pointsHistory", seed: 111) { () async throws(EngageError) in _ = try await warply.pointsHistory() }
        try await sweep("merchants", seed: 112) { () async throws(EngageError) in _ = try await warply.merchants() }
        try await sweep("merchantCategories", seed: 113) { () async throws(EngageError) in _ = try await warply.merchantCategories() }
        try await sweep("articles", seed: 114) { () async throws(EngageError) in _ = try await warply.articles() }
        try await sweep("marketPassDetails", seed: 115) { () async throws(EngageError) in _ = try await warply.marketPassDetails() }
        try await sweep("profile", seed: 116) { () async throws(EngageError) in _ = try await warply.profile() }
        // The token answer last (each refresh rotates the token at the server, so the session may end
        // on the way, as a rejected refresh ends it).
        let refreshes = await answers.sweep(seed: 99) { () async throws(EngageError) in _ = try await warply.refreshToken() }
        #expect(refreshes.count >= 60)
        #expect(
            refreshes.allSatisfy { outcome in
                if case let .failure(error) = outcome { return error.providerID == .warply }
                return true
            })
        await engage.shutdown()
        await harness.stop()
    }
}
