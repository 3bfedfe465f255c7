@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import EngageTestTraits
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if PiggyCards
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
#endif

@Suite("Explore feed emulator: state view and reset", .bounded)
struct ExploreFeedEmulatorInspectionTests {
    @Test("a published directory shows its version, size and hash; a download is counted; reset forgets the downloads only")
    func feedInspectAndReset() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-inspect-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = try ExploreFeedEmulator(folder: folder)
        let manifest = try feed.publish(archive: Data("not really a zip".utf8), network: .mainnet, timestamp: 1_763_700_000_000)
        try feed.publishObject(archive: Data("an object".utf8), network: .mainnet, timestamp: 1_763_700_000_000, checksum: "e3069283")
        let host = SandboxHost(emulators: [feed])
        let baseURL = try #require(try await host.start().baseURL(for: "explore-feed"))
        let download = URLRequest(url: baseURL.appendingPathComponent("mainnet").appendingPathComponent(manifest.archive))
        let (_, response) = try await URLSession.shared.data(for: download)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)

        let rows = try #require(feed.inspect().tables.first { $0.title == "Directories" }?.rows)
        let mainnet = try #require(rows.first { $0.first == "mainnet" })
        #expect(
            mainnet == [
                "mainnet", "published", "1763700000000", "2025-11-21T04:40:00Z", manifest.archive, String(manifest.size), manifest.checksum,
                "explore/explore-v4.db", "9", "e3069283", "1", "0",
            ])
        #expect(rows.first { $0.first == "testnet" }?[1] == "nothing published")

        feed.reset()
        let after = try #require(feed.inspect().tables.first { $0.title == "Directories" }?.rows.first { $0.first == "mainnet" })
        #expect(after[1] == "published" && after[6] == manifest.checksum && after[9] == "e3069283" && after[10] == "0")
        #expect(feed.downloadCount(for: .mainnet) == 0)
        await host.stop()
    }
}

extension GiftCardSuites {
    @Suite("CTX emulator: state view and reset", .bounded)
    struct CTXEmulatorInspectionTests {
        @Test("an account and a purchased card show in the state view, secrets by their last four; reset forgets them")
        func ctxInspectAndReset() async throws {
            let harness = try await CTXHarness()
            try await harness.signIn(email: "ana@example.com")
            let card = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(0).id, fiatAmount: 40)

            let view = harness.emulator.inspect()
            #expect(view.tables.first { $0.title == "Accounts" }?.rows.map { $0[0] } == ["ana@example.com"])
            let orders = try #require(view.tables.first { $0.title == "Gift card orders" }?.rows)
            #expect(orders.count == 1)
            #expect(
                orders.first.map { Array($0.prefix(6)) } == [
                    card.id, "ana@example.com", harness.merchant(0).name, "40.00", "USD", "unpaid",
                ])
            #expect(view.tables.allSatisfy { table in table.rows.allSatisfy { $0.count == table.columns.count } })

            harness.emulator.reset()
            let after = harness.emulator.inspect()
            #expect(after.tables.first { $0.title == "Accounts" }?.rows.isEmpty == true)
            #expect(after.tables.first { $0.title == "Gift card orders" }?.rows.isEmpty == true)
            #expect(harness.emulator.card(id: card.id) == nil && harness.emulator.purchaseCount == 0)
            await harness.stop()
        }
    }
}

#if PiggyCards
    extension GiftCardSuites {
        @Suite("PiggyCards emulator: state view and reset", .bounded)
        struct PiggyCardsEmulatorInspectionTests {
            @Test("a verified account shows in the state view without its password; reset forgets it")
            func piggyCardsInspectAndReset() async throws {
                let harness = try await PiggyCardsHarness()
                try await harness.signIn(email: "rui@example.com")

                let accounts = try #require(harness.emulator.inspect().tables.first { $0.title == "Accounts" }?.rows)
                #expect(accounts.count == 1)
                #expect(accounts.first?[0] == "rui@example.com" && accounts.first?[2] == "yes")

                harness.emulator.reset()
                #expect(harness.emulator.inspect().tables.first { $0.title == "Accounts" }?.rows.isEmpty == true)
                #expect(harness.emulator.otp(for: "rui@example.com") == nil)
                await harness.stop()
            }
        }
    }
#endif
