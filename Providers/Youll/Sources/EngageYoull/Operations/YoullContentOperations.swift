@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

// Content, feeds and explore tags: GraphQL reads, and the REST likes, timer sessions and vector search.

extension YoullQuery {
    /// The content categories with their subcategories (`categories`).
    public static func categories() -> YoullQuery<[YoullCategory]> {
        .graphQL(
            "categories", field: "categories",
            document: "query Categories($extraLang: String!) { categories(extra_lang: $extraLang) { \(YoullDocuments.category) } }",
            as: [WireCategory].self
        ) { wire, context in wire.map { YoullCategory(wire: $0, context: context) } }
    }

    /// The subcategories of a category (`subcategories`).
    public static func subcategories(categoryID: String) -> YoullQuery<[YoullSubcategory]> {
        .graphQL(
            "subcategories", field: "subcategories",
            document: """
                query Subcategories($categoryId: String!, $extraLang: String!) { \
                subcategories(category_id: $categoryId, extra_lang: $extraLang) { id category_id title \(YoullDocuments.translation) } }
                """,
            variables: ["categoryId": .string(categoryID)], as: [WireSubcategory].self
        ) { wire, context in wire.map { YoullSubcategory(wire: $0, context: context) } }
    }

    /// One piece of content, `nil` when there is none with that id (`content`).
    public static func content(id: String) -> YoullQuery<YoullContent?> {
        .graphQL(
            "content", field: "content_by_pk",
            document:
                "query Content($id: String!, $extraLang: String!) { content_by_pk(id: $id, extra_lang: $extraLang) { \(YoullDocuments.content) } }",
            variables: ["id": .string(id)], as: WireContent?.self
        ) { wire, context in try wire.map { try YoullContent(wire: $0, context: context) } }
    }

    /// A page of a category's content, newest first (`content_by_category`).
    public static func contents(categoryID: String, page: PageRequest = PageRequest()) -> YoullQuery<[YoullContent]> {
        .graphQL(
            "content_by_category", field: "content",
            document: """
                query ContentByCategory($categoryId: String!, $limit: Int!, $offset: Int!, $extraLang: String!) { \
                content(category_id: $categoryId, limit: $limit, offset: $offset, extra_lang: $extraLang) { \(YoullDocuments.content) } }
                """,
            variables: ["categoryId": .string(categoryID), "limit": .integer(Int64(page.limit)), "offset": .integer(Int64(page.offset))],
            as: [WireContent].self
        ) { wire, context in try wire.map { try YoullContent(wire: $0, context: context) } }
    }

    /// The content the user liked, most recent first (`favourites`; needs a user).
    public static func favourites() -> YoullQuery<[YoullContent]> {
        .graphQL(
            "favourites", userScoped: true, field: "favourite_content",
            document: "query Favourites($extraLang: String!) { favourite_content(extra_lang: $extraLang) { \(YoullDocuments.content) } }",
            as: [WireContent].self
        ) { wire, context in try wire.map { try YoullContent(wire: $0, context: context) } }
    }

    /// The home feed's sections, without the slices the user dismissed (`home_feed`).
    public static func homeFeed() -> YoullQuery<[YoullFeedSection]> {
        feed("home_feed", field: "home_sections")
    }

    /// The explore feed's sections (`explore_feed`).
    public static func exploreFeed() -> YoullQuery<[YoullFeedSection]> {
        feed("explore_feed", field: "explore_sections")
    }

    /// The search screen's sections before the user types (`search_feed`).
    public static func searchFeed() -> YoullQuery<[YoullFeedSection]> {
        feed("search_feed", field: "search_sections")
    }

    private static func feed(_ name: String, field: String) -> YoullQuery<[YoullFeedSection]> {
        let operation = YoullNaming.operationName(name)
        return YoullQuery<[YoullFeedSection]>(
            name: name, isUserScoped: false,
            request: .graphQL(
                document: "query \(operation)($extraLang: String!) { \(field)(extra_lang: $extraLang) { \(YoullDocuments.section) } }",
                operationName: operation, variables: [:]
            ),
            decode: { body, context in try YoullFeedDecoding.sections(field: field, in: body, context: context) }
        )
    }

    /// The explore tags (`explore_tags`).
    public static func exploreTags() -> YoullQuery<[YoullExploreTag]> {
        .graphQL(
            "explore_tags", field: "explore_tags", document: "query ExploreTags { explore_tags { id name item_count } }",
            as: [WireExploreTag].self
        ) { wire, _ in wire.map(YoullExploreTag.init(wire:)) }
    }

    /// One explore tag, `nil` when unknown (`explore_tag`).
    public static func exploreTag(id: String) -> YoullQuery<YoullExploreTag?> {
        .graphQL(
            "explore_tag", field: "explore_tag", document: "query ExploreTag($id: String!) { explore_tag(id: $id) { id name item_count } }",
            variables: ["id": .string(id)], as: WireExploreTag?.self
        ) { wire, _ in wire.map(YoullExploreTag.init(wire:)) }
    }

