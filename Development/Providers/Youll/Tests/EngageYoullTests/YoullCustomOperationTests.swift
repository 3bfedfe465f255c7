@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageYoull
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing
import YoullEmulator

/// An app's own GraphQL documents and REST calls, sent through the provider's session, cache and rules.
@Suite("Youll: an app's own operations", .bounded)
struct YoullCustomOperationTests {
    /// The app's own shape of a content item: only the fields it asked for.
    struct Item: Decodable, Sendable, Equatable {
        var id: String
        var title: String
        var isLiked: Bool

        enum CodingKeys: String, CodingKey {
            case id, title
            case isLiked = "is_liked"
        }
    }

    @Test("an own GraphQL query decodes into the app's type, sends extraLang and the user's token, and is cached like the built-in ones")
    func ownQuery() async throws {
        let harness = try await YoullHarness.make(extraLang: "el")
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession("u-1"))
        let query = YoullQuery<Item?>.graphQL(
            named: "my_content_card", field: "content_by_pk",
            document:
                "query MyContentCard($id: String!, $extraLang: String!) { content_by_pk(id: $id, extra_lang: $extraLang) { id title is_liked } }",
            variables: ["id": "c-005"], userScoped: true)
        let builtIn = try #require(try await youll.fetch(.content(id: "c-005")))
        let own = try #require(try await youll.fetch(query))
        // The app's own shape: the untranslated `title` it asked for (the built-in model picks the
        // `extraLang` translation), the same id and like state.
        #expect(own.id == builtIn.id && own.isLiked == builtIn.isLiked && !own.title.isEmpty && own.title != builtIn.title)
        let sent = try #require(await harness.requests(path: "/v1/graphql").last)
        let body = try #require(try JSONSerialization.jsonObject(with: sent.body) as? [String: Any])
        #expect(body["operationName"] as? String == "MyContentCard")
        #expect((body["variables"] as? [String: Any])?["extraLang"] as? String == "el")
        #expect(sent.header("authorization")?.hasPrefix("Bearer ") == true)
        // Cached under its own name: a second read comes from the cache without a request.
        let before = await harness.requests(path: "/v1/graphql").count
        #expect(try await youll.fetch(query, cachePolicy: .cacheOnly) == own)
        #expect(await harness.requests(path: "/v1/graphql").count == before)
        // Anything goes into JSONValue.
        let raw = try await youll.fetch(
            YoullQuery<JSONValue>.graphQL(
                named: "raw_categories", field: "categories", document: "query RawCategories { categories { id } }"))
        guard case let .array(categories) = raw else { Issue.record("not an array: \(raw)"); return }
        #expect(categories.count == 4)
    }

    @Test("an own REST read and own mutations (GraphQL and REST) go through the same session and error rules")
    func ownRESTAndMutations() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession("u-1"))
        let liked = try await youll.perform(YoullMutation<JSONValue>.rest(named: "my_like", method: .post, path: "content/c-007/like"))
        guard case let .object(answer) = liked else { Issue.record("not an object: \(liked)"); return }
        #expect(answer["liked"] == .bool(true) || answer["is_liked"] == .bool(true), "\(answer)")
        #expect(try await youll.fetch(.content(id: "c-007"))?.isLiked == true)

        let badges = try await youll.fetch(YoullQuery<JSONValue>.rest(named: "my_badges", path: "users/me/badges", userScoped: true))
        #expect(
            badges
                == (try await youll.fetch(YoullQuery<JSONValue>.rest(named: "my_badges_again", path: "/users/me/badges", userScoped: true)))
        )

        struct Affected: Decodable, Sendable { var affected_rows: Int }
        let dismissed = try await youll.perform(
            YoullMutation<Affected>.graphQL(
                named: "my_dismiss", field: "dismiss_home_slice",
                document: "mutation MyDismiss($sliceId: String!) { dismiss_home_slice(slice_id: $sliceId) { affected_rows } }",
                variables: ["sliceId": "home-popular"]))
        #expect(dismissed.affected_rows == 1)
        #expect(!(try await youll.fetch(.homeFeed())).contains { $0.id == "home-popular" })

        // A GraphQL error in the answer is a failure, as for the built-in operations.
        let broken = await #expect(throws: EngageError.self) {
            try await youll.fetch(
                YoullQuery<JSONValue>.graphQL(named: "broken", field: "nothing", document: "query Broken { no_such_field { id } }"))
        }
        #expect(broken?.providerID == .youll)
    }

    @Test("invalid names, fields and documents are refused before anything is sent; a mutation is not a query")
    func refusedBeforeSending() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        let before = harness.host.journal.entries(for: "youll").count
        let document = "query Q { categories { id } }"
        let refused: [(YoullQuery<JSONValue>, String)] = [
            (.graphQL(named: "", field: "categories", document: document), "name"),
            (.graphQL(named: "Has Spaces", field: "categories", document: document), "name"),
            (.graphQL(named: "x\u{0}y", field: "categories", document: document), "name"),
            (.graphQL(named: String(repeating: "a", count: 65), field: "categories", document: document), "name"),
            (.graphQL(named: "ok", field: "categories { id }", document: document), "field"),
            (.graphQL(named: "ok", field: "categories", document: "   "), "document"),
            (.graphQL(named: "ok", field: "categories", document: String(repeating: "a", count: 100_001)), "document"),
            (.graphQL(named: "ok", field: "x", document: "mutation M { x }"), "mutation"),
            // A comment first: still a mutation (it was sent, cached and retried as a query).
            (.graphQL(named: "ok", field: "x", document: "# dismisses a slice\nmutation M { x }"), "mutation"),
            (.graphQL(named: "ok", field: "x", document: "fragment F on T { id }\n  mutation M { x { ...F } }"), "mutation"),
            (.rest(named: "9lives", path: "users/me"), "name"),
        ]
        for (query, expected) in refused {
            let error = await #expect(throws: EngageError.self) { try await youll.fetch(query) }
            #expect(error?.code == .invalidInput && error?.message.contains(expected) == true, "\(error?.message ?? "")")
        }
        let mutation = await #expect(throws: EngageError.self) {
            try await youll.perform(YoullMutation<JSONValue>.rest(named: "Bad-Name", method: .post, path: "content/c-1/like"))
        }
        #expect(mutation?.code == .invalidInput)
        #expect(harness.host.journal.entries(for: "youll").count == before, "nothing was sent")
    }

    /// The cache key named the operation and its variables, not the document: two of the app's own
    /// queries with one name and the same variables (or one named like a built-in operation) served
    /// each other's answers.
    @Test("two own queries with one name and the same variables, but different documents, never share a cached answer")
    func cacheKeyCoversTheDocument() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        let ids = YoullQuery<JSONValue>.graphQL(
            named: "my_categories", field: "categories", document: "query MyCategories { categories { id } }")
        let titles = YoullQuery<JSONValue>.graphQL(
            named: "my_categories", field: "categories", document: "query MyCategories { categories { id title } }")
        let first = try await youll.fetch(ids)
        let before = await harness.requests(path: "/v1/graphql").count
        let second = try await youll.fetch(titles, cachePolicy: .cacheFirst)
        #expect(await harness.requests(path: "/v1/graphql").count == before + 1, "the other document's answer came from the cache")
        #expect(first != second)
        // Each is still cached under its own document.
        #expect(try await youll.fetch(ids, cachePolicy: .cacheOnly) == first)
        #expect(try await youll.fetch(titles, cachePolicy: .cacheOnly) == second)
    }
}
