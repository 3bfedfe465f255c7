@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
import EngageTestTraits
import Testing

@Suite(.bounded) struct YoullConfigurationTests {
    @Test func theJSONFormNeedsOnlyTheEndpoint() throws {
        let minimal = try JSONDecoder().decode(
            YoullConfiguration.self, from: Data(#"{"graphQLEndpoint":"https://api.youll.test/v1/graphql"}"#.utf8))
        #expect(
            minimal.restBaseURL == nil && minimal.extraLang == "" && minimal.platform == "ios"
                && minimal.defaultCachePolicy == .networkOnly)
        #expect(minimal.validationIssues().isEmpty)
        let full = try JSONDecoder().decode(
            YoullConfiguration.self,
            from: Data(
                """
                {"graphQLEndpoint":"https://a.test/v1/graphql","restBaseURL":"https://a.test/api/rest","extraLang":"pt-BR","platform":"android",
                 "appVersion":"4.2","deviceID":"d-1","defaultCachePolicy":"cacheFirst","tokenRequiredOperations":["categories"],
                 "cacheCapacityBytes":131072}
                """.utf8))
        #expect(
            full.extraLang == "pt-BR" && full.defaultCachePolicy == .cacheFirst
                && full.tokenRequiredOperations == ["categories"])
        #expect(try JSONDecoder().decode(YoullConfiguration.self, from: JSONEncoder().encode(full)) == full)
    }

    @Test("cache policies decode by their names and their former (Apollo) names; another name is a clear error")
    func cachePolicyNames() throws {
        let names: [(String, YoullCachePolicy)] = [
            ("networkOnly", .networkOnly), ("cacheThenNetwork", .cacheThenNetwork), ("cacheFirst", .cacheFirst), ("cacheOnly", .cacheOnly),
            ("fetchIgnoringCache", .networkOnly), ("returnCacheDataAndFetch", .cacheThenNetwork),
            ("returnCacheDataElseFetch", .cacheFirst), ("returnCacheDataDontFetch", .cacheOnly),
        ]
        for (name, policy) in names {
            #expect(try JSONDecoder().decode(YoullCachePolicy.self, from: Data("\"\(name)\"".utf8)) == policy, "\(name)")
        }
        // Written back under the current name.
        #expect(String(decoding: try JSONEncoder().encode(YoullCachePolicy.cacheFirst), as: UTF8.self) == "\"cacheFirst\"")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(YoullCachePolicy.self, from: Data("\"cacheLast\"".utf8)) }
        // A configuration written before the rename reads as before, and has no unknown key.
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.tests")
        configuration.providers["youll"] = [
            "graphQLEndpoint": "https://a.test/v1/graphql", "defaultCachePolicy": "returnCacheDataElseFetch", "extraLang": "de",
            "cacheLifetimeSeconds": 60, "deviceId": "typo",
        ]
        let registration = try ProviderRegistration.provider(YoullProvider.self, from: configuration)
        #expect(registration.unknownKeys == ["providers.youll.deviceId"])
        #expect(try configuration.providerConfiguration(YoullConfiguration.self, for: .youll)?.defaultCachePolicy == .cacheFirst)
    }

    @Test func validationNamesEveryProblem() {
        var configuration = YoullConfiguration(graphQLEndpoint: URL(literal: "ftp://a.test/graphql"))
        configuration.restBaseURL = URL(literal: "/relative")
        configuration.extraLang = "el\u{0}"
        configuration.platform = "ios\r\nX-Evil: 1"
        configuration.appVersion = ""
        configuration.cacheCapacityBytes = -1
        let issues = configuration.validationIssues().joined(separator: "\n")
        for name in ["graphQLEndpoint", "restBaseURL", "extraLang", "platform", "appVersion", "cacheCapacityBytes"] {
            #expect(issues.contains(name), "\(name) not named")
        }
        #expect(throws: EngageError.self) { try configuration.validate(for: .youll) }
    }

    @Test func hostileConfigurationJSONIsAValueOrAnError() throws {
        let valid = YoullConfiguration(
            graphQLEndpoint: URL(literal: "https://a.test/v1/graphql"), restBaseURL: URL(literal: "https://a.test/rest"))
        #expect(try HostileJSON.problems(decoding: valid, seed: 3).isEmpty)
    }

    @Test func restOperationsWithoutARESTBaseSendNothing() async throws {
        let harness = try await YoullHarness.make(rest: false)
        defer { Task { await harness.stop() } }
        let error = await #expect(throws: EngageError.self) { try await harness.youll.fetch(.promoOffers()) }
        #expect(error?.code == .notConfigured && error?.message.contains("restBaseURL") == true)
        #expect(harness.host.journal.entries(for: "youll").isEmpty)
    }

    @Test func theProfileHidesTheEmailFromDescriptionsDumpsAndMirrors() throws {
        let profile = try YoullProfile(
            wire: WireProfile(
                id: "u-1", name: "Eleni", email: "eleni@example.com", pictureUrl: nil, stats: ["minutes": 3],
                createdAt: "2026-01-01T00:00:00Z"
            ))
        var dumped = ""
        dump(profile, to: &dumped)
        for text in [
            profile.description, dumped, "\(profile)", String(reflecting: profile),
            Mirror(reflecting: profile).children.map { "\($0)" }.joined(),
        ] {
            #expect(!text.contains("eleni@example.com"))
        }
        #expect(profile.description.contains("Eleni"))
    }

    @Test func operationNamesAreStableAndGraphQLNamesFollowThem() {
        #expect(YoullQuery<[YoullFeedSection]>.homeFeed().name == "home_feed")
        #expect(YoullMutation<Void>.dismissHomeSlice(id: "x").name == "dismiss_home_slice")
        #expect(YoullNaming.operationName("content_by_category") == "ContentByCategory")
        guard case let .graphQL(document, operationName, _) = YoullQuery<[YoullFeedSection]>.homeFeed().request else {
            Issue.record("the home feed is a GraphQL query")
            return
        }
        #expect(operationName == "HomeFeed" && document.hasPrefix("query HomeFeed(") && !GraphQLDocument.containsMutation(document))
        guard case let .graphQL(mutation, _, _) = YoullMutation<Void>.restartJourney(id: "j").request else { return }
        #expect(GraphQLDocument.containsMutation(mutation))
    }
}

@Suite(.bounded) struct YoullDateTests {
    @Test func rfc3339AgreesWithFoundationAndRefusesTheRest() throws {
        let cases = [
            "2026-12-02T18:00:00Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "2026-11-25T17:22:10.250Z",
            "2026-11-25T19:22:10+02:00", "2026-11-25T12:07:10-05:15", "1969-07-20T20:17:40Z", "2400-02-29T00:00:00Z",
        ]
        for text in cases {
            let expected = try Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: text.contains(".")))
            let parsed = try #require(RFC3339.date(text), "\(text)")
            #expect(abs(parsed.timeIntervalSince1970 - expected.timeIntervalSince1970) < 0.001, "\(text)")
        }
        for text in [
            "", "2026-12-02", "2026-13-02T18:00:00Z", "2026-02-30T18:00:00Z", "2023-02-29T00:00:00Z", "2026-12-02T24:00:00Z",
            "2026-12-02T18:00:00", "2026-12-02T18:00:00+2:00", "2026-12-02T18:00:00Zjunk", "２０２６-12-02T18:00:00Z", "2026-12-02T18:00:00.Z",
        ] {
            #expect(RFC3339.date(text) == nil, "\(text) was accepted")
        }
    }
}
