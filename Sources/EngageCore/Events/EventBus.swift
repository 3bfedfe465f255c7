import Foundation

/// The one event bus of an `Engage` instance.
///
/// Subscribe by type or by name, as a callback or as an `AsyncSequence`. Callbacks run on the main
/// actor (typed `@MainActor`, so UI code needs no `assumeIsolated`), or on a dispatch queue you pass
/// as `on:`; either way in publication order. A subscription lasts as long as its `EventSubscription`
/// token: release the token, or call `cancel()`, and no further event is delivered.
///
/// ```swift
/// let subscription = engage.events.subscribe(to: OperationEvent.self) { event in
///     print(event.name)           // custom_success_redeem_coupon_loyalty
/// }
/// for await ended in engage.events.stream(of: SessionEndedEvent.self) { ... }
/// ```
public final class EventBus: Sendable {
    private let subscribers = Locked<[UInt64: Subscriber]>([:])
    private let nextID = Locked<UInt64>(0)

    /// An empty bus.
    @_spi(EngageProvider) public init() {}

    /// Publishes `event` to every matching subscriber.
    @_spi(EngageProvider) public func publish(_ event: any EngageEvent) {
        let matching = subscribers.withLock { subscribers in
            subscribers.values.filter { $0.filter.matches(event) }.sorted { $0.id < $1.id }
        }
        for subscriber in matching {
            subscriber.deliver(event)
        }
    }

    /// Publishes a `NamedEvent`.
    @_spi(EngageProvider) public func publish(named name: String, providerID: ProviderID? = nil, attributes: [String: String] = [:]) {
        publish(NamedEvent(name, providerID: providerID, attributes: attributes))
    }

    /// Calls `handler` on the main actor with every event of type `type`.
    public func subscribe<Event: EngageEvent>(
        to type: Event.Type,
        handler: @escaping @MainActor @Sendable (Event) -> Void
    ) -> EventSubscription {
        add(
            filter: .type(ObjectIdentifier(type)),
            delivery: .mainActor { event in
                if let typed = event as? Event { handler(typed) }
            })
    }

    /// Calls `handler` on `queue` with every event of type `type`.
    public func subscribe<Event: EngageEvent>(
        to type: Event.Type,
        on queue: DispatchQueue,
        handler: @escaping @Sendable (Event) -> Void
    ) -> EventSubscription {
        add(
            filter: .type(ObjectIdentifier(type)),
            delivery: .queue(queue) { event in
                if let typed = event as? Event { handler(typed) }
            })
    }

    /// Calls `handler` on the main actor with every event whose `name` is `name`, whatever its type.
    public func subscribe(
        named name: String,
        handler: @escaping @MainActor @Sendable (any EngageEvent) -> Void
    ) -> EventSubscription {
        add(filter: .name(name), delivery: .mainActor(handler))
    }

    /// Calls `handler` on `queue` with every event whose `name` is `name`, whatever its type.
    public func subscribe(
        named name: String,
        on queue: DispatchQueue,
        handler: @escaping @Sendable (any EngageEvent) -> Void
    ) -> EventSubscription {
        add(filter: .name(name), delivery: .queue(queue, handler))
    }

    /// Calls `handler` on the main actor with every event.
    public func subscribeToAll(handler: @escaping @MainActor @Sendable (any EngageEvent) -> Void) -> EventSubscription {
        add(filter: .all, delivery: .mainActor(handler))
    }

    /// Calls `handler` on `queue` with every event.
    public func subscribeToAll(
        on queue: DispatchQueue,
        handler: @escaping @Sendable (any EngageEvent) -> Void
    ) -> EventSubscription {
        add(filter: .all, delivery: .queue(queue, handler))
    }

    /// The events of type `type` published from now on, as an async sequence. The subscription ends
    /// when iteration stops (the task is cancelled or the loop exits).
    public func stream<Event: EngageEvent>(
        of type: Event.Type,
        bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy = .bufferingNewest(1024)
    ) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: bufferingPolicy)
        let id = register(filter: .type(ObjectIdentifier(type))) { event in
            if let typed = event as? Event { continuation.yield(typed) }
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// The events named `name` published from now on, as an async sequence.
    public func stream(
        named name: String,
        bufferingPolicy: AsyncStream<any EngageEvent>.Continuation.BufferingPolicy = .bufferingNewest(1024)
    ) -> AsyncStream<any EngageEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: (any EngageEvent).self, bufferingPolicy: bufferingPolicy)
        let id = register(filter: .name(name)) { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// The number of live subscriptions (callbacks and streams).
    package var subscriberCount: Int {
        subscribers.withLock { $0.count }
    }

    // MARK: - Internals

    private enum Delivery {
        case mainActor(@MainActor @Sendable (any EngageEvent) -> Void)
        case queue(DispatchQueue, @Sendable (any EngageEvent) -> Void)
    }

    private func add(filter: Subscriber.Filter, delivery: Delivery) -> EventSubscription {
        let active = Locked(true)
        let id = register(filter: filter) { event in
            // `active` is checked at delivery time: nothing arrives after cancel(), even if already queued.
            switch delivery {
            case .mainActor(let handler):
                CallbackBridge.onMainActor { if active.value { handler(event) } }
            case .queue(let queue, let handler):
                queue.async { if active.value { handler(event) } }
            }
        }
        return EventSubscription { [weak self] in
            active.withLock { $0 = false }
            self?.remove(id)
        }
    }

    private func register(filter: Subscriber.Filter, deliver: @escaping @Sendable (any EngageEvent) -> Void) -> UInt64 {
        let id = nextID.withLock { value -> UInt64 in
            value += 1
            return value
        }
        subscribers.withLock { $0[id] = Subscriber(id: id, filter: filter, deliver: deliver) }
        return id
    }

    private func remove(_ id: UInt64) {
        subscribers.withLock { _ = $0.removeValue(forKey: id) }
    }
}

private struct Subscriber: Sendable {
    enum Filter: Sendable {
        case all
        case type(ObjectIdentifier)
        case name(String)

        func matches(_ event: any EngageEvent) -> Bool {
            switch self {
            case .all: true
            case let .type(identifier): ObjectIdentifier(Swift.type(of: event)) == identifier
            case let .name(name): event.name == name
            }
        }
    }

    let id: UInt64
    let filter: Filter
    let deliver: @Sendable (any EngageEvent) -> Void
}

/// Keeps a subscription alive. Releasing it (or calling `cancel()`) ends the subscription.
public final class EventSubscription: Sendable, Hashable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Locked(onCancel)
    }

    deinit {
        cancel()
    }

    /// Ends the subscription. Safe to call more than once.
    public func cancel() {
        let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }

    /// Stores the subscription in `set`, keeping it alive as long as the set.
    public func store(in set: inout Set<EventSubscription>) {
        set.insert(self)
    }

    /// Two subscriptions are equal when they are the same object.
    public static func == (lhs: EventSubscription, rhs: EventSubscription) -> Bool { lhs === rhs }
    /// Hashes the object identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
