@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

/// Crobox's promotions answer, replaced by hostile variations of the emulator's real answer: each call
/// ends with a value or an `EngageError`, and the facade's offers report the failure instead of trapping.
@Suite("Crobox: hostile promotions answers", .bounded(.heavy))
struct CroboxHostileAnswerTests {
    @Test("200 hostile variations of the real promotions answer: values or EngageErrors, never a trap")
    func hostilePromotions() async throws {
        let harness = try await CroboxHarness()
        let answers = HostileAnswers()
        let engage = try await harness.start(transport: answers)
        let crobox = try await engage.provider(CroboxProvider.self)
        let page = CroboxPage(pageType: .detail)
        let outcomes = await answers.sweep(count: 200, seed: 31) { () async throws(EngageError) in
            _ = try await crobox.promotions(placeholderID: "14", page: page, productIDs: ["sku-1", "sku-2", "sku-3"])
        }
        #expect(outcomes.count >= 200)
        let failures = outcomes.compactMap { outcome -> EngageError? in
            if case let .failure(error) = outcome { return error }
            return nil
        }
        #expect(failures.allSatisfy { $0.providerID == .crobox })
        #expect(failures.contains { $0.code == .decoding }, "the variations reached the decoder")
        // The facade sees the same answers as partial failures.
        let facade = await answers.sweep(count: 30, seed: 32) { () async throws(EngageError) in
            let offers = try await engage.offers(OfferQuery(productIDs: ["sku-1"], placementID: "14"))
            if let failure = offers.report.failures[.crobox] { throw failure }
        }
        #expect(facade.count >= 30)
        let reported = facade.compactMap { outcome -> EngageError? in
            if case let .failure(error) = outcome { return error }
            return nil
        }
        #expect(reported.allSatisfy { $0.providerID == .crobox })
        #expect(reported.contains { $0.code == .decoding }, "the facade reports the undecodable answers as Crobox's partial failures")
        await engage.shutdown()
        await harness.stop()
    }
}
