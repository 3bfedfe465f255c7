@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import HTTPTypes
import EngageTestTraits
import Testing
import YoullEmulator

/// Errors with HTTP 200, partial data, hostile answers for every query, huge lists, the emulator's
/// schema.
@Suite(.bounded) struct YoullGraphQLSemanticsTests {
    /// A provider over canned answers (no emulator).
    func provider(answering body: String) async throws -> (YoullProvider, ProviderRegistry) {
        let transport = InMemoryTransport { _ in HTTPResponseMessage.body(Data(body.utf8), contentType: "application/json") }
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.youll-tests")
        configuration.storage = .inMemory
        try configuration.setProvider(.youll, YoullConfiguration(graphQLEndpoint: URL(literal: "https://youll.test/v1/graphql")))
        let registry = try ProviderRegistry(
            configuration: configuration, environment: RegistryEnvironment(transport: transport, secretStore: InMemorySecretStore())
        )
        try await registry.register(.provider(YoullProvider.self, from: configuration))
        _ = await registry.start()
        return (try await registry.provider(YoullProvider.self), registry)
    }

    @Test func partialDataWithErrorsIsAnErrorCarryingEveryEntry() async throws {
        let (youll, registry) = try await provider(
            answering: """
                {"data":{"categories":[{"id":"a","title":"A","image_url":null,"translations":[],"subcategories":[]},null]},
                 "errors":[{"message":"could not resolve","path":["categories",1],"extensions":{"code":"unexpected"}}]}
                """)
        defer { Task { await registry.shutdown() } }
        let error = await #expect(throws: EngageError.self) { try await youll.fetch(.categories()) }
        #expect(error?.code == .graphQL && error?.message.contains("could not resolve [unexpected] at categories.1") == true)
        let entries = (error?.underlyingError as? GraphQLErrors)?.entries
        #expect(entries?.first?.path == [.field("categories"), .index(1)] && entries?.first?.code == "unexpected")
        // Nothing of a failed answer is cached.
        await #expect(throws: EngageError.self) { try await youll.fetch(.categories(), cachePolicy: .cacheOnly) }
    }

    @Test func errorsWithoutDataAndAnswersWithNeither() async throws {
        let (youll, registry) = try await provider(
            answering: #"{"errors":[{"message":"field 'x' not found","extensions":{"code":"validation-failed","path":"$"}}]}"#)
        defer { Task { await registry.shutdown() } }
        let error = await #expect(throws: EngageError.self) { try await youll.fetch(.exploreTags()) }
        #expect(error?.code == .graphQL && error?.message.contains("[validation-failed]") == true)
        let (empty, second) = try await provider(answering: "{}")
        defer { Task { await second.shutdown() } }
        let decoding = await #expect(throws: EngageError.self) { try await empty.fetch(.exploreTags()) }
        #expect(decoding?.code == .decoding)
    }

    @Test func aGuestAskingForAUserFieldGetsHasurasError() async throws {
        let harness = try await YoullHarness.make { $0.tokenRequiredOperations = [] }
        defer { Task { await harness.stop() } }
        let error = await #expect(throws: EngageError.self) { try await harness.youll.fetch(.favourites()) }
        #expect(
            error?.code == .graphQL
                && error?.message.contains("field 'favourite_content' not found in type: 'query_root' [validation-failed]") == true)
    }

