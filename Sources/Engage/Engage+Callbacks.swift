@_spi(EngageProvider) import EngageCore
import Foundation

extension Engage {
    /// The callback twin of `offers(_:)`.
    @discardableResult
    public func offers(
        _ query: OfferQuery = OfferQuery(),
        completion: @escaping @MainActor @Sendable (Result<AggregateResult<Offer>, EngageError>) -> Void
    ) -> any EngageCancellable {
        CallbackBridge.run(completion: completion) { try await self.offers(query) }
    }

    /// The callback twin of `track(_:)`.
    @discardableResult
    public func track(
        _ event: TrackedEvent,
        completion: @escaping @MainActor @Sendable (Result<AggregateReport, EngageError>) -> Void
    ) -> any EngageCancellable {
        CallbackBridge.run(completion: completion) { try await self.track(event) }
    }

    /// The callback twin of `screen(_:properties:)`.
    @discardableResult
    public func screen(
        _ name: String, properties: [String: JSONValue] = [:],
        completion: @escaping @MainActor @Sendable (Result<AggregateReport, EngageError>) -> Void
    ) -> any EngageCancellable {
        CallbackBridge.run(completion: completion) { try await self.screen(name, properties: properties) }
    }

    /// The callback twin of `setPushToken(_:)`.
    @discardableResult
    public func setPushToken(
        _ token: Data?, completion: @escaping @MainActor @Sendable (Result<AggregateReport, EngageError>) -> Void
    ) -> any EngageCancellable {
        CallbackBridge.run(completion: completion) { try await self.setPushToken(token) }
    }

    /// The callback twin of `merchants(_:)`.
    @discardableResult
    public func merchants(
        _ query: MerchantQuery,
        completion: @escaping @MainActor @Sendable (Result<AggregateResult<MerchantSummary>, EngageError>) -> Void
    ) -> any EngageCancellable {
        CallbackBridge.run(completion: completion) { try await self.merchants(query) }
    }

    /// The callback twin of `merchants(near:radiusMeters:page:)`.
    @discardableResult
    public func merchants(
        near point: GeoPoint,
        radiusMeters: Double,
        page: PageRequest = PageRequest(),
        completion: @escaping @MainActor @Sendable (Result<AggregateResult<MerchantSummary>, EngageError>) -> Void
    ) -> any EngageCancellable {
        CallbackBridge.run(completion: completion) {
            try await self.merchants(near: point, radiusMeters: radiusMeters, page: page)
        }
    }

    /// The callback twin of `content(_:)`.
    @discardableResult
    public func content(
        _ query: ContentQuery = ContentQuery(),
        completion: @escaping @MainActor @Sendable (Result<AggregateResult<ContentItem>, EngageError>) -> Void
    ) -> any EngageCancellable {
        CallbackBridge.run(completion: completion) { try await self.content(query) }
    }

    /// The callback twin of `logIn(_:)`.
    @discardableResult
    public func logIn(
        _ identity: UserIdentity,
        completion: @escaping @MainActor @Sendable (Result<AggregateReport, EngageError>) -> Void
    ) -> any EngageCancellable {
        CallbackBridge.run(completion: completion) { try await self.logIn(identity) }
    }

    /// The callback twin of `logOut()`.
    @discardableResult
    public func logOut(completion: @escaping @MainActor @Sendable (Result<AggregateReport, EngageError>) -> Void) -> any EngageCancellable {
        CallbackBridge.run(completion: completion) { try await self.logOut() }
    }
}
