@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

/// The completion handlers' type, and the twins of the capability requirements (which apps usually
/// reach through the facade's twins). Every other operation's twin is generated, in
/// `Generated/CallbackTwins.swift`, by `Scripts/generate-callback-twins`.
extension WarplyProvider {
    /// A completion handler: receives the operation's value or its `EngageError`, run once on the main
    /// actor.
    public typealias Completion<Value> = @MainActor @Sendable (Result<Value, EngageError>) -> Void

    /// The callback form of ``track(_:)``.
    @discardableResult
    public func track(_ event: TrackedEvent, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.track(event) }
    }

    /// The callback form of ``offers(_:)``.
    @discardableResult
    public func offers(_ query: OfferQuery, completion: @escaping Completion<[Offer]>) -> any EngageCancellable {
        context.callback(completion) { try await self.offers(query) }
    }

    /// The callback form of ``merchants(_:)-(MerchantQuery)``.
    @discardableResult
    public func merchants(_ query: MerchantQuery, completion: @escaping Completion<Page<MerchantSummary>>) -> any EngageCancellable {
        context.callback(completion) { try await self.merchants(query) }
    }

    /// The callback form of ``content(_:)``.
    @discardableResult
    public func content(_ query: ContentQuery, completion: @escaping Completion<[ContentItem]>) -> any EngageCancellable {
        context.callback(completion) { try await self.content(query) }
    }

    /// The callback form of ``logIn(_:)``.
    @discardableResult
    public func logIn(_ identity: UserIdentity, completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.logIn(identity) }
    }

    /// The callback form of ``logOut()``.
    @discardableResult
    public func logOut(completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.logOut() }
    }
}