    @Test func theEmulatorAnswersIntrospectionAndRefusesBadRequests() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        func post(_ body: String, headers: [String: String] = [:]) async throws -> [String: JSONValue] {
            var request = URLRequest(url: harness.base.appendingPathComponent("v1/graphql"))
            request.httpMethod = "POST"
            request.httpBody = Data(body.utf8)
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let (data, _) = try await URLSession.shared.data(for: request)
            return try JSONDecoder().decode([String: JSONValue].self, from: data)
        }
        let schema = try await post(#"{"query":"{ __schema { queryType { name } mutationType { name } } }"}"#)
        #expect(
            schema["data"]
                == .object([
                    "__schema": .object([
                        "queryType": .object(["name": .string("Query")]), "mutationType": .object(["name": .string("Mutation")]),
                    ])
                ]))
        let types = try await post(#"{"query":"{ __type(name: \"Content\") { fields { name } } }"}"#)
        #expect("\(types)".contains("is_liked"))
        let syntax = try await post(#"{"query":"{ categories( }"}"#)
        #expect(syntax["data"] == nil && "\(syntax)".contains("errors"))
        let role = try await post(#"{"query":"{ explore_tags { id } }"}"#, headers: ["x-hasura-role": "admin"])
        #expect("\(role)".contains("access-denied"))
        let expired = harness.emulator.issueToken(userID: "u-1", lifetime: .seconds(1))
        harness.clock.advance(by: .seconds(5))
        let answer = try await post(#"{"query":"{ explore_tags { id } }"}"#, headers: ["Authorization": "Bearer \(expired)"])
        #expect(
            answer == [
                "errors": .array([
                    .object([
                        "message": .string("Could not verify JWT: JWTExpired"),
                        "extensions": .object(["code": .string("invalid-jwt"), "path": .string("$")]),
                    ])
                ])
            ])
    }

    @Test func hostileAnswersToEveryQueryAreValuesOrErrors() async throws {
        let answers = HostileAnswers()
        let harness = try await YoullHarness.make(transport: answers)
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession())
        try await youll.perform(.setActiveLinearJourney(id: "j-calm"))
        try await youll.perform(.createPlaylist(name: "P")).id.isEmpty == false ? () : ()
        let queries: [(String, @Sendable () async throws -> Int)] = [
            ("categories", { try await youll.fetch(.categories()).count }),
            ("home", { try await youll.fetch(.homeFeed()).count }),
            ("content", { try await youll.fetch(.content(id: "c-001")) == nil ? 0 : 1 }),
            ("journey", { try await youll.fetch(.linearJourney())?.steps.count ?? 0 }),
            ("activities", { try await youll.fetch(.activityPageSlices()).count }),
            ("events", { try await youll.fetch(.events()).count }),
            ("playlists", { try await youll.fetch(.playlists()).count }),
            ("meals", { try await youll.fetch(.meals()).count }),
            ("quiz", { try await youll.fetch(.quiz(id: "q-sleep"))?.questions.count ?? 0 }),
            ("settings", { try await youll.fetch(.appConfig()).count }),
            ("proof", { try await youll.fetch(.socialProof()).memberCount }),
            ("profile", { try await youll.fetch(.profile()).stats.count }),
            ("badges", { try await youll.fetch(.earnedBadges()).count }),
            ("offers", { try await youll.fetch(.promoOffers()).count }),
            ("vector", { try await youll.fetch(.vectorSearch(text: "sleep")).count }),
        ]
        for (name, query) in queries {
            let outcomes = await answers.sweep(count: 40, seed: 14) { () async throws(EngageError) in
                do {
                    return try await query()
                } catch {
                    throw EngageError.wrapping(error, providerID: .youll)
                }
            }
            #expect(outcomes.count > 40, "\(name) was not swept")
            let refused = outcomes.compactMap { outcome -> EngageError? in if case .failure(let error) = outcome { error } else { nil } }
            #expect(!refused.isEmpty, "\(name) accepted every hostile answer")
            #expect(refused.allSatisfy { [.decoding, .graphQL, .responseTooLarge].contains($0.code) }, "\(name): \(refused.map(\.code))")
        }
    }

    @Test func wrongTypesAndNullsInTheModelsAreNamedErrors() throws {
        let context = YoullDecodingContext(language: "el")
        let content = #"{"id":"c","title":"T","kind":"audio","is_locked":false,"is_liked":false,"like_count":1,"tags":[],"translations":[]"#
        let decode = { (body: String) throws -> YoullContent? in
            try YoullQuery<YoullContent?>.content(id: "c").decode(Data(#"{"data":{"content_by_pk":\#(body)}}"#.utf8), context)
        }
        #expect(try decode("null") == nil)
        #expect(try decode(content + "}")?.title == "T")
        for (broken, field) in [
            (content.replacingOccurrences(of: #""like_count":1"#, with: #""like_count":"many""#) + "}", "like_count"),
            (content.replacingOccurrences(of: #""is_locked":false"#, with: #""is_locked":null"#) + "}", "is_locked"),
            (content + #","duration_seconds":-5}"#, "duration_seconds"),
            (content + #","published_at":"yesterday"}"#, "published_at"),
        ] {
            do {
                _ = try decode(broken)
                Issue.record("\(field) was accepted")
            } catch let error as EngageError {
                #expect(error.code == .decoding && error.message.contains(field.split(separator: "_").first.map(String.init) ?? field))
            }
        }
        // A broken image link does not fail the item; a translation is picked by language.
        let translated = try decode(
            content.replacingOccurrences(of: #""translations":[]"#, with: #""translations":[{"lang":"el","title":"Τ"}]"#)
                + #","image_url":"javascript:alert(1)"}"#)
        #expect(translated?.title == "Τ" && translated?.language == "el" && translated?.imageURL == nil)
    }

    @Test func hugeListsDecodeAndOversizedAnswersAreRefused() async throws {
        let tag = #"{"id":"t","name":"n","item_count":1}"#
        let huge = #"{"data":{"explore_tags":["# + Array(repeating: tag, count: 100_000).joined(separator: ",") + "]}}"
        let tags = try YoullQuery<[YoullExploreTag]>.exploreTags().decode(Data(huge.utf8), YoullDecodingContext(language: ""))
        #expect(tags.count == 100_000)
        let oversized = String(repeating: " ", count: 17 * 1024 * 1024) + "{}"
        let (youll, registry) = try await provider(answering: oversized)
        defer { Task { await registry.shutdown() } }
        let error = await #expect(throws: EngageError.self) { try await youll.fetch(.exploreTags()) }
        #expect(error?.code == .responseTooLarge)
    }
}