    /// A page of the content filed under a tag (`explore_tagged_items`).
    public static func taggedItems(tagID: String, page: PageRequest = PageRequest()) -> YoullQuery<[YoullContent]> {
        .graphQL(
            "explore_tagged_items", field: "explore_tagged_items",
            document: """
                query ExploreTaggedItems($tagId: String!, $limit: Int!, $offset: Int!, $extraLang: String!) { \
                explore_tagged_items(tag_id: $tagId, limit: $limit, offset: $offset, extra_lang: $extraLang) { \(YoullDocuments.content) } }
                """,
            variables: ["tagId": .string(tagID), "limit": .integer(Int64(page.limit)), "offset": .integer(Int64(page.offset))],
            as: [WireContent].self
        ) { wire, context in try wire.map { try YoullContent(wire: $0, context: context) } }
    }

    /// The search filters (`search_filters`).
    public static func searchFilters() -> YoullQuery<[YoullSearchFilter]> {
        .graphQL(
            "search_filters", field: "search_filters",
            document: "query SearchFilters { search_filters { id title options { id title } } }", as: [WireSearchFilter].self
        ) { wire, _ in wire.map(YoullSearchFilter.init(wire:)) }
    }

    /// Content matching `text` and every filter option in `filterIDs` (`apply_search`).
    public static func search(text: String, filterIDs: [String] = [], page: PageRequest = PageRequest()) -> YoullQuery<[YoullContent]> {
        .graphQL(
            "apply_search", field: "apply_search",
            document: """
                query ApplySearch($text: String!, $filterIds: [String!]!, $limit: Int!, $offset: Int!, $extraLang: String!) { \
                apply_search(text: $text, filter_ids: $filterIds, limit: $limit, offset: $offset, extra_lang: $extraLang) { \(YoullDocuments.content) } }
                """,
            variables: [
                "text": .string(text), "filterIds": .array(filterIDs.map(JSONValue.string)),
                "limit": .integer(Int64(page.limit)), "offset": .integer(Int64(page.offset)),
            ],
            as: [WireContent].self
        ) { wire, context in try wire.map { try YoullContent(wire: $0, context: context) } }
    }

    /// The reviews of a content item, newest first, over REST (`content_reviews`). The user's own
    /// review, when there is a user, says so (`isMine`).
    public static func reviews(contentID: String, page: PageRequest = PageRequest()) -> YoullQuery<[YoullReview]> {
        .rest(
            "content_reviews", path: APIClient.path("content", contentID, "reviews"),
            query: [("limit", String(page.limit)), ("offset", String(page.offset))], as: [WireReview].self
        ) { wire, _ in try wire.map(YoullReview.init(wire:)) }
    }

    /// A link that opens `contentID` for whoever receives it, `nil` for unknown content
    /// (`share_link`; the Youll SDK's `EnvoyURL`). A link that is not `https` is `.decoding`.
    public static func shareLink(contentID: String) -> YoullQuery<YoullShareLink?> {
        .graphQL(
            "share_link", field: "share_link",
            document: "query ShareLink($contentId: String!) { share_link(content_id: $contentId) { url expires_at } }",
            variables: ["contentId": .string(contentID)], as: WireShareLink?.self
        ) { wire, _ in try wire.map(YoullShareLink.init(wire:)) }
    }

    /// Content closest in meaning to `text`, best first, over REST (`vector_search`).
    public static func vectorSearch(text: String, limit: Int = 10) -> YoullQuery<[YoullSearchMatch]> {
        .rest(
            "vector_search", path: "/content/search", query: [("q", text), ("limit", String(min(max(limit, 1), 100)))],
            as: WireVectorSearchResult.self
        ) { wire, context in
            guard wire.scores.count == wire.items.count else {
                throw EngageError(
                    .decoding, "The vector search answer has \(wire.items.count) items but \(wire.scores.count) scores.", providerID: .youll
                )
            }
            return try zip(wire.items, wire.scores).map { item, score in
                guard score.isFinite, (0...1).contains(score) else {
                    throw YoullDecoding.invalid("score", "\(score)", of: "content \(item.id)")
                }
                return YoullSearchMatch(content: try YoullContent(wire: item, context: context), score: score)
            }
        }
    }
}

extension YoullMutation {
    /// Likes content, over REST (`like_content`; needs a user).
    public static func like(contentID: String) -> YoullMutation<YoullLikeState> {
        .rest("like_content", method: .post, path: APIClient.path("content", contentID, "like"), as: WireLikeResult.self) { wire, _ in
            YoullLikeState(wire: wire)
        }
    }

