@_spi(EngageProvider) import Engage
@_spi(EngageProvider) import EngageCore
import Foundation

/// An `Engage` instance for SwiftUI previews and an app's unit tests: the real facade, over in-memory
/// storage, with no network and one stand-in provider whose answers you set and whose calls you read.
///
/// ```swift
/// import Engage
/// import EngageTestKit
///
/// let fake = EngageFake(offers: [Offer(id: "o-1", providerID: "fake", kind: .coupon, title: LocalizedText("10 % off"))])
/// let model = OffersModel(engage: fake.engage)          // your code, given an Engage
/// await model.load()
/// #expect(model.titles == ["10 % off"])
///
/// fake.fail(.offers, with: EngageError(.network, "offline", isRetryable: true))
/// await model.load()                                     // the report carries the failure
///
/// _ = await fake.engage.waitUntilReady()                 // then events reach the provider at once
/// _ = try await fake.engage.track(TrackedEvent(.purchase))
/// #expect(fake.trackedEvents.map(\.kind) == [.purchase])
/// ```
///
/// Every facade operation works on ``engage`` as in an app: `offers`, `content` and `merchants` answer
/// what you set; `track` and `screen` record the event; `logIn`, `logOut` and `reset` record the user;
/// `setPushToken` records the hex token; events are published on `engage.events` (an
/// `OperationEvent` per operation, named after the stand-in provider, `fake`). Nothing is sent or
/// written to disk, and each fake is independent of every other (and of `Engage.shared`).
public final class EngageFake: Sendable {
    /// The operations whose answer ``fail(_:with:)`` can replace with an error.
    public enum Operation: Sendable, CaseIterable {
        /// `engage.offers(_:)`.
        case offers
        /// `engage.content(_:)`.
        case content
        /// `engage.merchants(_:)` and `merchants(near:radiusMeters:page:)`.
        case merchants
        /// `engage.track(_:)` and `engage.screen(_:properties:)`.
        case track
        /// `engage.logIn(_:)`.
        case logIn
        /// `engage.logOut()` and `engage.reset()`.
        case logOut
        /// `engage.setPushToken(_:)`.
        case setPushToken
    }

    /// The stand-in provider's id: the `providerID` of its reports and events.
    public static let providerID: ProviderID = "fake"

    /// The instance to give the code under test. Its provider starts in the background, as an app's
    /// does: operations wait for it; `await engage.waitUntilReady()` waits explicitly.
    public let engage: Engage
    let backend: FakeBackend

    /// A fake whose provider answers `offers`, `content` and `merchants` (each returned as given, in
    /// that order, whatever the query; merchants with a query centre are sorted by their
    /// `distanceMeters` by the facade). `appID` names the in-memory database.
    public init(
        offers: [Offer] = [], content: [ContentItem] = [], merchants: [MerchantSummary] = [], appID: String = "com.example.engagefake"
    ) {
        let backend = FakeBackend(FakeBackend.State(offers: offers, content: content, merchants: merchants))
        self.backend = backend
        var configuration = EngageConfiguration.preset(.testing, appID: appID)
        configuration.storage = .inMemory
        configuration.analytics.flushesOnBackground = false
        let environment = RegistryEnvironment(transport: NoNetwork(), secretStore: InMemorySecretStore())
        do {
            engage = try Engage(
                configuration: configuration,
                providers: [.provider(FakeProvider.self, configuration: FakeProvider.Configuration(backend: backend))],
                environment: environment)
        } catch {
            // An in-memory database and key store, one provider, a valid id: only memory itself can fail.
            preconditionFailure("EngageFake could not start its in-memory instance: \(error)")
        }
    }

    /// The offers `engage.offers(_:)` answers.
    public var offers: [Offer] {
        get { backend.state.value.offers }
        set { backend.state.withLock { $0.offers = newValue } }
    }

    /// The content items `engage.content(_:)` answers.
    public var content: [ContentItem] {
        get { backend.state.value.content }
        set { backend.state.withLock { $0.content = newValue } }
    }

    /// The merchants `engage.merchants(_:)` answers.
    public var merchants: [MerchantSummary] {
        get { backend.state.value.merchants }
        set { backend.state.withLock { $0.merchants = newValue } }
    }

    /// Makes `operation` fail with `error` from now on (it is then in the operation's report, as a
    /// provider's failure is), or answer again with `nil`.
    public func fail(_ operation: Operation, with error: EngageError?) {
        backend.state.withLock { $0.failures[operation] = error.map { $0.attributed(to: Self.providerID) } }
    }

    /// Every event the provider received, in the order it received them: `track`'s and `screen`'s (a
    /// screen is an event of kind `.screenView`). An event tracked before the provider was ready is
    /// stored and handed over by the next flush, as in an app (`await engage.flush()`); after
    /// `await engage.waitUntilReady()`, events arrive as they are tracked.
    public var trackedEvents: [TrackedEvent] { backend.state.value.trackedEvents }

    /// The user of the last `engage.logIn(_:)`, `nil` before one and after `logOut()` or `reset()`.
    public var user: UserIdentity? { backend.state.value.user }

    /// The push token of the last `engage.setPushToken(_:)`, hex-encoded as providers receive it;
    /// `nil` before one and after `setPushToken(nil)`.
    public var pushToken: String? { backend.state.value.pushToken }

    /// Forgets what was recorded (events, user, push token); the answers and failures stay.
    public func clearRecorded() {
        backend.state.withLock { state in
            state.trackedEvents = []
            state.user = nil
            state.pushToken = nil
        }
    }
}

/// What the fake answers and what it recorded, shared by the fake and its provider.
final class FakeBackend: Sendable {
    struct State: Sendable {
        var offers: [Offer]
        var content: [ContentItem]
        var merchants: [MerchantSummary]
        var failures: [EngageFake.Operation: EngageError] = [:]
        var trackedEvents: [TrackedEvent] = []
        var user: UserIdentity?
        var pushToken: String?
    }

    let state: Locked<State>

    init(_ state: State) { self.state = Locked(state) }

    /// Throws the failure set for `operation`, if any.
    func check(_ operation: EngageFake.Operation) throws(EngageError) {
        if let failure = state.value.failures[operation] { throw failure }
    }
}

/// A transport that sends nothing: the fake's provider never asks for one, and nothing else may.
struct NoNetwork: HTTPTransport {
    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        throw EngageError(.network, "EngageFake sends nothing over the network.")
    }
}
