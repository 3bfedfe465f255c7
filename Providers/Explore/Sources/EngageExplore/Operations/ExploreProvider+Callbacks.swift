@_spi(EngageProvider) import EngageCore
import Foundation

/// The completion-handler twins of every async operation. Each runs the async operation and delivers
/// its `Result` on the main actor; the returned `EngageCancellable` cancels the wait (the
/// completion then receives `.cancelled`, unless the operation had already finished).
extension ExploreProvider {
    /// A completion handler: receives the operation's value or its `EngageError`, run once on the main
    /// actor.
    public typealias Completion<Value> = @MainActor @Sendable (Result<Value, EngageError>) -> Void

    /// The callback form of ``sync(progress:)``. `progress` is called on a transport thread.
    @discardableResult
    public func sync(
        progress: (@Sendable (ExploreSyncProgress) -> Void)? = nil, completion: @escaping Completion<ExploreSyncOutcome>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.sync(progress: progress) }
    }

    /// The callback form of ``syncIfDue()``.
    @discardableResult
    public func syncIfDue(completion: @escaping Completion<ExploreSyncOutcome?>) -> any EngageCancellable {
        context.callback(completion) { try await self.syncIfDue() }
    }

    /// The callback form of ``isSyncDue()``.
    @discardableResult
    public func isSyncDue(completion: @escaping Completion<Bool>) -> any EngageCancellable {
        context.callback(completion) { try await self.isSyncDue() }
    }

    /// The callback form of ``syncState()``.
    @discardableResult
    public func syncState(completion: @escaping Completion<ExploreSyncState?>) -> any EngageCancellable {
        context.callback(completion) { try await self.syncState() }
    }

    /// The callback form of ``merchants(_:)-(ExploreMerchantQuery)``.
    @discardableResult
    public func merchants(_ query: ExploreMerchantQuery, completion: @escaping Completion<Page<ExploreMerchant>>) -> any EngageCancellable {
        context.callback(completion) { try await self.merchants(query) }
    }

    /// The callback form of ``merchant(id:center:)``.
    @discardableResult
    public func merchant(
        id merchantID: String, center: GeoPoint? = nil, completion: @escaping Completion<ExploreMerchant?>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.merchant(id: merchantID, center: center) }
    }

    /// The callback form of ``merchantDetails(id:center:)``.
    @discardableResult
    public func merchantDetails(
        id merchantID: String, center: GeoPoint? = nil, completion: @escaping Completion<ExploreMerchantDetails?>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.merchantDetails(id: merchantID, center: center) }
    }

    /// The callback form of ``locations(ofMerchant:center:radius:)``.
    @discardableResult
    public func locations(
        ofMerchant merchantID: String, center: GeoPoint? = nil, radius: ExploreRadius? = nil,
        completion: @escaping Completion<[ExploreLocation]>
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.locations(ofMerchant: merchantID, center: center, radius: radius) }
    }

    /// The callback form of ``atms(_:)``.
    @discardableResult
    public func atms(_ query: ExploreATMQuery, completion: @escaping Completion<Page<ExploreATM>>) -> any EngageCancellable {
        context.callback(completion) { try await self.atms(query) }
    }

    /// The callback form of ``territories()``.
    @discardableResult
    public func territories(completion: @escaping Completion<[String]>) -> any EngageCancellable {
        context.callback(completion) { try await self.territories() }
    }
}
