@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
import EngageTestTraits
import Testing
import YoullEmulator

/// The seed's paywall configuration and viewed-content mutation against the emulator over real HTTP.
@Suite(.bounded) struct YoullPaywallTests {
    @Test func aPlacementsPaywallAndTheSuperPaywall() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        let onboarding = try #require(try await youll.fetch(.paywallConfig(placement: "onboarding")))
        #expect(onboarding.id == "pw-onboarding" && onboarding.placement == "onboarding" && onboarding.isDismissible)
        #expect(onboarding.features.count == 3 && !onboarding.isSuperPaywall)
        #expect(onboarding.products.map(\.id) == ["com.youll.premium.monthly", "com.youll.premium.yearly"])
        #expect(onboarding.products.map(\.period) == [.month, .year] && onboarding.products.map(\.trialDays) == [7, 14])
        #expect(onboarding.preselectedProduct?.id == "com.youll.premium.yearly" && onboarding.preselectedProduct?.badge == "Best value")
        #expect(onboarding.imageURL?.host == "cdn.youll.test")
        #expect(try await youll.fetch(.paywallConfig(placement: "no_such_placement")) == nil)

        let sent = try #require(await harness.requests(path: "/v1/graphql").last)
        #expect(sent.bodyText?.contains(#""placement":"no_such_placement""#) == true)

        let offer = try await youll.fetch(.superPaywallConfig())
        #expect(offer.isSuperPaywall && !offer.isDismissible && offer.products.last?.period == .lifetime)
        #expect(offer.products.last?.trialDays == 0 && offer.preselectedProduct?.id == "com.youll.premium.yearly")
    }

    @Test func theSuperPaywallAsTheYoullSDKReadsIt() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        _ = try await youll.fetch(.superPaywallConfig())
        // `.cacheThenNetwork`: the last offer at once, then the backend's.
        var sources: [Bool] = []
        for try await response in youll.responses(.superPaywallConfig()) where response.value.id == "pw-super" {
            sources.append(response.isFromCache)
        }
        #expect(sources == [true, false])
    }

    @Test func badPlacementsAreRefusedBeforeSending() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        for placement in ["", String(repeating: "p", count: 65), "on boarding", "x\"){ __schema", "παγωτό"] {
            await #expect(throws: EngageError.self) { try await harness.youll.fetch(.paywallConfig(placement: placement)) }
        }
        #expect(await harness.requests(path: "/v1/graphql").isEmpty)
    }

    @Test func viewingContentIsRecordedForTheUser() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession("u-3"))
        let viewed = try await youll.perform(.setViewedContent(contentID: "c-007"))
        #expect(viewed.contentID == "c-007" && viewed.viewedAt == harness.clock.now.wholeSeconds)
        #expect(harness.emulator.viewedContent(of: "u-3").keys.sorted() == ["c-007"])

        // Unlike the Youll SDK's void mutation, a refusal is an error.
        await #expect { try await youll.perform(.setViewedContent(contentID: "no-such")) } throws: { error in
            (error as? EngageError)?.message.contains("does not exist") == true
        }
        await #expect { try await youll.perform(.setViewedContent(contentID: "")) } throws: { error in
            (error as? EngageError)?.code == .invalidInput
        }
        youll.setSession(TestSession(token: nil, userID: nil))
        await #expect(throws: EngageError.self) { try await youll.perform(.setViewedContent(contentID: "c-007")) }
        #expect(harness.emulator.viewedContent(of: "u-3").count == 1)
    }

    @Test func hostilePaywallsFailAsDecodingErrors() throws {
        let product = WirePaywallProduct(productId: "p", period: "month")
        let valid = WirePaywallConfig(
            id: "pw", placement: "x", title: "T", features: [], products: [product], dismissible: true, isSuper: false)
        #expect(try YoullPaywallConfig(wire: valid).products.first?.period == .month)
        var unknownPeriod = valid
        unknownPeriod.products = [WirePaywallProduct(productId: "p", period: "fortnight")]
        #expect(try YoullPaywallConfig(wire: unknownPeriod).products.first?.period.rawValue == "fortnight")
        for broken in [
            { (wire: inout WirePaywallConfig) in wire.products = [] },
            { $0.id = "" },
            { $0.products = [WirePaywallProduct(productId: "", period: "month")] },
            { $0.products = [WirePaywallProduct(productId: "p", period: "")] },
            { $0.products = [WirePaywallProduct(productId: "p", period: "month", trialDays: -1)] },
        ] as [(inout WirePaywallConfig) -> Void] {
            var wire = valid
            broken(&wire)
            #expect { try YoullPaywallConfig(wire: wire) } throws: { ($0 as? EngageError)?.code == .decoding }
        }
    }
}
