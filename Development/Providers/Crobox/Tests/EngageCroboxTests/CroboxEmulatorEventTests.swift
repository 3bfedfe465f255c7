@_spi(EngageProvider) @testable import EngageCore
import CroboxEmulator
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) import EngageSandbox
import Foundation
import EngageTestTraits
import Testing

@Suite("Crobox emulator: events", .bounded)
struct CroboxEmulatorEventTests {
    @Test("the event pixel answers a real 1x1 transparent GIF")
    func gifResponse() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let reply = try await harness.event("cid=xlrc9t&t=pageview")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "image/gif")
            #expect(reply.body.count == 43)
            #expect(Array(reply.body) == CroboxEmulator.transparentGIF)
            #expect(reply.body.prefix(6) == Data("GIF89a".utf8))
            // 1x1 logical screen, trailer last.
            #expect(Array(reply.body[6..<10]) == [1, 0, 1, 0])
            #expect(reply.body.last == 0x3B)
            #expect(harness.emulator.receivedEvents.count == 1)
            let entries = harness.host.journal.entries(for: "crobox")
            #expect(entries.map(\.path) == ["/socket.gif"])
            #expect(entries.first?.status == 200)
        }
    }

    @Test("an iOS page view is parsed: common parameters, [i] impressions, cp.* and the base-36 ts")
    func iOSPageView() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let items =
                CroboxEmulatorHarness.commonItems(counter: 3) + [
                    ("t", "pageview"), ("dt", "Shoes & more"), ("pi", "sku-1"), ("price", "1.0"), ("qty", "2"),
                    ("[0]", "sku-10"), ("[1]", "sku-11"), ("[2]", "sku-12"),
                    ("cp.size", "42"), ("cp.colour", "dark blue"), ("lh", "Overview"),
                ]
            #expect(try await harness.event(items).status == 200)
            let event = try #require(harness.emulator.receivedEvents.first)
            #expect(event.type == CroboxWire.EventType.pageView)
            #expect(event.containerID == "xlrc9t")
            #expect(event.visitorID == CroboxEmulatorHarness.visitor)
            #expect(event.visitorUUID == UUID(uuidString: CroboxEmulatorHarness.visitor))
            #expect(event.counter == 3)
            #expect(event.viewID == CroboxEmulatorHarness.view)
            #expect(event.pageType == 2)
            #expect(event.sdk == 1)
            #expect(event.dialect == .iOS)
            #expect(event.timestamp == Date(timeIntervalSince1970: 1_711_554_991.093))
            #expect(event.productID == "sku-1")
            #expect(event.price == 1.0)
            #expect(event.quantity == 2)
            #expect(event.impressions == ["sku-10", "sku-11", "sku-12"])
            #expect(event.customProperties == ["size": "42", "colour": "dark blue"])
            #expect(event["dt"] == "Shoes & more")
            #expect(event["lh"] == "Overview")
            #expect(event["lc"] == "en_US")
            #expect(event.checksum == nil)
            #expect(event.queryItems.map(\.name) == items.map(\.0))
            #expect(event.queryItems.map(\.value) == items.map(\.1))
            #expect(event.rawQuery == CroboxWire.encodeQuery(items))
        }
    }

    @Test("Android imp[i] and iOS [i] impressions are both collected, in numeric index order")
    func impressionForms() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let android = CroboxEmulatorHarness.androidQuery([
                ("cid", "xlrc9t"), ("t", "pageview"), ("sdk", "2"),
                ("imp[10]", "ten"), ("imp[2]", "two"), ("imp[0]", "zero"), ("imp[1]", "one"),
            ])
            #expect(try await harness.event(android).status == 200)
            // Raw (unencoded) brackets are accepted too, and both forms may be mixed.
            #expect(try await harness.event("cid=xlrc9t&t=pageview&[1]=b&imp[0]=a&[2]=c&imp[x]=no&[]=no").status == 200)
            let events = harness.emulator.receivedEvents
            try #require(events.count == 2)
            #expect(events[0].impressions == ["zero", "one", "two", "ten"])
            #expect(events[0].dialect == .android)
            #expect(events[1].impressions == ["a", "b", "c"])
        }
    }

    @Test(
        "ts decodes from base-36 epoch milliseconds",
        arguments: [
            ("lu9znf91", 1_711_554_991.093),
            (CroboxWire.timestamp(Date(timeIntervalSince1970: 1_800_000_000.5)), 1_800_000_000.5),
            ("0", 0),
        ])
    func timestamp(text: String, seconds: Double) async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            #expect(try await harness.event([("cid", "xlrc9t"), ("t", "click"), ("ts", text)]).status == 200)
            #expect(harness.emulator.receivedEvents.first?.timestamp == Date(timeIntervalSince1970: seconds))
        }
    }

    @Test(
        "the z checksum is verified with the wire vectors",
        arguments: [
            // (query, passes the checksum): a passing query without cid is then refused for the missing cid.
            ("foobar=bla&z=az968c", true),
            ("john=doe&foobar=bla&z=-hfa74c", true),
            ("foobar=bla&john=doe&z=-1lmz7r", true),
            ("foobar=bla&z=-hfa74c", false),
            ("john=doe&foobar=bla&z=-1lmz7r", false),
        ])
    func checksumVectors(query: String, passes: Bool) async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let reply = try await harness.event(query)
            #expect(reply.status == 400)
            #expect(reply.errorCode == (passes ? "invalid_request" : "checksum mismatch"))
            #expect(harness.emulator.receivedEvents.isEmpty)
        }
    }

    @Test("an Android query with a valid z is accepted; a tampered one is refused and not recorded")
    func checksumVerification() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let items: [(String, String)] = [
                ("cid", "xlrc9t"), ("e", "0"), ("pid", CroboxEmulatorHarness.visitor.lowercased()), ("pt", "3"),
                ("sdk", "2"), ("ts", "lu9znf91"), ("t", "cart"), ("pi", "a+b c/ü"), ("price", "9.99"), ("qty", "1"),
            ]
            let query = CroboxEmulatorHarness.androidQuery(items)
            let accepted = try await harness.event(query)
            #expect(accepted.status == 200)
            let event = try #require(harness.emulator.receivedEvents.first)
            #expect(event.productID == "a+b c/ü")
            #expect(event.checksum == CroboxWire.checksum(ofEncodedQuery: CroboxWire.encodeQuery(items)))
            #expect(event.visitorUUID == UUID(uuidString: CroboxEmulatorHarness.visitor))

            let tampered = query.replacingOccurrences(of: "qty=1", with: "qty=2")
            let refused = try await harness.event(tampered)
            #expect(refused.status == 400)
            #expect(refused.errorCode == "checksum mismatch")
            #expect(refused.header("Content-Type") == "application/json")

            let doubled = try await harness.event(query + "&z=0")
            #expect(doubled.status == 400)
            #expect(doubled.errorCode == "checksum mismatch")
            #expect(harness.emulator.receivedEvents.count == 1)
        }
    }

    @Test("the checksum covers the query without z wherever z stands")
    func checksumNotLast() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let encoded = CroboxWire.encodeQuery([("cid", "xlrc9t"), ("t", "click"), ("pi", "p1")])
            let query = "z=" + CroboxWire.checksum(ofEncodedQuery: encoded) + "&" + encoded
            #expect(try await harness.event(query).status == 200)
            #expect(harness.emulator.receivedEvents.first?.productID == "p1")
        }
    }

    @Test(
        "a missing cid or t is 400 and nothing is recorded",
        arguments: [
            "t=pageview", "cid=xlrc9t", "cid=&t=pageview", "cid=xlrc9t&t=", "",
        ])
    func missingRequired(query: String) async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let reply = try await harness.event(query)
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_request")
            #expect(harness.emulator.receivedEvents.isEmpty)
        }
    }

    @Test(
        "malformed typed parameters are 400",
        arguments: [
            "e=one", "e=-1", "pt=detail", "sdk=ios", "ts=!!", "price=cheap", "qty=1.5",
        ])
    func malformedParameters(parameter: String) async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let reply = try await harness.event("cid=xlrc9t&t=click&" + parameter)
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_request")
            #expect(harness.emulator.receivedEvents.isEmpty)
        }
    }

    @Test("values decode by RFC 3986: + is a literal plus, %2B a plus, %20 a space")
    func plusIsLiteral() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            #expect(try await harness.event("cid=xlrc9t&t=click&pi=a+b%2Bc%20d&cp.q=x+y").status == 200)
            let event = try #require(harness.emulator.receivedEvents.first)
            #expect(event.productID == "a+b+c d")
            #expect(event.customProperties == ["q": "x+y"])
        }
    }

    @Test("error, custom, checkout and purchase events keep their own parameters")
    func otherEventTypes() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let common = CroboxEmulatorHarness.commonItems()
            let promoID = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
            #expect(
                try await harness.event(common + [("t", "error"), ("tg", "sdk"), ("nm", "promotions"), ("msg", "timed out")]).status == 200)
            #expect(
                try await harness.event(common + [("t", "event"), ("nm", "wishlist"), ("promoId", promoID), ("pi", "p9")]).status == 200)
            #expect(try await harness.event(common + [("t", "pageview"), ("stp", "2"), ("[0]", "p1")]).status == 200)
            #expect(
                try await harness.event(common + [("t", "pageview"), ("tid", "T-1"), ("aff", "web"), ("cpn", "SAVE10"), ("rev", "19.98")])
                    .status == 200)

            let errors = harness.emulator.receivedEvents(ofType: CroboxWire.EventType.error)
            #expect(errors.map { [$0["tg"], $0["nm"], $0["msg"]] } == [["sdk", "promotions", "timed out"]])
            let custom = try #require(harness.emulator.receivedEvents(ofType: CroboxWire.EventType.custom).first)
            #expect(custom["promoId"] == promoID)
            #expect(custom.productID == "p9")
            let pageViews = harness.emulator.receivedEvents(ofType: CroboxWire.EventType.pageView)
            #expect(pageViews.map { $0["stp"] } == ["2", nil])
            #expect(pageViews.last?["rev"] == "19.98")
            #expect(pageViews.last?["cpn"] == "SAVE10")
            #expect(harness.emulator.receivedEvents.count == 4)
        }
    }

    @Test("concurrent events are all recorded, each once")
    func concurrentEvents() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for counter in 0..<40 {
                    group.addTask {
                        try await harness.event(CroboxEmulatorHarness.commonItems(counter: counter) + [("t", "click")]).status
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            let counters = harness.emulator.receivedEvents.compactMap(\.counter)
            #expect(counters.sorted() == Array(0..<40))
        }
    }

    @Test("reset forgets recorded events")
    func reset() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            #expect(try await harness.event("cid=xlrc9t&t=click").status == 200)
            #expect(harness.emulator.receivedEvents.count == 1)
            harness.emulator.reset()
            #expect(harness.emulator.receivedEvents.isEmpty)
        }
    }
}
