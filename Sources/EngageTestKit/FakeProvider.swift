@_spi(EngageProvider) import EngageCore
import Engage
import Foundation

/// The fake's operations: the names its `OperationEvent`s carry.
enum FakeOperation: String, ProviderOperation {
    case offers, content, merchants, track, logIn = "log_in", logOut = "log_out", setPushToken = "set_push_token", reset
}

/// The stand-in provider behind `EngageFake`: every facade capability, answered from and recorded in
/// the fake's backend, each call published as an operation event like a real provider's.
final class FakeProvider: EngageProvider, OffersProviding, ContentProviding, MerchantDirectory, EventTracking, IdentityAware, Resettable,
    PushTokenReceiving
{
    /// The backend it answers from; never encoded (the fake registers the provider with it directly).
    struct Configuration: ProviderConfiguration {
        let backend: FakeBackend

        init(backend: FakeBackend) { self.backend = backend }

        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "EngageFake's provider is not configured from JSON."))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }

    static let descriptor = ProviderDescriptor(id: EngageFake.providerID, displayName: "EngageFake", version: Engage.version)

    private let backend: FakeBackend
    private let context: ProviderContext

    init(configuration: Configuration, context: ProviderContext) async throws {
        backend = configuration.backend
        self.context = context
    }

    func offers(_ query: OfferQuery) async throws -> [Offer] {
        try await context.perform(FakeOperation.offers) {
            try backend.check(.offers)
            return backend.state.value.offers
        }
    }

    func content(_ query: ContentQuery) async throws -> [ContentItem] {
        try await context.perform(FakeOperation.content) {
            try backend.check(.content)
            return backend.state.value.content
        }
    }

    func merchants(_ query: MerchantQuery) async throws -> Page<MerchantSummary> {
        try await context.perform(FakeOperation.merchants) {
            try backend.check(.merchants)
            let merchants = backend.state.value.merchants
            return Page(items: merchants, totalCount: merchants.count)
        }
    }

    func track(_ event: TrackedEvent) async throws {
        try await context.perform(FakeOperation.track) {
            try backend.check(.track)
            backend.state.withLock { $0.trackedEvents.append(event) }
        }
    }

    func logIn(_ identity: UserIdentity) async throws {
        try await context.perform(FakeOperation.logIn) {
            try backend.check(.logIn)
            backend.state.withLock { $0.user = identity }
        }
    }

    func logOut() async throws {
        try await context.perform(FakeOperation.logOut) {
            try backend.check(.logOut)
            backend.state.withLock { $0.user = nil }
        }
    }

    func reset() async throws {
        try await context.perform(FakeOperation.reset) {
            try backend.check(.logOut)
            backend.state.withLock { state in
                state.user = nil
                state.pushToken = nil
            }
        }
    }

    func setPushToken(_ token: String?) async throws {
        try await context.perform(FakeOperation.setPushToken) {
            try backend.check(.setPushToken)
            backend.state.withLock { $0.pushToken = token }
        }
    }
}