    /// Records that the user viewed `contentID` and returns when Youll recorded it
    /// (`set_viewed_content`; the Youll SDK's `SetViewedContentMutation`; needs a user). Unlike the
    /// Youll SDK, whose void mutation reported success whatever the server said, a refusal (unknown
    /// content, no user) is an error here.
    public static func setViewedContent(contentID: String) -> YoullMutation<YoullViewedContent> {
        guard (1...128).contains(contentID.count), !contentID.contains(where: \.isNewline) else {
            return .failing(
                "set_viewed_content", EngageError(.invalidInput, "A content id is 1 to 128 characters on one line.", providerID: .youll))
        }
        return .graphQL(
            "set_viewed_content", field: "set_viewed_content",
            document:
                "mutation SetViewedContent($contentId: String!) { set_viewed_content(content_id: $contentId) { content_id viewed_at } }",
            variables: ["contentId": .string(contentID)], as: WireViewedContent.self
        ) { wire, _ in try YoullViewedContent(wire: wire) }
    }

    /// Reviews a content item (1 to 5 stars, and a text of at most 2 000 characters), over REST
    /// (`review_content`; needs a user). A user has one review per item: reviewing again replaces it.
    public static func review(contentID: String, rating: Int, text: String? = nil) -> YoullMutation<YoullReview> {
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...5).contains(rating) else {
            return .failing("review_content", EngageError(.invalidInput, "A rating is 1 to 5 (got \(rating)).", providerID: .youll))
        }
        guard (trimmed?.count ?? 0) <= 2_000 else {
            return .failing(
                "review_content", EngageError(.invalidInput, "A review's text has at most 2000 characters.", providerID: .youll))
        }
        return .rest(
            "review_content", method: .post, path: APIClient.path("content", contentID, "reviews"),
            body: YoullJSON.body(WireRequest.Review(rating: rating, text: trimmed?.isEmpty == false ? trimmed : nil)), as: WireReview.self
        ) { wire, _ in try YoullReview(wire: wire) }
    }

    /// Takes a like back, over REST (`unlike_content`; needs a user).
    public static func unlike(contentID: String) -> YoullMutation<YoullLikeState> {
        .rest("unlike_content", method: .delete, path: APIClient.path("content", contentID, "like"), as: WireLikeResult.self) { wire, _ in
            YoullLikeState(wire: wire)
        }
    }

    /// Records time spent playing content, over REST (`timer_session`; needs a user). A negative or
    /// longer-than-a-day duration is refused before anything is sent.
    public static func timerSession(contentID: String, duration: Duration, completed: Bool) -> YoullMutation<Void> {
        let seconds = duration.components.seconds
        // `components.seconds` truncates toward zero, so a fraction of a second below zero is checked
        // on the duration itself.
        guard duration >= .zero, seconds <= 86_400 else {
            return .failing(
                "timer_session",
                EngageError(
                    .invalidInput, "A timer session lasts 0 to 86400 seconds (got \(duration)).", providerID: .youll
                ))
        }
        return .restVoid(
            "timer_session", method: .post, path: APIClient.path("content", contentID, "timer-sessions"),
            body: YoullJSON.body(WireRequest.TimerSession(seconds: Int(seconds), completed: completed))
        )
    }

    /// Hides a home feed slice for this user (`dismiss_home_slice`; needs a user).
    public static func dismissHomeSlice(id: String) -> YoullMutation<Void> {
        .affectingRows(
            "dismiss_home_slice", field: "dismiss_home_slice",
            document: "mutation DismissHomeSlice($sliceId: String!) { dismiss_home_slice(slice_id: $sliceId) { affected_rows } }",
            variables: ["sliceId": .string(id)]
        )
    }
}

extension YoullMutation {
    /// A mutation answering `{ affected_rows }`, which succeeds when it changed at least one row.
    static func affectingRows(_ name: String, field: String, document: String, variables: [String: JSONValue]) -> YoullMutation<Void>
    where Value == Void {
        .graphQL(name, field: field, document: document, variables: variables, as: WireMutationResult.self) { wire, _ in
            guard wire.affectedRows > 0 else {
                throw EngageError(.invalidInput, "Youll changed nothing for \(name): the id is unknown.", providerID: .youll)
            }
        }
    }

    /// A mutation refused before it is sent (bad input).
    static func failing(_ name: String, _ error: EngageError) -> YoullMutation<Value> {
        YoullMutation(name: name, isUserScoped: true, request: .invalid(error), decode: { _, _ in throw error })
    }
}

extension YoullJSON {
    /// A JSON body with snake_case keys.
    static func body(_ value: some Encodable) -> APIClient.Body {
        // The request bodies are plain structs of strings, numbers and booleans: encoding cannot fail.
        .data((try? encoder().encode(value)) ?? Data("{}".utf8), contentType: "application/json")
    }
}
