@_spi(EngageProvider) @testable import EngageCore
import CroboxEmulator
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("Crobox events end to end", .bounded)
struct CroboxEventTests {
    @Test("engage.logIn reaches Crobox: its user id is sent as uid from then on; engage.logOut stops it")
    func identityThroughTheFacade() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        let page = CroboxPage(pageType: .overview)
        let report = try await engage.logIn(UserIdentity(userID: "u-7", email: "ana@example.com"))
        #expect(report.succeeded.contains(.crobox))
        #expect(report.failures[.crobox] == nil)
        #expect(crobox.currentUserID == "u-7")
        try await crobox.send(.click(CroboxProduct(id: "sku-1")), on: page)
        await harness.flush(engage)
        #expect(harness.emulator.receivedEvents.last?.value("uid") == "u-7")
        #expect(harness.emulator.receivedEvents.last?.value("email") == nil)

        let out = try await engage.logOut()
        #expect(out.succeeded.contains(.crobox))
        #expect(crobox.currentUserID == nil)
        try await crobox.send(.click(CroboxProduct(id: "sku-2")), on: page)
        await harness.flush(engage)
        #expect(harness.emulator.receivedEvents.last?.value("uid") == nil)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("engage.screen reaches Crobox as a page view titled with the screen, its properties as custom properties")
    func screenThroughTheFacade() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let report = try await engage.screen("Cart", properties: ["items": 3])
        #expect(report.succeeded == [.crobox])
        await harness.flush(engage)
        let event = try #require(harness.emulator.receivedEvents.last)
        #expect(event.value("t") == "pageview" && event.value("dt") == "Cart")
        #expect(event.value("cp.items") == "3")
        await engage.shutdown()
        await harness.stop()
    }

    /// Before, `reset()` renewed the visitor id but kept the default page: its view id and its running
    /// counter went on into the new visitor's events, linking the old visitor to the new one.
    @Test("reset: the facade's events carry a new visitor, a new view id and a counter from 0")
    func resetStartsANewView() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        for name in ["first", "second"] { _ = try await engage.track(TrackedEvent(.custom, name: name)) }
        await harness.flush(engage)
        let before = try #require(harness.emulator.receivedEvents.last)
        try await crobox.reset()
        _ = try await engage.track(TrackedEvent(.custom, name: "after"))
        await harness.flush(engage)
        let after = try #require(harness.emulator.receivedEvents.last)
        #expect(after.visitorID != before.visitorID)
        #expect(after.viewID != before.viewID, "the old visitor's view id went on after the reset")
        #expect(before.counter == 1 && after.counter == 0, "the counter went on: \(String(describing: after.counter))")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("engage.track's JSON properties reach Crobox as text: numbers and booleans as written, arrays and objects as JSON")
    func jsonPropertiesAsText() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let event = TrackedEvent(
            .checkout, name: "checkout",
            properties: [
                "step": 2, "express": true, "ratio": 0.5, "tags": ["a", "b"], "box": ["w": 3, "h": 1], "note": nil, "plan": "gold",
            ])
        _ = try await engage.track(event)
        await harness.flush(engage)
        let received = try #require(harness.emulator.receivedEvents.last)
        #expect(received.value("stp") == "2")  // the checkout step, read from a number
        #expect(received.value("cp.express") == "true")
        #expect(received.value("cp.ratio") == "0.5")
        #expect(received.value("cp.tags") == #"["a","b"]"#)
        #expect(received.value("cp.box") == #"{"h":1,"w":3}"#)
        #expect(received.value("cp.note") == "")
        #expect(received.value("cp.plan") == "gold")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("every event type arrives with exactly the expected query parameters, in order")
    func everyEventType() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        let page = CroboxPage(pageType: .overview, pageName: "Sneakers", customProperties: ["section": "men"])
        let shoe = CroboxProduct(id: "sku-1", price: 49.9, quantity: 2)
        let events: [CroboxEvent] = [
            .pageView(
                title: "Sneakers", searchTerms: "running shoes", product: shoe, otherProductIDs: ["a", "b"],
                impressions: ["sku-1", "sku-2"]),
            .click(CroboxProduct(id: "sku-2", price: 1.0, quantity: 1)),
            .addToCart(shoe),
            .removeFromCart(CroboxProduct(id: "sku-1")),
            .checkout(step: "2", impressions: ["sku-1"]),
            .purchase(transactionID: "T-100", affiliation: "web shop", coupon: "SPRING+10", revenue: 99.8, impressions: ["sku-1"]),
            .error(tag: "app", name: "checkout", message: "card declined", file: "Checkout.swift", line: 42),
            .custom(
                name: "wishlist", promotionID: UUID(uuidString: "6F1D1B6C-1A7B-4E8E-9C65-3C6B2E0B9A10"), product: CroboxProduct(id: "sku-3")
            ),
        ]
        for event in events { try await crobox.send(event, on: page) }
        await harness.flush(engage)
        let received = harness.emulator.receivedEvents
        #expect(received.count == events.count)

        let ts = CroboxWire.timestamp(harness.clock.now)
        func common(_ counter: Int) -> [(String, String)] {
            [
                ("cid", "xlrc9t"), ("pid", crobox.visitorID.uuidString), ("e", String(counter)), ("vid", page.viewID.uuidString),
                ("pt", "2"), ("sdk", "1"), ("cc", "EUR"), ("lc", "en_US"), ("uid", "user-42"), ("tz", "2"), ("ts", ts), ("lh", "Sneakers"),
            ]
        }
        let properties = [("cp.channel", "app"), ("cp.section", "men")]
        let expected: [[(String, String)]] = [
            [
                ("t", "pageview"), ("dt", "Sneakers"), ("st", "running shoes"), ("pi", "sku-1"), ("price", "49.9"), ("qty", "2"),
                ("lst", "a,b"), ("[0]", "sku-1"), ("[1]", "sku-2"),
            ],
            [("t", "click"), ("pi", "sku-2"), ("price", "1.0"), ("qty", "1")],
            [("t", "cart"), ("pi", "sku-1"), ("price", "49.9"), ("qty", "2")],
            [("t", "rmcart"), ("pi", "sku-1")],
            [("t", "pageview"), ("stp", "2"), ("[0]", "sku-1")],
            [("t", "pageview"), ("tid", "T-100"), ("aff", "web shop"), ("cpn", "SPRING+10"), ("rev", "99.8"), ("[0]", "sku-1")],
            [("t", "error"), ("tg", "app"), ("nm", "checkout"), ("msg", "card declined"), ("f", "Checkout.swift"), ("l", "42")],
            [("t", "event"), ("nm", "wishlist"), ("promoId", "6f1d1b6c-1a7b-4e8e-9c65-3c6b2e0b9a10"), ("pi", "sku-3")],
        ]
        for (index, event) in received.enumerated() {
            let want = common(index) + expected[index] + properties
            #expect(event.pairs.map { "\($0.0)=\($0.1)" } == want.map { "\($0.0)=\($0.1)" }, "event \(index)")
        }
        // '+' travelled as %2B and arrived as a literal plus.
        #expect(received[5].rawQuery.contains("cpn=SPRING%2B10"))
        await engage.shutdown()
        await harness.stop()
    }

    @Test("ts is now in base 36 and the counter counts every request of the page")
    func timestampAndCounter() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        let page = CroboxPage(pageType: .detail)
        try await crobox.send(.click(CroboxProduct(id: "a")), on: page)
        _ = try await crobox.promotions(placeholderID: "1", page: page, productIDs: ["a"])
        harness.clock.advance(by: .seconds(90))
        try await crobox.send(.click(CroboxProduct(id: "b")), on: page)
        await harness.flush(engage)
        let events = harness.emulator.receivedEvents
        #expect(events.map(\.counter) == [0, 2])
        #expect(harness.emulator.promotionRequests.map(\.counter) == [1])
        let first = try #require(events.first?.timestamp)
        #expect(abs(first.timeIntervalSince(Date())) < 120)
        #expect(events[1].timestamp.map { $0.timeIntervalSince(first) } == 90)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("1000 concurrent events from one page carry the counter values 0...999 exactly once")
    func concurrentCounter() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        let page = CroboxPage(pageType: .overview)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<1000 {
                group.addTask { try await crobox.send(.click(CroboxProduct(id: "p\(index)")), on: page) }
            }
            try await group.waitForAll()
        }
        await harness.flush(engage)
        let counters = harness.emulator.receivedEvents.compactMap(\.counter)
        #expect(counters.count == 1000)
        #expect(counters.sorted() == Array(0..<1000))
        await engage.shutdown()
        await harness.stop()
    }

    @Test("events queued while the backend is down survive a restart and are delivered once")
    func surviveRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crobox-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = InMemorySecretStore()
        let harness = try await CroboxHarness()
        harness.host.faults.inject(FaultRule(.status(503), emulatorID: "crobox", path: "/socket.gif"))

        let first = try await harness.start(storage: .directory(directory), secretStore: keys)
        let visitor = try await first.provider(CroboxProvider.self).visitorID
        let page = CroboxPage(pageType: .cart)
        for id in ["a", "b", "c"] {
            try await first.provider(CroboxProvider.self).send(.addToCart(CroboxProduct(id: id)), on: page)
        }
        let failed = await harness.flush(first)
        #expect(failed.delivered == 0)
        #expect(try await first.registry.analytics.pendingCount() == 3)
        await first.shutdown()
        #expect(harness.emulator.receivedEvents.isEmpty)
        // A failing network produced no error events of its own, and no more attempts than events.
        let attempts = harness.host.journal.entries(matching: "/socket.gif")
        #expect(!attempts.isEmpty && attempts.count <= 3)
        #expect(attempts.allSatisfy { $0.query["t"] == "cart" })

        harness.host.faults.removeAll()
        harness.clock.advance(by: .seconds(3600))
        let second = try await harness.start(storage: .directory(directory), secretStore: keys)
        #expect(try await second.provider(CroboxProvider.self).visitorID == visitor)
        await harness.flush(second)
        #expect(harness.emulator.receivedEvents.map(\.productID) == ["a", "b", "c"])
        #expect(harness.emulator.receivedEvents.map(\.counter) == [0, 1, 2])
        #expect(await harness.flush(second).delivered == 0)
        await second.shutdown()
        await harness.stop()
    }

    @Test("one rejected event is dropped alone; a failing backend keeps the event it failed on and the ones behind it, in order")
    func poisonEventDropsOnlyItself() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        let page = CroboxPage(pageType: .cart)
        // The first event sent is refused for good (400): only it is dropped.
        _ = harness.host.faults.inject(FaultRule(.status(400), emulatorID: "crobox", path: "/socket.gif", trigger: .times(1)))
        for id in ["a", "b", "c", "d", "e"] { try await crobox.send(.addToCart(CroboxProduct(id: id)), on: page) }
        let first = await harness.flush(engage)
        #expect(first.dropped == 1)
        #expect(first.delivered == 4)
        #expect(harness.emulator.receivedEvents.map(\.productID) == ["b", "c", "d", "e"])

        // A 503 for the first event of the next batch: it is kept, and the ones after it wait behind it
        // (in order, never charged an attempt) until Crobox answers again.
        _ = harness.host.faults.inject(FaultRule(.status(503), emulatorID: "crobox", path: "/socket.gif", trigger: .times(1)))
        for id in ["f", "g", "h"] { try await crobox.send(.addToCart(CroboxProduct(id: id)), on: page) }
        let second = await harness.flush(engage)
        #expect(second.retried == 3)
        #expect(second.delivered == 0)
        #expect(try await engage.registry.analytics.pendingCount() == 3)
        harness.clock.advance(by: .seconds(3600))
        #expect(await harness.flush(engage).delivered == 3)
        #expect(harness.emulator.receivedEvents.map(\.productID) == ["b", "c", "d", "e", "f", "g", "h"])
        #expect(Set(harness.emulator.receivedEvents.map(\.productID)) == ["b", "c", "d", "e", "f", "g", "h"])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the Android dialect sends imp[i] and a z checksum the backend verifies")
    func androidDialect() async throws {
        let harness = try await CroboxHarness()
        var configuration = harness.croboxConfiguration()
        configuration.dialect = .android
        configuration.includesChecksum = true
        let engage = try await harness.start(configuration)
        let crobox = try await engage.provider(CroboxProvider.self)
        try await crobox.send(.pageView(title: "Home", impressions: ["x", "y+z"]), on: CroboxPage(pageType: .index))
        await harness.flush(engage)
        let event = try #require(harness.emulator.receivedEvents.first)
        #expect(event.sdk == 2)
        #expect(event.impressions == ["x", "y+z"])
        #expect(event.value("imp[1]") == "y+z")
        #expect(event.checksum != nil)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("invalid events are rejected before they are stored")
    func invalidEvents() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        let page = CroboxPage(pageType: .other)
        for event in [
            CroboxEvent.click(CroboxProduct(id: "")), .addToCart(CroboxProduct(id: "a", price: -1)), .custom(name: ""),
            .addToCart(CroboxProduct(id: "a", price: .infinity)),
            .purchase(transactionID: "T-1", affiliation: nil, coupon: nil, revenue: -10, impressions: []),
            .purchase(transactionID: "T-2", affiliation: nil, coupon: nil, revenue: .nan, impressions: []),
        ] {
            await #expect { try await crobox.send(event, on: page) } throws: { ($0 as? EngageError)?.code == .invalidInput }
        }
        #expect(try await engage.registry.analytics.pendingCount() == 0)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the facade's track maps app events to Crobox events")
    func facadeTrack() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        _ = try await engage.track(
            TrackedEvent(.addToCart, productID: "sku-9", price: try Money(decimal: "12.50", currency: "EUR"), quantity: 3))
        _ = try await engage.track(
            TrackedEvent(
                .purchase, price: try Money(decimal: "10", currency: "EUR"), quantity: 2,
                properties: ["transaction_id": "T-9", "gift": "yes"]))
        _ = try await engage.track(TrackedEvent(.custom, name: "newsletter_signup"))
        await harness.flush(engage)
        let events = harness.emulator.receivedEvents
        #expect(events.map(\.type) == ["cart", "pageview", "event"])
        #expect(events[0].value("price") == "12.5")
        #expect(events[0].value("qty") == "3")
        #expect(events[1].value("tid") == "T-9")
        #expect(events[1].value("rev") == "20.0")
        #expect(events[1].value("cp.gift") == "yes")
        #expect(events[2].value("nm") == "newsletter_signup")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the callback form of send stores the event and reports on the callback queue")
    func callbackSend() async throws {
        let harness = try await CroboxHarness()
        let engage = try await harness.start()
        let crobox = try await engage.provider(CroboxProvider.self)
        let result = await withCheckedContinuation { continuation in
            crobox.send(.click(CroboxProduct(id: "cb")), on: CroboxPage(pageType: .detail)) { continuation.resume(returning: $0) }
        }
        #expect(throws: Never.self) { try result.get() }
        await harness.flush(engage)
        #expect(harness.emulator.receivedEvents.map(\.productID) == ["cb"])
        await engage.shutdown()
        await harness.stop()
    }
}
