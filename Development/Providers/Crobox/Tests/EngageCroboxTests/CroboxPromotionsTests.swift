@_spi(EngageProvider) @testable import EngageCore
import CroboxEmulator
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("Crobox promotions end to end", .bounded)
struct CroboxPromotionsTests {
    @Test(
        "promotions for 0, 1 and many products: order kept on the wire and in the answer",
        arguments: [
            [String](), ["sku-1"], ["sku 1", "sku+2", "σκου-3", "sku/4", "sku&5=6", "7"],
        ])
    func productCounts(productIDs: [String]) async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        let page = CroboxPage(pageType: .overview, pageName: "List")
        let response = try await crobox.promotions(placeholderID: "14", page: page, productIDs: productIDs)

        let request = try #require(harness.emulator.promotionRequests.last)
        #expect(request.productIDs == productIDs)
        #expect(request.placeholderID == "14")
        #expect(request.visitorID == crobox.visitorID)
        #expect(request.contentType?.hasPrefix("application/x-www-form-urlencoded") == true)
        #expect(request.pageType == 2)
        #expect(response.context.visitorID == crobox.visitorID)
        #expect(harness.emulator.sessionID(forVisitor: crobox.visitorID) == response.context.sessionID)
        #expect(response.context.campaigns.first?.name == "Campaign 1")
        if productIDs.isEmpty {
            #expect(response.promotions.count == 1)
            #expect(response.promotions.first?.productID == nil)
        } else {
            #expect(response.promotions.map(\.productID) == productIDs)
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("every badge kind and colour form comes through typed, and by keys")
    func badges() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        // Find a product id for each catalogue message (the emulator's choice is a stable hash).
        var productByComponent: [String: String] = [:]
        var productByColourKey: [String: String] = [:]
        for index in 0..<500 {
            let id = "product-\(index)"
            guard let message = harness.emulator.message(forProductID: id) else { continue }
            productByComponent[message.componentName] = productByComponent[message.componentName] ?? id
            for key in ["backgroundColor", "borderColor"] where message.config[key] != nil {
                productByColourKey[key] = productByColourKey[key] ?? id
            }
        }
        let ids = Array(Set(productByComponent.values).union(productByColourKey.values)).sorted()
        #expect(productByComponent.count == 4)
        let response = try await crobox.promotions(placeholderID: "1", page: CroboxPage(pageType: .overview), productIDs: ids)
        var seen: Set<String> = []
        for promotion in response.promotions {
            let content = try #require(promotion.content)
            switch content.typedConfig {
            case let .textBadge(badge):
                seen.insert("text")
                #expect(badge.fontRGBA != nil)
                if badge.backgroundColor != nil { #expect(badge.backgroundRGBA?.alpha == 0xE6); seen.insert("argb") }
                if badge.borderColor != nil {
                    #expect(badge.borderRGBA == RGBAColor(red: 204, green: 204, blue: 204, alpha: 128)); seen.insert("rgba")
                }
            case let .imageBadge(badge):
                seen.insert("image")
                #expect(URL(string: badge.image)?.scheme == "https")
            case let .secondaryMessaging(message):
                seen.insert("secondary")
                #expect(message.fontRGBA != nil)
            case let .unknown(name, _):
                seen.insert("unknown")
                #expect(name == "component1.tsx")
                #expect(content.imageBadge != nil)
            }
        }
        #expect(seen == ["text", "argb", "rgba", "image", "secondary", "unknown"])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("an unknown container answers 405 and becomes a clear error")
    func unknownContainer() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start(harness.croboxConfiguration(containerID: "nope42"))
        let crobox = try await engage.provider(CroboxProvider.self)
        await #expect {
            try await crobox.promotions(placeholderID: "1", page: CroboxPage(pageType: .other))
        } throws: { error in
            let error = error as? EngageError
            return error?.code == .croboxUnknownContainer && error?.httpStatus == 405 && error?.message.contains("nope42") == true
                && error?.isRetryable == false
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("5xx is a retryable error, reported once as an sdk error event however often it happens")
    func serverErrors() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        harness.host.faults.inject(FaultRule(.status(502), emulatorID: "crobox", path: "/promotions"))
        for _ in 0..<5 {
            await #expect {
                try await crobox.promotions(placeholderID: "1", page: CroboxPage(pageType: .other), productIDs: ["a"])
            } throws: { ($0 as? EngageError)?.httpStatus == 502 && ($0 as? EngageError)?.isRetryable == true }
        }
        await harness.flush(engage)
        let errors = harness.emulator.receivedEvents(ofType: "error")
        #expect(errors.count == 1)
        #expect(errors.first?.value("tg") == "sdk")
        #expect(errors.first?.value("nm") == "promotions")
        await engage.shutdown()
        await harness.stop()
    }

