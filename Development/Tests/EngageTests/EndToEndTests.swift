@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageReference
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import ReferenceEmulator
import EngageTestTraits
import Testing

/// The core end to end: the reference provider over real HTTP on 127.0.0.1 against the sandbox's
/// reference emulator.
@Suite("End to end over loopback", .bounded)
struct EndToEndTests {
    @Test("log in, then an authorised GET of ~2 KB JSON returns offers")
    func loginAndOffers() async throws {
        let sandbox = try await SandboxFixture()
        let engage = try await sandbox.startEngage()
        #expect(try await engage.logIn(referenceUser).isComplete)
        let offers = try await engage.offers()
        #expect(offers.isComplete)
        #expect(offers.items.count > 10)
        #expect(offers.items.allSatisfy { $0.providerID == "reference" && $0.value?.currency == "EUR" })
        let itemsRequest = try #require(sandbox.host.journal.entries(for: "reference").last { $0.path == "/items" })
        #expect(itemsRequest.headers.contains { $0.name.lowercased() == "authorization" && $0.value.hasPrefix("Bearer ey") })
        #expect(itemsRequest.query["size"] == "2048")
        await engage.shutdown()
        await sandbox.stop()
    }

    @Test("without a session the authorised call fails before reaching the network")
    func requiresLogin() async throws {
        let sandbox = try await SandboxFixture()
        let engage = try await sandbox.startEngage()
        let result = try await engage.offers()
        #expect(result.report.failures["reference"]?.code == .unauthorized)
        #expect(sandbox.host.journal.entries(matching: "/items").isEmpty)
        await engage.shutdown()
        await sandbox.stop()
    }

    @Test("an expired token is refreshed once for 200 concurrent calls, then the rotated one is used")
    func expiryStorm() async throws {
        let sandbox = try await SandboxFixture()
        let engage = try await sandbox.startEngage()
        _ = try await engage.logIn(referenceUser)
        let provider = try await engage.provider(ReferenceProvider.self)
        sandbox.clock.advance(by: .seconds(600))
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 { group.addTask { try await provider.items().count } }
            for try await count in group { #expect(count > 10) }
        }
        #expect(sandbox.emulator.refreshCount == 1)
        // The old refresh token was rotated away; the stored pair is the new one.
        let stored = try #require(try await provider.tokens.currentTokens())
        #expect(stored.expiresAt.map { $0 > sandbox.clock.now } == true)
        await engage.shutdown()
        await sandbox.stop()
    }

    @Test("a 401 from the server triggers one refresh and one resend")
    func unauthorizedFromServer() async throws {
        let sandbox = try await SandboxFixture()
        let engage = try await sandbox.startEngage()
        _ = try await engage.logIn(referenceUser)
        let provider = try await engage.provider(ReferenceProvider.self)
        sandbox.host.faults.inject(FaultRule(.status(401), emulatorID: "reference", method: "GET", path: "/items", trigger: .times(1)))
        #expect(try await provider.items().count > 10)
        #expect(sandbox.emulator.refreshCount == 1)
        #expect(sandbox.host.journal.entries(matching: "/items").count == 2)

        // A server that keeps answering 401 is not asked a third time.
        sandbox.host.faults.inject(FaultRule(.status(401), emulatorID: "reference", method: "GET", path: "/items", trigger: .always))
        let error = await #expect(throws: EngageError.self) { try await provider.items() }
        #expect(error?.code == .unauthorized)
        #expect(sandbox.host.journal.entries(matching: "/items").count == 4)
        await engage.shutdown()
        await sandbox.stop()
    }

