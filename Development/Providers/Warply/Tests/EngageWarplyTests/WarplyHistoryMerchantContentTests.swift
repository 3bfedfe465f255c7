// End-to-end tests of the histories, merchants, content, market pass and device operations: the
// provider against the emulator over a real socket.
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator

@Suite("Warply history, merchants, content and device end to end", .bounded)
struct WarplyHistoryMerchantContentTests {
    static let email = "eleni@example.gr"
    /// Syntagma square, Athens.
    static func syntagma() throws -> GeoPoint { try GeoPoint(latitude: 37.9755, longitude: 23.7348) }

    // MARK: Histories

    @Test("transactionHistory() is newest first")
    func transactionHistory() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let transactions = try await warply.transactionHistory()
        #expect(transactions.count == 6)
        let dates = transactions.compactMap { $0.date?.date }
        #expect(dates.count == 6)
        #expect(WarplyE2E.isDescending(dates))
        #expect(Set(dates).count == 6)
        #expect(transactions.allSatisfy { $0.merchantName?.isEmpty == false && $0.amount != nil })
        let sent = try #require(WarplyE2E.contextBodies(harness, WarplyPaths.authenticatedContext).last)
        #expect(sent.action == WarplyWire.Action.transactionHistory && sent.string("product_detail") == "min")
        await #expect { try await warply.transactionHistory(productDetail: "") } throws: { WarplyE2E.code($0) == .invalidInput }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("pointsHistory() is newest first, with gains and spends")
    func pointsHistory() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let entries = try await warply.pointsHistory()
        #expect(entries.count == 6)
        let dates = entries.compactMap { $0.date?.date }
        #expect(dates.count == 6)
        #expect(WarplyE2E.isDescending(dates))
        #expect(entries.contains { $0.points < 0 } && entries.contains { $0.points > 0 })
        await engage.shutdown()
        await harness.stop()
    }

    // MARK: Merchants

    @Test("merchants() without filters lists every merchant and keeps them in the state")
    func allMerchants() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let merchants = try await warply.merchants()
        #expect(merchants.count == 13)
        #expect(warply.state.merchantList == merchants)
        #expect(merchants.allSatisfy { $0.distanceMeters == nil && $0.location != nil })
        #expect(merchants.allSatisfy { $0.logo?.contains(#"\/"#) != true })
        let english = try await warply.merchants(WarplyMerchantQuery(language: .english))
        #expect(english.map(\.uuid) == merchants.map(\.uuid))
        #expect(english.contains { $0.name == "Sklavenitis Ampelokipoi" })
        #expect(merchants.contains { $0.name == "Σκλαβενίτης Αμπελοκήπων" })
        #expect(warply.state.merchantList == english)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("merchants() with each filter: categories, defaultShown, tags, uuid, parentUUIDs")
    func merchantFilters() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let all = try await warply.merchants(WarplyMerchantQuery(language: .english))
        let categories = try await warply.merchantCategories()
        let supermarketCategory = try #require(categories.first { $0.adminName == "supermarket" })

        let supermarkets = try await warply.merchants(WarplyMerchantQuery(categories: [supermarketCategory.uuid]))
        #expect(supermarkets.count == 3)
        #expect(supermarkets.allSatisfy { $0.categories.contains(supermarketCategory.uuid) })
        #expect(warply.state.merchantList == supermarkets)
        let byAdminName = try await warply.merchants(WarplyMerchantQuery(categories: ["supermarket"]))
        #expect(byAdminName.map(\.uuid) == supermarkets.map(\.uuid))

        let shown = try await warply.merchants(WarplyMerchantQuery(defaultShown: true))
        #expect(shown.count == all.filter { $0.isDefaultShown }.count)
        #expect(!shown.isEmpty && shown.allSatisfy { $0.isDefaultShown })

        let coffee = try await warply.merchants(WarplyMerchantQuery(tags: ["coffee"]))
        #expect(coffee.count == 2)
        #expect(coffee.allSatisfy { $0.tags.contains("coffee") })

        let parent = try #require(all.first { $0.name == "Sklavenitis Ampelokipoi" })
        let one = try await warply.merchants(WarplyMerchantQuery(uuid: parent.uuid))
        #expect(one.map(\.uuid) == [parent.uuid])

        let children = try await warply.merchants(WarplyMerchantQuery(language: .english, parentUUIDs: [parent.uuid]))
        #expect(children.map(\.name) == ["Sklavenitis Kalamaria"])
        #expect(children.allSatisfy { $0.parentUUID == parent.uuid })

        // What went over the wire.
        let sent = WarplyE2E.contextBodies(harness, WarplyPaths.standardContext).filter { $0.root == WarplyWire.Root.shops }
        #expect(sent.contains { $0.strings("categories") == [supermarketCategory.uuid] })
        #expect(sent.contains { $0.fields["default_shown"] == .bool(true) })
        #expect(sent.contains { $0.strings("tags") == ["coffee"] })
        #expect(sent.contains { $0.string("uuid") == parent.uuid })
        #expect(sent.contains { $0.strings("parent_uuids") == [parent.uuid] })

        // Bad filters are refused before anything is sent.
        let count = harness.requests(to: WarplyPaths.standardContext).count
        await #expect { try await warply.merchants(WarplyMerchantQuery(distanceKilometers: 5)) } throws: {
            WarplyE2E.code($0) == .invalidInput
        }
        await #expect { try await warply.merchants(WarplyMerchantQuery(center: try Self.syntagma(), distanceKilometers: 0)) } throws: {
            WarplyE2E.code($0) == .invalidInput
        }
        await #expect { try await warply.merchants(WarplyMerchantQuery(tags: ["a\nb"])) } throws: { WarplyE2E.code($0) == .invalidInput }
        #expect(harness.requests(to: WarplyPaths.standardContext).count == count)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("merchants() with a centre and a distance: only those within, nearest first, with distances")
    func merchantsNear() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let center = try Self.syntagma()
        let all = try await warply.merchants()
        let expected = Set(all.filter { ($0.location.map { center.distance(to: $0) } ?? .infinity) <= 2_000 }.map(\.uuid))
        #expect(expected.count >= 3 && expected.count < all.count)

        let near = try await warply.merchants(WarplyMerchantQuery(center: center, distanceKilometers: 2))
        #expect(Set(near.map(\.uuid)) == expected)
        let distances = near.compactMap(\.distanceMeters)
        #expect(distances.count == near.count)
        #expect(WarplyE2E.isAscending(distances))
        #expect(distances.allSatisfy { $0 <= 2_000 })
        for merchant in near {
            let location = try #require(merchant.location)
            #expect(abs((merchant.distanceMeters ?? -1) - center.distance(to: location)) < 1)
        }
        #expect(warply.state.merchantList == near)
        let sent = try #require(WarplyE2E.contextBodies(harness, WarplyPaths.standardContext).last)
        #expect(sent.fields["center"] == .object(["lat": .number(37.9755), "lon": .number(23.7348)]))

        // A centre alone sorts everything by distance.
        let sorted = try await warply.merchants(WarplyMerchantQuery(center: center))
        #expect(sorted.count == all.count)
        #expect(WarplyE2E.isAscending(sorted.compactMap(\.distanceMeters)))
        #expect(sorted.last?.city == "Θεσσαλονίκη")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("merchantCategories in both languages")
    func merchantCategories() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let greek = try await warply.merchantCategories()
        let english = try await warply.merchantCategories(language: .english)
        #expect(greek.count == 6)
        #expect(greek.map(\.uuid) == english.map(\.uuid))
        #expect(english.contains { $0.name == "Supermarkets" })
        #expect(greek.contains { $0.name == "Σούπερ μάρκετ" })
        #expect(greek.allSatisfy { $0.imageURL != nil && $0.adminName != nil })
        await engage.shutdown()
        await harness.stop()
    }

    // MARK: Content

    @Test("articles, all and by category, with cleaned image URLs")
    func articles() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let articles = try await warply.articles()
        #expect(articles.count == 6)
        #expect(articles.allSatisfy { $0.imageURL?.contains(#"\/"#) == false && $0.resolvedImageURL != nil })
        #expect(articles.allSatisfy { $0.language == "el" })
        let tips = try await warply.articles(language: .english, categories: ["tips"])
        #expect(tips.count == 2)
        #expect(tips.allSatisfy { $0.categories.contains("tips") && $0.language == "en" })
        let several = try await warply.articles(categories: ["tips", "energy"])
        #expect(several.count == 3)
        let sent = try #require(WarplyE2E.contextBodies(harness, WarplyPaths.standardContext).last)
        #expect(sent.root == WarplyWire.Root.content && sent.strings("categories") == ["tips", "energy"])
        #expect(try await warply.articles(categories: ["no-such-category"]).isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    // MARK: Market pass

    @Test("marketPassDetails fills the state, the map URL and publishes market_pass_details_fetched")
    func marketPass() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let recorder = WarplyEventRecorder(engage.events)
        #expect(warply.marketPassMapURL == nil)
        #expect(warply.state.marketPassDetails == nil)
        let details = try await warply.marketPassDetails()
        let barcode = try #require(details.barcode)
        #expect(barcode.hasPrefix("99") && barcode.count == 13)
        #expect(details.supermarkets.count == 3)
        #expect(details.totalDiscount == 20)
        #expect((1...5).contains(details.newOffers))
        #expect(warply.state.marketPassDetails == details)
        #expect(warply.marketPassMapURL == URL(string: "https://engage-uat.dei.gr/market-pass/map"))
        let names = await recorder.names()
        #expect(names.contains("market_pass_details_fetched"))
        #expect(names.contains("custom_success_market_pass_details_loyalty"))
        // A logout forgets it.
        try await warply.logOut()
        #expect(warply.state.marketPassDetails == nil)
        #expect(warply.marketPassMapURL == nil)
        await engage.shutdown()
        await harness.stop()
    }

    // MARK: Device and network status

    @Test("updateDeviceToken sends the token and device details and feeds the campaign pages' fcm_token")
    func updateDeviceToken() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        try await warply.updateDeviceToken("push-token-abc")
        func tokenUpdates() -> [WarplyEmulatorContextRequest] {
            harness.emulator.receivedDeviceInfo.filter { $0.action == WarplyWire.Action.updateToken }
        }
        let received = try #require(tokenUpdates().first)
        #expect(tokenUpdates().count == 1)
        #expect(received.root == WarplyWire.Root.deviceInfo)
        #expect(received.string("device_token") == "push-token-abc")
        #expect(received.string("unique_device_id") == "device-under-test")
        #expect(received.string("platform")?.isEmpty == false)
        #expect(received.string("device_model") == DevicePlatform.model)
        #expect(received.string("sdk_version") == WarplyProvider.descriptor.version)
        let campaign = try #require(try await warply.campaigns().first)
        #expect(try await warply.campaignParameters(for: campaign).values["fcm_token"] == "push-token-abc")
        await #expect { try await warply.updateDeviceToken("") } throws: { WarplyE2E.code($0) == .invalidInput }
        #expect(tokenUpdates().count == 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("networkStatus: connected after a call, disconnected after a dropped connection, connected again")
    func networkStatus() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        _ = try await warply.merchantCategories()
        #expect(warply.networkStatus == .connected)
        #expect(warply.networkStatus.rawValue == 1)

        // resetPassword is not repeatable: nothing resends it behind our back.
        let path = WarplyWire.path(.resetPassword, appUUID: WarplyHarness.appUUID)
        let fault = harness.host.faults.inject(FaultRule(.dropConnection, emulatorID: "warply", method: "POST", path: path))
        await #expect { try await warply.resetPassword(email: "eleni@example.gr") } throws: { error in
            let error = error as? EngageError
            return (error?.code == .network || error?.code == .timeout) && error?.isRetryable == true
        }
        #expect(warply.networkStatus == .disconnected)
        #expect(warply.networkStatus.rawValue == 0)
        #expect(harness.emulator.passwordResetRequests.isEmpty)

        harness.host.faults.remove(fault)
        _ = try await warply.merchantCategories()
        #expect(warply.networkStatus == .connected)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("networkStatus is disconnected when the host is gone")
    func networkStatusStoppedHost() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        _ = try await warply.articles()
        #expect(warply.networkStatus == .connected)
        await harness.stop()
        await #expect { try await warply.articles() } throws: { WarplyE2E.code($0) == .network || WarplyE2E.code($0) == .timeout }
        #expect(warply.networkStatus == .disconnected)
        await engage.shutdown()
    }
}
