@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import Logging
import EngageTestTraits
import Testing

@Suite("GraphQLClient", .bounded)
struct GraphQLClientTests {
    struct Feed: GraphQLOperation {
        struct Variables: Encodable, Sendable { var lang: String }
        struct ResponseData: Decodable, Sendable { var content: [Item] }
        struct Item: Decodable, Sendable { var id: String }
        static let document = "query Feed($lang: String!) { content(lang: $lang) { id } }"
        static let operationName: String? = "Feed"
        var variables: Variables
    }

    struct Like: GraphQLOperation {
        struct Variables: Encodable, Sendable { var id: String }
        struct ResponseData: Decodable, Sendable { var like: Bool? }
        static let document = "  mutation Like($id: ID!) { like(id: $id) }"
        var variables: Variables
    }

    func client(_ transport: InMemoryTransport) -> GraphQLClient {
        GraphQLClient(
            client: APIClient(
                baseURL: URL(string: "https://content.example.com")!, transport: transport, providerID: "youll",
                retry: RetryPolicy(maxAttempts: 2, baseDelay: .zero), clock: FakeClock(), logger: Logger(label: "gql")),
            headers: { [HTTPField.Name("x-hasura-role")!: "guest"] }
        )
    }

    @Test("a query posts query, variables and operation name, and decodes data")
    func query() async throws {
        let transport = InMemoryTransport { _ in .json(["data": ["content": [["id": "a"], ["id": "b"]]]]) }
        let data = try await client(transport).perform(Feed(variables: .init(lang: "el")))
        #expect(data.content.map(\.id) == ["a", "b"])
        let request = try #require(transport.requests.first)
        #expect(request.head.path == "/v1/graphql")
        #expect(request.head.headerFields[HTTPField.Name("x-hasura-role")!] == "guest")
        let body = try #require(request.body.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] })
        #expect(body["operationName"] as? String == "Feed")
        #expect((body["variables"] as? [String: Any])?["lang"] as? String == "el")
        #expect((body["query"] as? String)?.hasPrefix("query Feed") == true)
    }

    @Test("errors with HTTP 200 are errors, even with partial data, with message, code and path")
    func errorsWithHTTP200() async throws {
        let transport = InMemoryTransport { _ in
            .json([
                "data": ["content": []],
                "errors": [
                    ["message": "field 'content' not found", "extensions": ["code": "validation-failed", "path": "$.selectionSet"]],
                    ["message": "second", "path": ["content", 0, "id"]],
                ],
            ])
        }
        do {
            _ = try await client(transport).perform(Feed(variables: .init(lang: "en")))
            Issue.record("expected a GraphQL error")
        } catch let error as EngageError {
            #expect(error.code == .graphQL)
            #expect(error.providerID == "youll")
            #expect(error.message.contains("field 'content' not found [validation-failed]"))
            #expect(error.message.contains("second at content.0.id"))
            #expect((error.underlyingError as? GraphQLErrors)?.entries.count == 2)
        }
    }

    @Test("a server's error messages are redacted and shortened before they become the error's text")
    func errorMessagesAreRedacted() async throws {
        let long = String(repeating: "x", count: 5_000)
        let transport = InMemoryTransport { _ in
            .json([
                "errors": [
                    ["message": "no user alice@example.com (token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl)"], ["message": long],
                ]
            ])
        }
        let error = await #expect(throws: EngageError.self) { try await client(transport).perform(Feed(variables: .init(lang: "en"))) }
        let text = try #require(error).message
        #expect(!text.contains("alice@example.com"))
        #expect(!text.contains("eyJzdWIiOiIxIn0"))
        #expect(text.count < 1_000)
        for shown in [String(describing: try #require(error)), try #require(error).localizedDescription] {
            #expect(!shown.contains("alice@example.com"))
        }
        // The entries a provider reads (codes, paths) keep what the server sent.
        #expect((error?.underlyingError as? GraphQLErrors)?.entries.first?.message.contains("alice@example.com") == true)
    }

    @Test("a mutation that returns errors has failed, and mutations are never retried")
    func mutations() async throws {
        #expect(Like.isMutation)
        #expect(!Feed.isMutation)
        let transport = InMemoryTransport { _ in .json(["errors": [["message": "not allowed"]]]) }
        let rejected = await #expect(throws: EngageError.self) { try await client(transport).perform(Like(variables: .init(id: "1"))) }
        #expect(rejected?.code == .graphQL)

        let flaky = InMemoryTransport { _ in .status(.internalServerError) }
        let mutation = await #expect(throws: EngageError.self) { try await client(flaky).perform(Like(variables: .init(id: "1"))) }
        #expect(mutation?.httpStatus == 500)
        #expect(flaky.requests.count == 1)
        let query = await #expect(throws: EngageError.self) { try await client(flaky).perform(Feed(variables: .init(lang: "en"))) }
        #expect(query?.httpStatus == 500)
        #expect(flaky.requests.count == 3)
    }

    @Test(
        "isMutation looks at top-level definitions, past comments, fragments and whitespace",
        arguments: [
            ("mutation Like($id: ID!) { like(id: $id) }", true),
            ("\n\t  mutation { like }", true),
            ("# Likes an item\nmutation Like { like }", true),
            ("# query\n# another comment\r\nmutation { like }", true),
            ("fragment F on Item { id }\nmutation M { like { ...F } }", true),
            ("query A { a }\nmutation B { b }", true),
            ("\u{FEFF}mutation { like }", true),
            ("query Q { mutation }", false),
            ("{ mutation }", false),
            ("# mutation\nquery Q { a }", false),
            ("query Q($kind: String = \"mutation\") { a(kind: $kind) }", false),
            ("query Q { a(text: \"\"\"\nmutation { x }\n\"\"\") }", false),
            ("fragment mutation on Item { id }\nquery Q { ...mutation }", false),
            ("query mutation { a }", false),
            ("subscription S { mutation }", false),
            ("", false),
        ])
    func mutationDetection(document: String, isMutation: Bool) {
        #expect(GraphQLDocument.containsMutation(document) == isMutation)
    }

    @Test("errors win over data that does not decode")
    func errorsBeforeData() async throws {
        let transport = InMemoryTransport { _ in
            .json([
                "data": ["content": "not a list"], "errors": [["message": "permission denied", "extensions": ["code": "access-denied"]]],
            ])
        }
        let error = await #expect(throws: EngageError.self) { try await client(transport).perform(Feed(variables: .init(lang: "en"))) }
        #expect(error?.code == .graphQL)
        #expect(error?.message.contains("permission denied [access-denied]") == true)
        // With errors as null or empty, the data decides.
        for errors in [#"null"#, #"[]"#] {
            let body = Data(#"{"data": {"content": [{"id": "a"}]}, "errors": \#(errors)}"#.utf8)
            let fine = InMemoryTransport { _ in .body(body, contentType: "application/json") }
            #expect(try await client(fine).perform(Feed(variables: .init(lang: "en"))).content.map(\.id) == ["a"])
        }
    }

    @Test("a response with neither data nor errors, or not JSON, is a decoding error")
    func malformed() async throws {
        for body in ["{}", "<html>", #"{"data": {"content": "nope"}}"#] {
            let transport = InMemoryTransport { _ in .body(Data(body.utf8), contentType: "application/json") }
            await #expect {
                try await client(transport).perform(Feed(variables: .init(lang: "en")))
            } throws: { ($0 as? EngageError)?.code == .decoding }
        }
    }
}