    @Test("a rejected refresh ends the session and publishes SessionEndedEvent")
    func rejectedRefresh() async throws {
        let sandbox = try await SandboxFixture()
        let engage = try await sandbox.startEngage()
        _ = try await engage.logIn(referenceUser)
        let provider = try await engage.provider(ReferenceProvider.self)
        let ended = engage.events.stream(of: SessionEndedEvent.self)
        sandbox.host.faults.inject(
            FaultRule(.status(400, body: Data(#"{"error":"invalid_grant"}"#.utf8)), emulatorID: "reference", path: "/auth/refresh"))
        sandbox.clock.advance(by: .seconds(600))
        await #expect {
            try await provider.items()
        } throws: { ($0 as? EngageError)?.code == .sessionExpired }
        #expect(try await provider.tokens.currentTokens() == nil)
        var iterator = ended.makeAsyncIterator()
        #expect(await iterator.next()?.providerID == "reference")
        await engage.shutdown()
        await sandbox.stop()
    }

    @Test("a 503 with Retry-After is retried for a GET and the call succeeds")
    func retryAfterOverLoopback() async throws {
        let sandbox = try await SandboxFixture()
        let engage = try await sandbox.startEngage()
        _ = try await engage.logIn(referenceUser)
        let provider = try await engage.provider(ReferenceProvider.self)
        sandbox.host.faults.inject(
            FaultRule(.serviceUnavailable(retryAfter: 0), emulatorID: "reference", path: "/items", trigger: .times(2)))
        #expect(try await provider.items().count > 10)
        #expect(sandbox.host.journal.entries(matching: "/items").count == 3)
        await engage.shutdown()
        await sandbox.stop()
    }

    @Test("malformed and truncated bodies and dropped connections become clear errors")
    func brokenResponses() async throws {
        let sandbox = try await SandboxFixture()
        let engage = try await sandbox.startEngage()
        _ = try await engage.logIn(referenceUser)
        let provider = try await engage.provider(ReferenceProvider.self)

        sandbox.host.faults.inject(FaultRule(.malformedBody, emulatorID: "reference", path: "/items", trigger: .times(1)))
        await #expect { try await provider.items() } throws: { ($0 as? EngageError)?.code == .decoding }

        let truncated = sandbox.host.faults.inject(FaultRule(.truncatedBody, emulatorID: "reference", path: "/items", trigger: .always))
        await #expect { try await provider.items() } throws: { error in
            let code = (error as? EngageError)?.code
            return code == .network || code == .decoding
        }
        sandbox.host.faults.remove(truncated)

        sandbox.host.faults.inject(FaultRule(.dropConnection, emulatorID: "reference", path: "/items", trigger: .always))
        await #expect { try await provider.items() } throws: { ($0 as? EngageError)?.code == .network }
        // GET is idempotent: each failure was retried up to the configured 3 attempts.
        #expect(sandbox.host.journal.entries(matching: "/items").filter { $0.fault != nil }.count >= 3)
        await engage.shutdown()
        await sandbox.stop()
    }

    @Test("tracked events survive a backend outage and are delivered exactly once")
    func durableDelivery() async throws {
        let sandbox = try await SandboxFixture()
        let engage = try await sandbox.startEngage()
        // Every attempt of the first flush (3, the batch POST is repeatable) reaches the server, which
        // stores the events, but the answer is lost.
        sandbox.host.faults.inject(FaultRule(.dropConnectionAfterHandling, emulatorID: "reference", path: "/events", trigger: .times(3)))
        for index in 0..<5 {
            _ = try await engage.track(TrackedEvent(.custom, name: "event-\(index)"))
        }
        let first = await engage.registry.analytics.flush()
        #expect(first.delivered == 0)
        #expect(try await engage.registry.analytics.pendingCount() == 5)
        #expect(sandbox.host.journal.entries(matching: "/events").count == 3)
        sandbox.clock.advance(by: .seconds(3600))
        let second = await engage.registry.analytics.flush()
        #expect(second.delivered == 5)
        #expect(try await engage.registry.analytics.pendingCount() == 0)
        // Re-sent with the same idempotency keys: the backend stored each event once.
        #expect(sandbox.emulator.receivedEvents.map(\.name).sorted() == (0..<5).map { "event-\($0)" })
        let third = await engage.registry.analytics.flush()
        #expect(third.delivered == 0)
        await engage.shutdown()
        await sandbox.stop()
    }

    @Test("events queued while the backend is down survive a restart of the app")
    func queueSurvivesRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("engage-e2e-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = InMemorySecretStore()
        let sandbox = try await SandboxFixture()
        sandbox.host.faults.inject(FaultRule(.status(503), emulatorID: "reference", path: "/events", trigger: .always))

        let first = try await sandbox.startEngage(storage: .directory(directory), secretStore: keys)
        for index in 0..<3 { _ = try await first.track(TrackedEvent(.custom, name: "offline-\(index)")) }
        _ = await first.registry.analytics.flush()
        await first.shutdown()
        #expect(sandbox.emulator.receivedEvents.isEmpty)

        sandbox.host.faults.removeAll()
        sandbox.clock.advance(by: .seconds(3600))
        let second = try await sandbox.startEngage(storage: .directory(directory), secretStore: keys)
        let report = await second.registry.analytics.flush()
        #expect(report.delivered == 3)
        #expect(sandbox.emulator.receivedEvents.map(\.name).sorted() == ["offline-0", "offline-1", "offline-2"])
        await second.shutdown()
        await sandbox.stop()
    }

    @Test("the session survives a restart, sealed on disk")
    func sessionSurvivesRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("engage-e2e-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = InMemorySecretStore()
        let sandbox = try await SandboxFixture()
        let first = try await sandbox.startEngage(storage: .directory(directory), secretStore: keys)
        _ = try await first.logIn(referenceUser)
        let token = try #require(try await first.provider(ReferenceProvider.self).tokens.currentTokens()?.accessToken)
        await first.shutdown()
        try first.registry.database.close()

        let raw = try Data(contentsOf: URL(fileURLWithPath: directory + "/engage.sqlite"))
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: directory + "/engage.sqlite-wal"))) ?? Data()
        #expect(raw.range(of: Data(token.utf8)) == nil)
        #expect(wal.range(of: Data(token.utf8)) == nil)

