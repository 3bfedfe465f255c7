@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
import EngageTestTraits
import Testing
import YoullEmulator

/// The host-owned session: which calls need a token, the headers, and refreshes shared and bounded.
@Suite(.bounded) struct YoullTokenContractTests {
    @Test func aRequiredTokenThatIsMissingSendsNothing() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        for operation in [
            { _ = try await harness.youll.fetch(.favourites()) },
            { _ = try await harness.youll.fetch(.profile()) },
            { _ = try await harness.youll.perform(.like(contentID: "c-001")) },
        ] as [() async throws -> Void] {
            let error = await #expect(throws: EngageError.self) { try await operation() }
            #expect(error?.code == .youllMissingAccessToken)
        }
        #expect(harness.host.journal.entries(for: "youll").isEmpty)
    }

    @Test func guestAndUserHeadersFollowTheWireTable() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        _ = try await harness.youll.fetch(.categories())
        _ = try await harness.youll.fetch(.promoOffers())
        harness.youll.setSession(harness.userSession("u-42"))
        _ = try await harness.youll.fetch(.categories())
        _ = try await harness.youll.fetch(.promoOffers())
        let graphQL = await harness.requests(path: "/v1/graphql")
        let rest = await harness.requests(path: "/promo-offers")
        #expect(graphQL.count == 2 && rest.count == 2)
        // Guest: role guest, no user id, no token; the persisted device id.
        #expect(graphQL[0].header("x-hasura-role") == "guest" && graphQL[0].header("x-hasura-user-id") == nil)
        #expect(graphQL[0].header("authorization") == nil && graphQL[0].header("device-id")?.count == 36)
        #expect(graphQL[0].header("x-youll-platform") == nil && graphQL[0].header("content-type") == "application/json")
        // User: role user, the user id, the bearer token; the same device id.
        #expect(graphQL[1].header("x-hasura-role") == "user" && graphQL[1].header("x-hasura-user-id") == "u-42")
        #expect(graphQL[1].header("authorization")?.hasPrefix("Bearer ey") == true)
        #expect(graphQL[1].header("device-id") == graphQL[0].header("device-id"))
        // REST: platform, app version and user id; no Hasura headers.
        #expect(rest[0].header("x-youll-platform") == "ios" && rest[0].header("x-youll-app-version") == "9.9.9")
        #expect(rest[0].header("x-youll-user-id") == nil && rest[1].header("x-youll-user-id") == "u-42")
        #expect(rest[1].header("x-hasura-role") == nil && rest[1].header("device-id") == nil)
        let body = try graphQL[0].decodeBody([String: JSONValue].self)
        #expect(body["operationName"] == .string("Categories") && body["variables"] == .object(["extraLang": .string("")]))
    }

    @Test func theConfigurationAndTheSessionDecideWhichOperationsNeedAToken() async throws {
        let harness = try await YoullHarness.make { $0.tokenRequiredOperations = ["categories"] }
        defer { Task { await harness.stop() } }
        let error = await #expect(throws: EngageError.self) { try await harness.youll.fetch(.categories()) }
        #expect(error?.code == .youllMissingAccessToken)
        let session = TestSession(token: nil, userID: nil)
        session.required = ["categories": false]
        harness.youll.setSession(session)
        #expect(try await harness.youll.fetch(.categories()).count == 4)
    }

    @Test func aThousandCallsWithAnExpiredTokenCauseOneHostRefresh() async throws {
        // The thousand requests share 16 connections, and a request waiting for one counts as silent:
        // with the whole suite on two cores, the last ones could wait longer than the usual 20 s.
        let harness = try await YoullHarness.make(timeoutSeconds: 120)
        defer { Task { await harness.stop() } }
        let session = harness.userSession("u-1", lifetime: .seconds(60))
        let gate = TestGate()
        let refreshing = TestGate()
        session.setRefresh {
            refreshing.open()
            await gate.wait()
            return harness.emulator.issueToken(userID: "u-1", lifetime: .seconds(3600))
        }
        harness.youll.setSession(session)
        harness.clock.advance(by: .seconds(120))
        let youll = harness.youll
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<1000 {
                group.addTask { try await youll.fetch(.exploreTags()).count }
            }
            await refreshing.wait()  // the host's refresh has begun; the other calls queue behind it
            gate.open()
            var answered = 0
            for try await count in group where count == 4 { answered += 1 }
            #expect(answered == 1000)
        }
        #expect(session.refreshCount == 1)
        let sent = await harness.requests(path: "/v1/graphql")
        #expect(sent.count == 1000 && Set(sent.compactMap { $0.header("authorization") }).count == 1)
    }

    @Test func invalidJWTIsRefreshedOnceAndSentOnce() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let good = harness.emulator.issueToken(userID: "u-1")
        let forged = String(good.dropLast(4)) + "AAAA"  // not expired for the client, refused by the backend
        let session = TestSession(token: forged, userID: "u-1") { good }
        harness.youll.setSession(session)
        #expect(try await harness.youll.fetch(.playlists()).isEmpty)
        #expect(session.refreshCount == 1)
        let sent = await harness.requests(path: "/v1/graphql")
        #expect(sent.map { $0.header("authorization") } == ["Bearer \(forged)", "Bearer \(good)"])
    }

    @Test func aSecondInvalidJWTIsAnErrorNotALoop() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let good = harness.emulator.issueToken(userID: "u-1")
        let forged = String(good.dropLast(4)) + "AAAA"
        let session = TestSession(token: forged, userID: "u-1") { String(good.dropLast(4)) + "BBBB" }
        harness.youll.setSession(session)
        let error = await #expect(throws: EngageError.self) { try await harness.youll.fetch(.playlists()) }
        #expect(error?.code == .sessionExpired && error?.message.contains("JWSInvalidSignature") == true)
        #expect(session.refreshCount == 1)
        #expect(await harness.requests(path: "/v1/graphql").count == 2)
    }

    @Test func aRefreshTheHostCannotDoFailsTheCallWithoutSendingIt() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        struct AuthDown: Error {}
        let session = harness.userSession("u-1", lifetime: .seconds(60))
        session.setRefresh { throw AuthDown() }
        harness.youll.setSession(session)
        harness.clock.advance(by: .seconds(61))
        await #expect(throws: EngageError.self) { try await harness.youll.fetch(.playlists()) }
        await #expect(throws: EngageError.self) { try await harness.youll.fetch(.profile()) }
        #expect(harness.host.journal.entries(for: "youll").isEmpty)
    }

    @Test func anExpiredRESTTokenIsRefreshedFirst() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let session = harness.userSession("u-1", lifetime: .seconds(60))
        session.setRefresh { harness.emulator.issueToken(userID: "u-1", lifetime: .seconds(3600)) }
        harness.youll.setSession(session)
        harness.clock.advance(by: .seconds(61))
        #expect(try await harness.youll.fetch(.profile()).id == "u-1")
        #expect(session.refreshCount == 1 && harness.host.journal.entries(for: "youll").count == 1)
    }

    @Test func theCallbackSessionAdapterAnswersOnceAndGivesUp() async throws {
        final class Bridge: YoullSessionDataSource, @unchecked Sendable {
            let calls: Int
            init(calls: Int) { self.calls = calls }
            var isLoggedIn: Bool { true }
            var accessToken: String? { "t" }
            var userInfo: YoullUserInfo { YoullUserInfo(userID: "u-1", deviceID: "d-1") }
            func refreshToken(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                for index in 0..<calls { completion(.success("token-\(index)")) }
            }
        }
        // Called twice: the first answer counts, and nothing traps.
        #expect(try await YoullCallbackSession(Bridge(calls: 2)).refreshToken() == "token-0")
        // Never called: a timeout error instead of a hang.
        let error = await #expect(throws: EngageError.self) {
            try await YoullCallbackSession(Bridge(calls: 0), refreshTimeout: .milliseconds(20)).refreshToken()
        }
        #expect(error?.code == .timeout)
        let session = YoullCallbackSession(Bridge(calls: 1))
        #expect(await session.userInfo().deviceID == "d-1" && session.requiresToken(operation: "x", byDefault: true))
    }
}
