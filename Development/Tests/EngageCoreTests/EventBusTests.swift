@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("EventBus", .bounded)
struct EventBusTests {
    struct Redeemed: EngageEvent {
        var couponID: String
        var name: String { "coupon_redeemed" }
        var providerID: ProviderID? { "warply" }
    }

    let queue = DispatchQueue(label: "event-bus-tests")

    func drain() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    func drainMain() async {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    }

    @Test("without a queue, callbacks run on the main actor, in publication order, and may touch main-actor state")
    func mainActorDelivery() async {
        let bus = EventBus()
        let screen = EventScreen()
        let typed = bus.subscribe(to: Redeemed.self) { event in
            dispatchPrecondition(condition: .onQueue(.main))
            screen.couponIDs.append(event.couponID)  // `@MainActor` handler: no assumeIsolated
        }
        let named = bus.subscribe(named: "coupon_redeemed") { event in screen.names.append(event.name) }
        let all = bus.subscribeToAll { _ in screen.total += 1 }
        for index in 0..<50 { bus.publish(Redeemed(couponID: "c\(index)")) }
        bus.publish(named: "other")
        await drainMain()
        #expect(await screen.couponIDs == (0..<50).map { "c\($0)" })
        #expect(await screen.names.count == 50)
        #expect(await screen.total == 51)
        typed.cancel()
        bus.publish(Redeemed(couponID: "late"))
        await drainMain()
        #expect(await screen.couponIDs.count == 50)
        withExtendedLifetime((named, all)) {}
    }

    @Test("typed subscribers get only their type, in publication order, on the queue they name")
    func typedDelivery() async {
        let bus = EventBus()
        let received = Locked<[String]>([])
        let subscription = bus.subscribe(to: Redeemed.self, on: queue) { event in
            dispatchPrecondition(condition: .onQueue(queue))
            received.withLock { $0.append(event.couponID) }
        }
        for index in 0..<100 { bus.publish(Redeemed(couponID: "c\(index)")) }
        bus.publish(named: "something_else")
        await drain()
        #expect(received.value == (0..<100).map { "c\($0)" })
        subscription.cancel()
    }

    @Test("name subscribers receive typed and named events with that name")
    func namedDelivery() async {
        let bus = EventBus()
        let names = Locked<[String]>([])
        let subscription = bus.subscribe(named: "coupon_redeemed", on: queue) { event in
            names.withLock { $0.append("\(type(of: event)):\(event.providerID?.rawValue ?? "-")") }
        }
        bus.publish(Redeemed(couponID: "c1"))
        bus.publish(named: "coupon_redeemed", providerID: "crobox")
        bus.publish(named: "other")
        await drain()
        #expect(names.value == ["Redeemed:warply", "NamedEvent:crobox"])
        withExtendedLifetime(subscription) {}
    }

    @Test("cancelling or releasing the token stops delivery, even of events already queued")
    func unsubscription() async {
        let bus = EventBus()
        let count = TestCounter()
        var subscription: EventSubscription? = bus.subscribe(to: Redeemed.self, on: queue) { _ in count.increment() }
        bus.publish(Redeemed(couponID: "1"))
        await drain()
        #expect(count.count == 1)

        // Queue an event, then cancel before the queue runs it.
        let blocker = DispatchSemaphore(value: 0)
        queue.async { blocker.wait() }
        bus.publish(Redeemed(couponID: "2"))
        subscription?.cancel()
        blocker.signal()
        await drain()
        #expect(count.count == 1)

        subscription = nil
        #expect(bus.subscriberCount == 0)

        let released = TestCounter()
        do {
            let scoped = bus.subscribe(to: Redeemed.self, on: queue) { _ in released.increment() }
            _ = scoped
        }
        bus.publish(Redeemed(couponID: "3"))
        await drain()
        #expect(released.count == 0)
        #expect(bus.subscriberCount == 0)
    }

    @Test("async streams deliver typed events and end their subscription when iteration stops")
    func streams() async {
        let bus = EventBus()
        let consumer = Task {
            let stream = bus.stream(of: Redeemed.self)
            var ids: [String] = []
            for await event in stream {
                ids.append(event.couponID)
                if ids.count == 3 { break }
            }
            return ids
        }
        while bus.subscriberCount == 0 { await Task.yield() }
        #expect(bus.subscriberCount == 1)
        for index in 0..<3 { bus.publish(Redeemed(couponID: "s\(index)")) }
        #expect(await consumer.value == ["s0", "s1", "s2"])
        for _ in 0..<100 where bus.subscriberCount > 0 { await Task.yield() }
        #expect(bus.subscriberCount == 0)
    }

    @Test("operation events carry the seeds' naming convention")
    func operationEventNames() {
        let success = OperationEvent(
            providerID: "warply", operation: "redeem_coupon", eventSuffix: "loyalty", outcome: .success, duration: .milliseconds(12))
        #expect(success.name == "custom_success_redeem_coupon_loyalty")
        #expect(success.attributes["duration_ms"] == "12")
        let failure = OperationEvent(providerID: "crobox", operation: "promotions", outcome: .failure(.http(status: 503)), duration: .zero)
        #expect(failure.name == "custom_error_promotions_crobox")
        #expect(failure.attributes["http_status"] == "503")
    }
}

/// Main-actor state of the kind a screen holds.
@MainActor
private final class EventScreen {
    var couponIDs: [String] = []
    var names: [String] = []
    var total = 0
}