    @Test(
        "bodies that are not the promotions shape become decoding errors",
        arguments: [Fault.malformedBody, .status(200, body: Data(#"{"context":{"pid":"x"}}"#.utf8))])
    func badBodies(fault: Fault) async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        harness.host.faults.inject(FaultRule(fault, emulatorID: "crobox", path: "/promotions"))
        await #expect {
            try await crobox.promotions(placeholderID: "1", page: CroboxPage(pageType: .other))
        } throws: { ($0 as? EngageError)?.code == .decoding }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("control-group campaigns give promotions without content, which are not offers")
    func controlGroup() async throws {
        let harness = try await CroboxHarness(emulatorConfiguration: .init(campaigns: CroboxEmulator.Configuration.controlGroupCampaigns))
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        let response = try await crobox.promotions(placeholderID: "1", page: CroboxPage(pageType: .overview), productIDs: ["a", "b"])
        #expect(response.promotions.allSatisfy { $0.content == nil })
        #expect(response.context.campaigns.first?.isControl == true)
        #expect(try await engage.offers(OfferQuery(productIDs: ["a"], placementID: "1")).items.isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the facade's offers are promotions with their badges; a missing placement is a clear error")
    func facadeOffers() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let result = try await engage.offers(OfferQuery(productIDs: ["sku-1", "sku-2"], placementID: "7"))
        #expect(result.isComplete)
        #expect(result.items.map(\.productID) == ["sku-1", "sku-2"])
        #expect(result.items.allSatisfy { $0.providerID == .crobox && $0.kind == .promotion && $0.badge != nil })
        #expect(result.items.allSatisfy { $0.attributes["campaign_id"] == "1" })
        let missing = try await engage.offers(OfferQuery(productIDs: ["a"]))
        #expect(missing.report.failures[.crobox]?.code == .invalidInput)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the callback form delivers the same response")
    func callbackForm() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        let result = await withCheckedContinuation { continuation in
            crobox.promotions(placeholderID: "3", page: CroboxPage(pageType: .detail), productIDs: ["x"]) {
                continuation.resume(returning: $0)
            }
        }
        #expect(try result.get().promotions.map(\.productID) == ["x"])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("operations publish success and error events named after Crobox")
    func operationEvents() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        let stream = engage.events.stream(of: OperationEvent.self)
        _ = try await crobox.promotions(placeholderID: "1", page: CroboxPage(pageType: .other))
        try await crobox.send(.click(CroboxProduct(id: "a")), on: CroboxPage(pageType: .other))
        harness.host.faults.inject(FaultRule(.status(503), emulatorID: "crobox", path: "/promotions"))
        _ = try? await crobox.promotions(placeholderID: "1", page: CroboxPage(pageType: .other))
        var names: [String] = []
        for await event in stream {
            names.append(event.name)
            if names.count == 3 { break }
        }
        #expect(names == ["custom_success_promotions_crobox", "custom_success_click_event_crobox", "custom_error_promotions_crobox"])
        await engage.shutdown()
        await harness.stop()
    }
}

@Suite("Crobox provider contract", .bounded)
struct CroboxContractTests {
    @Test("the provider passes the conformance suite against its emulator")
    func conformance() async throws {
        let harness = try await CroboxHarness()
        let report = await ProviderConformanceSuite(
            CroboxProvider.self,
            configuration: harness.croboxConfiguration(),
            invalidConfiguration: CroboxConfiguration(containerID: "", baseURL: harness.baseURL),
            operationProbe: { provider in
                _ = try await provider.promotions(placeholderID: "1", page: CroboxPage(pageType: .other), productIDs: ["a"])
            }
        ).run()
        #expect(report.failures.isEmpty, "\(report)")
        await harness.stop()
    }

    @Test("without configuration the provider is a clear error, never a crash")
    func notConfigured() async throws {
        let engage = try await Engage.start(
            configuration: .preset(.testing, appID: "org.engagekit.crobox-tests"),
            environment: RegistryEnvironment(secretStore: InMemorySecretStore())
        )
        await #expect {
            try await engage.provider(CroboxProvider.self)
        } throws: { ($0 as? EngageError)?.code == .notConfigured }
        await engage.shutdown()

        // A malformed section fails that provider's start with a message naming the setting; the start
        // itself succeeds and reports it.
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.crobox-tests")
        configuration.providers["crobox"] = ["containerID": 42]
        let partial = try await Engage.start(
            configuration: configuration, environment: RegistryEnvironment(secretStore: InMemorySecretStore()))
        #expect(await partial.waitUntilReady().failures["crobox"]?.code == .invalidConfiguration)
        #expect(await partial.waitUntilReady().failures["crobox"]?.message.contains("containerID") == true)
        await #expect {
            try await partial.provider(CroboxProvider.self)
        } throws: { ($0 as? EngageError)?.code == .providerStartFailed }
        await partial.shutdown()
    }

    @Test("the visitor id is generated once and persisted")
    func visitorIDPersisted() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crobox-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = InMemorySecretStore()
        let harness = try await CroboxHarness()
        let first = try await harness.start(storage: .directory(directory), secretStore: keys)
        let visitor = try await first.provider(CroboxProvider.self).visitorID
        await first.shutdown()
        let second = try await harness.start(storage: .directory(directory), secretStore: keys)
        #expect(try await second.provider(CroboxProvider.self).visitorID == visitor)
        await second.shutdown()
        var fixed = harness.croboxConfiguration()
        fixed.visitorID = UUID(uuidString: "11111111-2222-3333-4444-555555555555")
        let third = try await harness.start(fixed)
        #expect(try await third.provider(CroboxProvider.self).visitorID == fixed.visitorID)
        await third.shutdown()
        await harness.stop()
    }
}
