import Engage
import EngageTestKit
import EngageTestTraits
import Foundation
import Testing

/// The test kit as an app's tests use it: `import Engage` and `import EngageTestKit`, no SPI.
@Suite("EngageFake: an Engage for an app's previews and tests", .bounded)
struct EngageFakeTests {
    static let coupon = Offer(id: "o-1", providerID: "fake", kind: .coupon, title: LocalizedText("10 % off"))
    static let video = ContentItem(id: "c-1", providerID: "fake", type: "video", title: LocalizedText("How to"))

    @Test("the facade's reads answer what the fake holds, and change when it does")
    func answers() async throws {
        let fake = EngageFake(offers: [Self.coupon], content: [Self.video])
        let offers = try await fake.engage.offers()
        #expect(offers.items.map(\.id) == ["o-1"])
        #expect(offers.report.succeeded == [EngageFake.providerID] && offers.isComplete)
        #expect(try await fake.engage.content().items.map(\.id) == ["c-1"])
        fake.offers = []
        #expect(try await fake.engage.offers().items.isEmpty)
        let near = MerchantSummary(id: "m-near", providerID: "fake", name: "Near", distanceMeters: 10)
        let far = MerchantSummary(id: "m-far", providerID: "fake", name: "Far", distanceMeters: 900)
        fake.merchants = [far, near]
        let merchants = try await fake.engage.merchants(near: try GeoPoint(latitude: 37.98, longitude: 23.73), radiusMeters: 1_000)
        #expect(merchants.items.map(\.id) == ["m-near", "m-far"])
        await fake.engage.shutdown()
    }

    @Test("a failure set for an operation is that operation's reported failure, until it is cleared")
    func failures() async throws {
        let fake = EngageFake(offers: [Self.coupon])
        fake.fail(.offers, with: EngageError(.network, "offline", isRetryable: true))
        let failed = try await fake.engage.offers()
        #expect(failed.items.isEmpty)
        let failure = try #require(failed.report.failures[EngageFake.providerID])
        #expect(failure.code == .network && failure.isRetryable && failure.providerID == EngageFake.providerID)
        #expect(failure.localizedDescription == "You appear to be offline. Check your connection and try again.")
        fake.fail(.offers, with: nil)
        #expect(try await fake.engage.offers().items.map(\.id) == ["o-1"])
        await fake.engage.shutdown()
    }

    @Test("events, screens, the user and the push token are recorded; events tracked before readiness too")
    func recorded() async throws {
        let fake = EngageFake()
        _ = try await fake.engage.track(TrackedEvent(.purchase, properties: ["items": 2]))  // before the provider is ready
        _ = await fake.engage.waitUntilReady()
        _ = await fake.engage.flush()  // the events tracked before readiness are handed over by a flush
        _ = try await fake.engage.screen("Cart")
        #expect(fake.trackedEvents.map(\.kind) == [.purchase, .screenView])
        #expect(fake.trackedEvents.last?.name == "Cart")
        _ = try await fake.engage.logIn(UserIdentity(userID: "u-1", email: "u1@example.com"))
        #expect(fake.user?.userID == "u-1")
        _ = try await fake.engage.setPushToken(Data([0x0A, 0xFF]))
        #expect(fake.pushToken == "0aff")
        _ = try await fake.engage.reset()
        #expect(fake.user == nil && fake.pushToken == nil)
        fake.clearRecorded()
        #expect(fake.trackedEvents.isEmpty)
        await fake.engage.shutdown()
    }

    @Test("operations publish events named after the fake provider, as a real provider's do")
    func events() async throws {
        let fake = EngageFake(offers: [Self.coupon])
        let events = fake.engage.events.stream(of: OperationEvent.self)
        _ = try await fake.engage.offers()
        _ = try await fake.engage.logIn(UserIdentity(userID: "u-1"))
        var names: [String] = []
        for await event in events where event.providerID == EngageFake.providerID {
            names.append(event.operation)
            if names.count == 2 { break }
        }
        #expect(names == ["offers", "log_in"])
        await fake.engage.shutdown()
    }

    @Test("two fakes are independent of each other and of Engage.shared")
    func independent() async throws {
        let first = EngageFake(offers: [Self.coupon])
        let second = EngageFake()
        #expect(try await first.engage.offers().items.count == 1)
        #expect(try await second.engage.offers().items.isEmpty)
        // Not the shared instance (another test of this process may have configured it).
        #expect(first.engage !== Engage.shared && second.engage !== Engage.shared)
        await first.engage.shutdown()
        await second.engage.shutdown()
    }
}
