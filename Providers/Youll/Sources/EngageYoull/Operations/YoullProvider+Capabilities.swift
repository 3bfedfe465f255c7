@_spi(EngageProvider) import EngageCore
import Foundation

extension YoullProvider {
    /// Content for `engage.content(_:)`: with `query.category`, a page of that category's content;
    /// with `query.text`, a search; otherwise the home feed's content (each item once, in feed order)
    /// followed by the categories (type `category`). Uses the configured cache policy.
    public func content(_ query: ContentQuery) async throws -> [ContentItem] {
        if let category = query.category {
            return try await fetch(.contents(categoryID: category, page: query.page)).map(\.contentItem)
        }
        if let text = query.text, !text.isEmpty {
            return try await fetch(.search(text: text, page: query.page)).map(\.contentItem)
        }
        async let feed = fetch(.homeFeed())
        async let categories = fetch(.categories())
        var seen = Set<String>()
        var items: [ContentItem] = []
        for case let .contents(section) in try await feed {
            for content in section.items where seen.insert(content.id).inserted {
                items.append(content.contentItem)
            }
        }
        items += try await categories.map(\.contentItem)
        let page = query.page
        return Array(items.dropFirst(page.offset).prefix(page.limit))
    }

    /// The promo offers as `Offer`s of kind `promotion`, for `engage.offers(_:)` (the query's fields
    /// do not apply to Youll).
    public func offers(_ query: OfferQuery) async throws -> [Offer] {
        try await fetch(.promoOffers()).map(\.offer)
    }
}

/// The completion-handler forms. Each delivers on the main actor; the returned
/// `EngageCancellable` cancels the operation (the completion then receives `.cancelled`, unless it had
/// finished).
extension YoullProvider {
    /// A completion handler: the operation's value or its `EngageError`, run on the main actor.
    public typealias Completion<Value> = @MainActor @Sendable (Result<Value, EngageError>) -> Void

    /// The callback form of ``fetch(_:cachePolicy:)``. With `.cacheThenNetwork`, `completion`
    /// is called twice when there is a cached answer: first with it, then with the backend's answer
    /// (both on the main actor, in that order).
    @discardableResult
    public func fetch<Value: Sendable>(
        _ query: YoullQuery<Value>, cachePolicy: YoullCachePolicy? = nil, completion: @escaping Completion<Value>
    ) -> any EngageCancellable {
        let policy = cachePolicy ?? configuration.defaultCachePolicy
        guard policy == .cacheThenNetwork else {
            return context.callback(completion) { try await self.fetch(query, cachePolicy: policy) }
        }
        return context.callback(completion) {
            var fresh: Value?
            for try await response in self.responses(query) {
                if response.isFromCache {
                    let value = response.value
                    CallbackBridge.onMainActor { completion(.success(value)) }
                } else {
                    fresh = response.value
                }
            }
            guard let fresh else {
                throw EngageError(.cancelled, "The fetch of \(query.name) ended without an answer.", providerID: .youll)
            }
            return fresh
        }
    }

    /// The callback form of ``logOut()``.
    @discardableResult
    public func logOut(completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.logOut() }
    }
}