        let second = try await sandbox.startEngage(storage: .directory(directory), secretStore: keys)
        #expect(try await second.provider(ReferenceProvider.self).items().count > 10)
        #expect(sandbox.emulator.loginCount == 1)
        await second.shutdown()
        await sandbox.stop()
    }

    @Test("a response over the size limit fails early over a real socket")
    func responseSizeLimit() async throws {
        let sandbox = try await SandboxFixture()
        let client = APIClient(
            baseURL: sandbox.baseURL, transport: URLSessionTransport(), providerID: "reference", maxResponseBytes: 4096
        )
        _ = try await client.data(.get, "/public/items", query: [("size", "1024")])
        let error = await #expect(throws: EngageError.self) {
            try await client.data(.get, "/public/items", query: [("size", "200000")])
        }
        #expect(error?.code == .responseTooLarge)
        #expect(error?.message.contains("over the limit of 4096") == true)
        // A request may set its own limit.
        _ = try await client.data(
            .get, "/public/items", query: [("size", "200000")], options: RequestOptions(maxResponseBytes: 1024 * 1024)
        )
        await sandbox.stop()
    }

    @Test("a 401 carrying a WWW-Authenticate challenge completes as a 401 (no hang on Linux)")
    func unauthorizedWithChallenge() async throws {
        let sandbox = try await SandboxFixture()
        let client = APIClient(baseURL: sandbox.baseURL, transport: URLSessionTransport(), providerID: "reference")
        sandbox.host.faults.inject(
            FaultRule(
                .status(401, body: Data(#"{"error":"invalid_client"}"#.utf8), headers: ["WWW-Authenticate": #"Basic realm="x""#]),
                emulatorID: "reference", method: "GET", path: "/public/items", trigger: .times(1)
            ))
        let error = await #expect(throws: EngageError.self) { try await client.data(.get, "/public/items") }
        #expect(error?.code == .unauthorized)
        #expect(error?.httpStatus == 401)
        // The session is still usable afterwards.
        _ = try await client.data(.get, "/public/items", query: [("size", "16")])
        #expect(sandbox.host.journal.entries(matching: "/public/items").count == 2)
        await sandbox.stop()
    }

    @Test("the provider's callback twin works over the network too")
    func callbackOverNetwork() async throws {
        let sandbox = try await SandboxFixture()
        let engage = try await sandbox.startEngage()
        _ = try await engage.logIn(referenceUser)
        let provider = try await engage.provider(ReferenceProvider.self)
        let result = await withCheckedContinuation { continuation in
            provider.items { continuation.resume(returning: $0) }
        }
        #expect(try result.get().count > 10)
        await engage.shutdown()
        await sandbox.stop()
    }
}

@Suite("GraphQL over loopback", .bounded)
struct GraphQLEndToEndTests {
    struct Echo: GraphQLOperation {
        struct Variables: Encodable, Sendable { var lang: String; var limit: Int }
        struct ResponseData: Decodable, Sendable {
            struct Payload: Decodable, Sendable { var variables: [String: JSONValue] }
            var echo: Payload
        }
        static let document = "query Echo($lang: String!, $limit: Int!) { echo }"
        var variables: Variables
    }

    struct Fail: GraphQLOperation {
        struct ResponseData: Decodable, Sendable {}
        static let document = "mutation { fail }"
        var variables: [String: String] = [:]
    }

    @Test("data is decoded, and errors returned with HTTP 200 fail the operation")
    func roundTrip() async throws {
        let sandbox = try await SandboxFixture()
        let client = GraphQLClient(
            client: APIClient(baseURL: sandbox.baseURL, transport: URLSessionTransport(), providerID: "reference"),
            path: "/graphql"
        )
        let data = try await client.perform(Echo(variables: .init(lang: "el", limit: 3)))
        #expect(data.echo.variables["lang"] == "el")
        #expect(data.echo.variables["limit"] == 3)
        await #expect {
            try await client.perform(Fail())
        } throws: { ($0 as? EngageError)?.code == .graphQL && ($0 as? EngageError)?.message.contains("Simulated failure") == true }
        #expect(sandbox.host.journal.entries(matching: "/graphql").allSatisfy { $0.status == 200 })
        await sandbox.stop()
    }
}
