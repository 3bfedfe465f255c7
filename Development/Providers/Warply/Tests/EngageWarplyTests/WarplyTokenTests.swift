@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator

@Suite("Warply session tokens", .bounded)
struct WarplyTokenTests {
    @Test("500 concurrent calls on an expired token share exactly one refresh")
    func burstSharesOneRefresh() async throws {
        let harness = try await WarplyHarness()
        // 500 requests queue behind a handful of loopback connections: on a loaded machine the last ones
        // wait longer than the testing preset's 5 s request timeout, which is not what this test is about.
        let (engage, warply) = try await harness.loggedIn(harness.warplyConfiguration { $0.requestTimeoutSeconds = 120 })
        let before = try #require(try await warply.tokens.currentTokens())
        harness.clock.advance(by: .seconds(3_700))  // past the 3600 s access token lifetime
        let failures = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<500 {
                group.addTask {
                    do {
                        _ = try await warply.profile()
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
            }
            var failures: [String] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        #expect(failures.isEmpty, "\(failures.count) of 500 failed, the first with: \(failures.first ?? "")")
        #expect(harness.emulator.refreshCount == 1)
        #expect(await warply.tokens.refreshCount == 1)
        #expect(harness.requests(to: WarplyPaths.token).count == 1)
        let after = try #require(try await warply.tokens.currentTokens())
        #expect(after.accessToken != before.accessToken)
        #expect(after.refreshToken != before.refreshToken)  // rotated
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a token refreshes proactively within 5 minutes of expiry")
    func proactiveRefresh() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        harness.clock.advance(by: .seconds(3_600 - 299))
        _ = try await warply.profile()
        #expect(harness.emulator.refreshCount == 1)
        // Well before the window: no refresh.
        _ = try await warply.profile()
        #expect(harness.emulator.refreshCount == 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a 401 refreshes once and resends the request once")
    func unauthorizedRetry() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        harness.host.faults.inject(
            FaultRule(.status(401), emulatorID: "warply", method: "POST", path: WarplyPaths.authenticatedContext, trigger: .times(1)))
        let profile = try await warply.profile()
        #expect(profile.email == "maria@example.gr")
        #expect(harness.emulator.refreshCount == 1)
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).count == 2)

        // A server that keeps answering 401 is not asked a third time.
        harness.host.faults.inject(FaultRule(.status(401), emulatorID: "warply", method: "POST", path: WarplyPaths.authenticatedContext))
        await #expect { try await warply.profile() } throws: { ($0 as? EngageError)?.httpStatus == 401 }
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).count == 4)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a rejected refresh ends the session, clears the tokens and publishes SessionEndedEvent")
    func rejectedRefresh() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        _ = try await warply.coupons()
        #expect(!warply.state.couponList.isEmpty)
        let ended = engage.events.stream(of: SessionEndedEvent.self)
        harness.emulator.revokeAllRefreshTokens()
        harness.clock.advance(by: .seconds(3_700))
        await #expect { try await warply.profile() } throws: { ($0 as? EngageError)?.code == .sessionExpired }
        #expect(try await warply.isLoggedIn() == false)
        #expect(warply.state.couponList.isEmpty)  // the user's data ends with the session
        var iterator = ended.makeAsyncIterator()
        #expect(await iterator.next()?.providerID == .warply)
        // Without a session, bearer operations fail before any request.
        let sent = harness.requests(to: WarplyPaths.authenticatedContext).count
        await #expect { try await warply.coupons() } throws: { ($0 as? EngageError)?.code == .unauthorized }
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).count == sent)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a refresh refused in the body (HTTP 200, status 0, no tokens) ends the session instead of counting as transient")
    func refreshRefusedInBody() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        harness.host.faults.inject(
            FaultRule(
                .status(
                    200, body: Data(#"  {"status":0,"msg":"invalid refresh token"}"#.utf8), headers: ["Content-Type": "application/json"]),
                emulatorID: "warply", method: "POST", path: WarplyPaths.token, trigger: .times(1)
            ))
        harness.clock.advance(by: .seconds(3_700))
        await #expect { try await warply.profile() } throws: { ($0 as? EngageError)?.code == .sessionExpired }
        #expect(try await warply.isLoggedIn() == false)
        #expect(harness.requests(to: WarplyPaths.token).count == 1)  // a refusal is not attempted again
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a refresh failing with 5xx keeps the tokens, opens the breaker after 5 failures, half-opens after 300 s")
    func failingRefreshOpensBreaker() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let tokens = try #require(try await warply.tokens.currentTokens())
        let fault = harness.host.faults.inject(FaultRule(.status(503), emulatorID: "warply", method: "POST", path: WarplyPaths.token))
        harness.clock.advance(by: .seconds(3_700))
        for _ in 0..<5 {
            await #expect { try await warply.profile() } throws: { error in
                let error = error as? EngageError
                return error?.httpStatus == 503 && error?.isRetryable == true
            }
        }
        #expect(try await warply.tokens.currentTokens() == tokens)  // kept
        #expect(harness.requests(to: WarplyPaths.token).count == 5)
        // Open: no sixth refresh request.
        await #expect { try await warply.profile() } throws: { ($0 as? EngageError)?.code == .circuitOpen }
        #expect(harness.requests(to: WarplyPaths.token).count == 5)

        harness.host.faults.remove(fault)
        harness.clock.advance(by: .seconds(300))
        _ = try await warply.profile()  // the half-open trial succeeds
        #expect(harness.requests(to: WarplyPaths.token).count == 6)
        #expect(try await warply.tokens.currentTokens() != tokens)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a refresh is sent once under 5xx and a dropped connection, even when a configuration asks for refresh attempts")
    func refreshSentOnce() async throws {
        // Configurations in the wild carry the earlier `tokens.refreshAttempts`; the rotating refresh token
        // must not be presented again however many attempts they ask for (immediately, here).
        let harness = try await WarplyHarness()
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(harness.warplyConfiguration())) as? [String: Any])
        object["tokens"] = ["refreshAttempts": 3, "refreshRetryDelaysSeconds": [0, 0]]
        // A dropped POST fails after the timeout on Linux (docs/decisions.md). The same timeout governs the
        // calls that must succeed, so it leaves room for a loaded machine (2 s timed out under the full
        // parallel suite).
        object["requestTimeoutSeconds"] = 6
        let configuration = try JSONDecoder().decode(WarplyConfiguration.self, from: JSONSerialization.data(withJSONObject: object))
        let (engage, warply) = try await harness.loggedIn(configuration)
        let tokens = try #require(try await warply.tokens.currentTokens())
        harness.clock.advance(by: .seconds(3_700))

        harness.host.faults.inject(
            FaultRule(.status(503), emulatorID: "warply", method: "POST", path: WarplyPaths.token, trigger: .times(3)))
        let serverError = await #expect(throws: EngageError.self) { try await warply.profile() }
        #expect(serverError?.httpStatus == 503 && serverError?.isRetryable == true)
        #expect(harness.requests(to: WarplyPaths.token).count == 1)
        harness.host.faults.removeAll()

        harness.host.faults.inject(
            FaultRule(.dropConnection, emulatorID: "warply", method: "POST", path: WarplyPaths.token, trigger: .times(3)))
        let networkError = await #expect(throws: EngageError.self) { try await warply.profile() }
        #expect(networkError?.code == .network || networkError?.code == .timeout)
        #expect(harness.requests(to: WarplyPaths.token).count == 2)
        #expect(try await warply.tokens.currentTokens() == tokens)  // kept through both failures
        harness.host.faults.removeAll()

        _ = try await warply.profile()
        #expect(harness.requests(to: WarplyPaths.token).count == 3)
        #expect(try await warply.tokens.currentTokens() != tokens)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a login racing a rejected refresh of the previous session keeps the new session's client credentials")
    func loginRacingOldRefresh() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: "old@example.gr")
        // While the new login installs its session, the previous session's refresh is refused (401).
        warply.beforeSessionInstall.withLock {
            $0 = { [harness] in
                _ = harness.host.faults.inject(
                    FaultRule(.status(401), emulatorID: "warply", method: "POST", path: WarplyPaths.token, trigger: .times(1)))
                _ = try? await warply.tokens.refresh()
            }
        }
        try await warply.logIn(deiEmail: "new@example.gr")
        warply.beforeSessionInstall.withLock { $0 = nil }
        #expect(harness.requests(to: WarplyPaths.token).map(\.status) == [401], "the old session's refresh was sent and refused")
        #expect(try await warply.isLoggedIn())
        #expect(try warply.session.clientCredentials() != nil, "the refused refresh of the old session removed the new credentials")
        // The new session refreshes with its own credentials once its token expires.
        harness.clock.advance(by: .seconds(3_700))
        _ = try await warply.profile()
        #expect(try await warply.isLoggedIn())
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the breaker threshold and cooldown are configurable")
    func configurableBreaker() async throws {
        let harness = try await WarplyHarness()
        let configuration = harness.warplyConfiguration {
            $0.auth = AuthSettings(breakerFailureThreshold: 2, breakerCooldownSeconds: 60)
        }
        let (engage, warply) = try await harness.loggedIn(configuration)
        harness.host.faults.inject(FaultRule(.status(500), emulatorID: "warply", method: "POST", path: WarplyPaths.token))
        harness.clock.advance(by: .seconds(3_700))
        for _ in 0..<2 { _ = try? await warply.profile() }
        await #expect { try await warply.profile() } throws: { ($0 as? EngageError)?.code == .circuitOpen }
        harness.host.faults.removeAll()
        harness.clock.advance(by: .seconds(60))
        _ = try await warply.profile()
        await engage.shutdown()
        await harness.stop()
    }

    @Test("tokens survive a restart, sealed: the database file holds no token text")
    func tokensSurviveRestartSealed() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warply-tokens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let secrets = InMemorySecretStore()
        let storage = StorageLocation.directory(directory.path)

        let (first, warply) = try await harness.startProvider(storage: storage, secretStore: secrets)
        try await warply.logIn(deiEmail: "nikos@example.gr")
        let tokens = try #require(try await warply.tokens.currentTokens())
        await first.shutdown()

        let (second, reopened) = try await harness.startProvider(storage: storage, secretStore: secrets)
        #expect(try await reopened.isLoggedIn())
        #expect(try await reopened.tokens.currentTokens() == tokens)
        #expect(try await reopened.profile().email == "nikos@example.gr")
        #expect(harness.emulator.registrationCount == 1)  // the registration survived too
        await second.shutdown()

        // Every file of the store (database, WAL, shared memory) is free of the secrets.
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.path)
        #expect(!files.isEmpty)
        // Whole tokens, and their signature parts alone (in case a token were stored split).
        let parts = [tokens.accessToken, tokens.refreshToken ?? ""].compactMap { $0.split(separator: ".").last.map(String.init) }
        let secretsToFind = ([tokens.accessToken, tokens.refreshToken ?? "", "nikos@example.gr"] + parts).filter { $0.count >= 8 }
        for file in files {
            let data = (try? Data(contentsOf: directory.appendingPathComponent(file))) ?? Data()
            for secret in secretsToFind {
                #expect(data.range(of: Data(secret.utf8)) == nil, "\(file) contains a secret in clear text")
            }
        }
        await harness.stop()
    }

    @Test("logout clears the stored session and the in-memory state, and tells Warply")
    func logoutClears() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        _ = try await warply.coupons()
        #expect(!warply.state.couponList.isEmpty)
        try await warply.logOut()
        #expect(try await warply.isLoggedIn() == false)
        #expect(warply.state.couponList.isEmpty)
        #expect(harness.requests(to: WarplyWire.path(.logout, appUUID: WarplyHarness.appUUID)).count == 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("tokens supplied by the host app are used and refreshed with the login's client credentials")
    func hostSuppliedTokens() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let refresh = try #require(try await warply.tokens.currentTokens()?.refreshToken)
        // An access token the server does not accept, with a valid refresh token.
        try await warply.updateTokens(accessToken: "not-a-valid-token", refreshToken: refresh)
        _ = try await warply.profile()
        #expect(harness.emulator.refreshCount == 1)
        await #expect { try await warply.updateTokens(accessToken: "", refreshToken: refresh) } throws: {
            ($0 as? EngageError)?.code == .invalidInput
        }
        await engage.shutdown()
        await harness.stop()
    }
}
