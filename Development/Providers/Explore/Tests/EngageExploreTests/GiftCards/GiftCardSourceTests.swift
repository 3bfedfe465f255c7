@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing
#if PiggyCards
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
#endif

/// Gift-card sources behind one protocol: their settings in the Explore section, the sources each
/// build reads, and the provider handing them out.
@Suite("Gift-card sources", .bounded)
struct GiftCardSourceTests {
    private static let section: JSONValue = [
        "feedURL": "https://feed.example.com/explore/",
        "ctx": ["baseURL": "https://spend.ctx.com/", "clientID": "dash-wallet", "acceptLanguage": "el"],
        "piggyCards": ["baseURL": "https://api.piggy.cards/dash/v1/"],
    ]

    @Test("each source's settings decode from the Explore section under its key and encode back there, whatever the build")
    func settingsRoundTrip() throws {
        let configuration = try Self.section.decode(ExploreConfiguration.self)
        #expect(
            configuration.giftCards[CTXGiftCards.self]
                == CTXConfiguration(
                    baseURL: try #require(URL(string: "https://spend.ctx.com/")), clientID: "dash-wallet", acceptLanguage: "el"
                ))
        // Kept as JSON, so a build without PiggyCards loses nothing when it writes the configuration back.
        #expect(configuration.giftCards.sections.keys.sorted() == ["ctx", "piggyCards"])
        #expect(configuration.validationIssues().isEmpty)
        let encoded = try JSONValue(encoding: configuration)
        #expect(encoded["ctx"] == Self.section["ctx"])
        #expect(encoded["piggyCards"] == Self.section["piggyCards"])
        #expect(encoded["giftCards"] == nil, "no wrapper key: the sections sit beside the other settings")
        #expect(try encoded.decode(ExploreConfiguration.self) == configuration)

        var edited = configuration
        edited.giftCards[CTXGiftCards.self] = nil
        #expect(edited.giftCards.sections.keys.sorted() == ["piggyCards"])
        #expect(edited != configuration)
    }

    @Test("bad settings are named by validation: each bad field of a source, and a section that cannot be decoded")
    func badSettingsNamed() throws {
        var configuration = ExploreConfiguration()
        configuration.giftCards[CTXGiftCards.self] = CTXConfiguration(
            baseURL: try #require(URL(string: "ftp://spend.ctx.com/")), clientID: " ")
        let issues = configuration.validationIssues()
        #expect(issues.contains { $0.hasPrefix("ctx.baseURL") })
        #expect(issues.contains { $0.hasPrefix("ctx.clientID") })

        configuration.giftCards.sections["ctx"] = ["baseURL": 5, "clientID": "dash-wallet"]
        #expect(configuration.giftCards[CTXGiftCards.self] == nil)
        let undecodable = configuration.validationIssues()
        #expect(undecodable.count == 1)
        #expect(undecodable.first?.contains("'ctx'") == true)
        #expect(undecodable.first?.contains("baseURL") == true)
        #expect(throws: EngageError.self) { try configuration.validate(for: .explore) }

        // A section of the wrong type is kept and named, never silently dropped (CTX would be off).
        let mistypedSection: JSONValue = ["feedURL": "https://feed.example.com/", "ctx": "https://spend.ctx.com/", "piggyCards": [1, 2]]
        let mistyped = try mistypedSection.decode(ExploreConfiguration.self)
        #expect(mistyped.giftCards.sections.keys.sorted() == ["ctx", "piggyCards"])
        #expect(mistyped.validationIssues().contains { $0.contains("'ctx'") }, "\(mistyped.validationIssues())")
        // `null` means off.
        let offSection: JSONValue = ["ctx": nil]
        let off = try offSection.decode(ExploreConfiguration.self)
        #expect(off.giftCards.sections.isEmpty && off.validationIssues().isEmpty)
    }

    @Test("the provider hands out the configured sources; a section no source of this build reads is kept and logged")
    func configuredSources() async throws {
        let harness = try await ExploreFeedHarness()
        let logs = LogCapture()
        var explore = harness.exploreConfiguration()
        explore.giftCards.sections["vouchersPlus"] = ["baseURL": "https://vouchers.example.com/"]
        #if !PiggyCards
            explore.giftCards.sections["piggyCards"] = ["baseURL": "https://api.piggy.cards/dash/v1/"]
        #endif
        let (engage, provider) = try await harness.start(explore, logger: logs.logger(), logLevel: .warning)
        #if PiggyCards
            #expect(provider.configuredGiftCardSources == [.ctx, .piggyCards])
            #expect(try await provider.giftCardSource(PiggyCardsGiftCards.self).isSignedIn() == false)
            let unread = ["vouchersPlus"]
        #else
            #expect(provider.configuredGiftCardSources == [.ctx])
            let unread = ["piggyCards", "vouchersPlus"]
        #endif
        let warnings = logs.entries.filter { $0.level == .warning && $0.message.contains("No gift-card source") }.map(\.message)
        #expect(unread.allSatisfy { key in warnings.contains { $0.contains("'\(key)'") } }, "\(warnings)")
        #expect(warnings.count == unread.count)
        #expect(provider.configuration.giftCards.sections["vouchersPlus"] != nil)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a source's callback twins deliver on the callback queue, with the same outcome as the async form")
    func callbackTwins() async throws {
        let harness = try await ExploreFeedHarness()
        let (engage, provider) = try await harness.start()
        let ctx = try provider.giftCardSource(CTXGiftCards.self)
        let signedIn = await withCheckedContinuation { continuation in
            ctx.isSignedIn { continuation.resume(returning: $0) }
        }
        #expect(try signedIn.get() == false)
        let refused = await withCheckedContinuation { continuation in
            ctx.buyGiftCard(merchantID: "no-such-merchant", fiatAmount: 10) { continuation.resume(returning: $0) }
        }
        #expect(throws: EngageError.self) { try refused.get() }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("gift-card provider ids keep their directory spelling as their Codable form")
    func providerIDCoding() throws {
        let ids: [ExploreGiftCardProviderID] = [.ctx, .piggyCards, ExploreGiftCardProviderID(rawValue: "Other")]
        let encoded = try JSONEncoder().encode(ids)
        #expect(String(decoding: encoded, as: UTF8.self) == #"["CTX","PiggyCards","Other"]"#)
        #expect(try JSONDecoder().decode([ExploreGiftCardProviderID].self, from: encoded) == ids)
        #expect(ExploreGiftCardProviderID(directoryValue: " dashspend ") == .ctx)
        #if PiggyCards
            #expect(ExploreGiftCardProviderID(directoryValue: "Piggy Cards") == .piggyCards)
        #else
            #expect(ExploreGiftCardProviderID(directoryValue: "Piggy Cards") == nil, "not listed where it cannot be bought")
        #endif
    }
}
