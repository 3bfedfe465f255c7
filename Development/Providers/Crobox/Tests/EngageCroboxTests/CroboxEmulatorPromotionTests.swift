@_spi(EngageProvider) @testable import EngageCore
import CroboxEmulator
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) import EngageSandbox
import Foundation
import EngageTestTraits
import Testing

@Suite("Crobox emulator: promotions", .bounded)
struct CroboxEmulatorPromotionTests {
    @Test("no products: one page-level promotion without productId, and the campaign context")
    func noProducts() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let reply = try await harness.promotions(productIDs: [])
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            let response = try reply.promotions()
            // The client reads the emulator's own campaign as it would read Crobox's.
            #expect(
                response.context.campaigns
                    == CroboxEmulator.Configuration.defaultCampaigns.map {
                        CroboxCampaign(
                            id: $0.id, name: $0.name, variantID: $0.variantID, variantName: $0.variantName, isControl: $0.isControl)
                    })
            #expect(response.context.groupName == "Campaign 1 : Crobox")
            #expect(response.context.visitorID == UUID(uuidString: CroboxEmulatorHarness.visitor))
            try #require(response.promotions.count == 1)
            let promotion = response.promotions[0]
            #expect(promotion.productID == nil)
            #expect(promotion.campaignID == 1)
            #expect(promotion.variantID == 1)
            #expect(promotion.content != nil)
            // productId is absent from the JSON, not null.
            let json = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
            let promotions = try #require(json["promotions"] as? [[String: Any]])
            #expect(promotions.first?.keys.contains("productId") == false)
            let request = try #require(harness.emulator.promotionRequests.first)
            #expect(request.productIDs.isEmpty)
            #expect(request.rawBody.isEmpty)
        }
    }

    @Test("one product: its promotion echoes the id and carries its catalogue message")
    func oneProduct() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let response = try await harness.promotions(productIDs: ["Product1"]).promotions()
            try #require(response.promotions.count == 1)
            let promotion = response.promotions[0]
            #expect(promotion.productID == "Product1")
            let expected = try #require(harness.emulator.message(forProductID: "Product1"))
            #expect(promotion.content?.componentName == expected.componentName)
            #expect(promotion.content?.config == expected.config)
        }
    }

    @Test("many products keep the request order, including ids with +, spaces, & and unicode")
    func manyProducts() async throws {
        let ids = ["Product3", "a+b", "with space", "x&y=z", "Käse 🧀", "%41", "Product1", "", "Product3"]
        try await CroboxEmulatorHarness.run { harness async throws in
            let reply = try await harness.promotions(productIDs: ids)
            #expect(reply.status == 200)
            let response = try reply.promotions()
            #expect(response.promotions.map(\.productID) == ids)
            #expect(Set(response.promotions.map(\.id)).count == ids.count)
            #expect(harness.emulator.promotionRequests.first?.productIDs == ids)
        }
    }

    @Test("the body is ordered by index, not by position")
    func bodyOrderedByIndex() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let query = CroboxWire.encodeQuery(CroboxEmulatorHarness.commonItems() + [("vpid", "1")])
            let reply = try await harness.promotions(query, body: "2=c&0=a&10=k&1=b&3=d&4=e&5=f&6=g&7=h&8=i&9=j")
            #expect(reply.status == 200)
            let expected = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]
            #expect(try reply.promotions().promotions.map(\.productID) == expected)
        }
    }

    @Test("the iOS SDK's unencoded body is read as sent (a raw + stays a plus)")
    func unencodedBody() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let query = CroboxWire.encodeQuery(CroboxEmulatorHarness.commonItems() + [("vpid", "1")])
            let reply = try await harness.promotions(query, body: "0=a b&1=c+d&2=Käse")
            #expect(reply.status == 200)
            #expect(try reply.promotions().promotions.map(\.productID) == ["a b", "c+d", "Käse"])
        }
    }

    @Test("the parsed request is recorded")
    func recordedRequest() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let items = CroboxEmulatorHarness.commonItems(counter: 5) + [("vpid", "14"), ("cp.segment", "vip")]
            let reply = try await harness.promotions(CroboxWire.encodeQuery(items), body: "0=p%2B1&1=p%202")
            #expect(reply.status == 200)
            let request = try #require(harness.emulator.promotionRequests.first)
            #expect(request.containerID == "xlrc9t")
            #expect(request.visitorID == UUID(uuidString: CroboxEmulatorHarness.visitor))
            #expect(request.placeholderID == "14")
            #expect(request.productIDs == ["p+1", "p 2"])
            #expect(request.counter == 5)
            #expect(request.viewID == CroboxEmulatorHarness.view)
            #expect(request.pageType == 2)
            #expect(request.sdk == 1)
            #expect(request.dialect == .iOS)
            #expect(request.timestamp == Date(timeIntervalSince1970: 1_711_554_991.093))
            #expect(request.customProperties == ["segment": "vip"])
            #expect(request.contentType == "application/x-www-form-urlencoded")
            #expect(request.rawBody == "0=p%2B1&1=p%202")
            #expect(request["lc"] == "en_US")
        }
    }

    @Test("an unknown or missing container is 405", arguments: ["cid=nope&", "cid=&", ""])
    func unknownContainer(container: String) async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let query = container + "pid=\(CroboxEmulatorHarness.visitor)&vpid=1"
            let reply = try await harness.promotions(query, body: "0=a")
            #expect(reply.status == 405)
            #expect(reply.errorCode == "unknown_container")
            #expect(harness.emulator.promotionRequests.isEmpty)
        }
    }

    @Test("configured containers are all accepted")
    func configuredContainers() async throws {
        let emulator = CroboxEmulator(configuration: .init(containerIDs: ["aaaaaa", "bbbbbb"]))
        try await CroboxEmulatorHarness.run(emulator) { harness async throws in
            #expect(try await harness.promotions(productIDs: ["x"], container: "aaaaaa").status == 200)
            #expect(try await harness.promotions(productIDs: ["x"], container: "bbbbbb").status == 200)
            #expect(try await harness.promotions(productIDs: ["x"], container: "xlrc9t").status == 405)
        }
    }

    @Test(
        "pid must be a UUID, in either letter case",
        arguments: [
            ("6c1b4c2e-3a7f-4e0b-9d36-2f7e5a1b9c40", 200),
            ("6C1B4C2E-3A7F-4E0B-9D36-2F7E5A1B9C40", 200),
            ("visitor-1", 400),
            ("6C1B4C2E3A7F4E0B9D362F7E5A1B9C40", 400),
            ("", 400),
        ])
    func visitorMustBeUUID(visitor: String, status: Int) async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let reply = try await harness.promotions(productIDs: ["a"], visitor: visitor)
            #expect(reply.status == status)
            if status == 200 {
                #expect(try reply.promotions().context.visitorID == UUID(uuidString: CroboxEmulatorHarness.visitor))
            } else {
                #expect(reply.errorCode == "invalid_request")
            }
        }
    }

    @Test("a missing pid or vpid is 400")
    func missingVisitorOrPlaceholder() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let noVisitor = try await harness.promotions("cid=xlrc9t&vpid=1", body: "0=a")
            #expect(noVisitor.status == 400)
            let noPlaceholder = try await harness.promotions("cid=xlrc9t&pid=\(CroboxEmulatorHarness.visitor)", body: "0=a")
            #expect(noPlaceholder.status == 400)
            #expect(noPlaceholder.errorCode == "invalid_request")
            let emptyPlaceholder = try await harness.promotions(productIDs: ["a"], placeholder: "")
            #expect(emptyPlaceholder.status == 400)
            #expect(harness.emulator.promotionRequests.isEmpty)
        }
    }

    @Test(
        "body keys must be indexes 0..<n without gaps or repeats",
        arguments: [
            "a=1", "0=a&2=c", "1=b", "0=a&0=b", "00=a", "-1=a", "+0=a", "0=a&x",
        ])
    func badBodyKeys(body: String) async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let query = CroboxWire.encodeQuery(CroboxEmulatorHarness.commonItems() + [("vpid", "1")])
            let reply = try await harness.promotions(query, body: body)
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_request")
            #expect(harness.emulator.promotionRequests.isEmpty)
        }
    }

    @Test("Android requests with a valid z are answered; a tampered z is 400")
    func androidChecksum() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            var items = CroboxEmulatorHarness.commonItems() + [("vpid", "1")]
            items[5] = ("sdk", "2")
            let query = CroboxEmulatorHarness.androidQuery(items)
            let body = CroboxWire.promotionsBody(productIDs: ["Product1", "Product2"])
            let answered = try await harness.promotions(query, body: body)
            #expect(answered.status == 200)
            #expect(try answered.promotions().promotions.count == 2)
            #expect(harness.emulator.promotionRequests.first?.dialect == .android)

            let tampered = try await harness.promotions(query.replacingOccurrences(of: "vpid=1", with: "vpid=2"), body: body)
            #expect(tampered.status == 400)
            #expect(tampered.errorCode == "checksum mismatch")
            #expect(harness.emulator.promotionRequests.count == 1)
        }
    }

    @Test("another content type is tolerated and recorded as sent")
    func contentType() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let query = CroboxWire.encodeQuery(CroboxEmulatorHarness.commonItems() + [("vpid", "1")])
            #expect(try await harness.promotions(query, body: "0=a", contentType: "text/plain").status == 200)
            #expect(harness.emulator.promotionRequests.first?.productIDs == ["a"])
            #expect(harness.emulator.promotionRequests.first?.contentType == "text/plain")
        }
    }
}
