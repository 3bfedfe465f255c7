@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import EngageTestTraits
import Testing

extension GiftCardSuites {
    @Suite("CTX sign-in and session tokens (end to end)", .bounded)
    struct CTXSessionTests {
        @Test("login e-mails a code; verify-email signs in with headers, body and sealed tokens; sign-out forgets the session")
        func signInAndOut() async throws {
            let harness = try await CTXHarness()
            #expect(try await harness.client.isSignedIn() == false)
            try await harness.signIn(email: "Ana@Example.com")
            #expect(try await harness.client.isSignedIn())
            let login = try #require(harness.requests(to: "/login").first)
            #expect(try login.decodeBody(CTXWire.LoginRequest.self).email == "Ana@Example.com")
            #expect(login.header("X-Client-Id") == CTXHarness.clientID)
            #expect(login.header("Accept-Language") == "en")
            #expect(login.header("Authorization") == nil)
            let verify = try #require(harness.requests(to: "/verify-email").first)
            #expect(try verify.decodeBody(CTXWire.VerifyEmailRequest.self).code.count == 6)
            // The tokens are sealed in the namespace, never stored in plain text.
            let storage = harness.test.context.storage
            #expect(try storage.keys().contains(CTXClient.tokenStorageKey))
            #expect(throws: EngageError.self) { try storage.data(forKey: CTXClient.tokenStorageKey) }
            #expect(try storage.sealedValue(TokenPair.self, forKey: CTXClient.tokenStorageKey) != nil)

            try await harness.client.signOut()
            #expect(try await harness.client.isSignedIn() == false)
            await harness.stop()
        }

        @Test("a wrong code is .exploreGiftCardCodeInvalid (HTTP 400) with the server's message; nothing is stored")
        func wrongCode() async throws {
            let harness = try await CTXHarness()
            try await harness.client.requestCode(email: "ana@example.com")
            let error = await engageError { try await harness.client.verify(email: "ana@example.com", code: "000000x") }
            #expect(error?.code == .exploreGiftCardCodeInvalid)
            #expect(error?.httpStatus == 400)
            #expect(error?.message.contains("Invalid or expired code") == true)
            #expect(error?.providerID == .explore)
            #expect(try await harness.client.isSignedIn() == false)
            await harness.stop()
        }

        @Test("a 2xx verify-email without tokens is a failure and signs nobody in")
        func verifyWithoutTokens() async throws {
            let harness = try await CTXHarness()
            harness.host.faults.inject(
                FaultRule(
                    .status(200, body: Data(#"{"accessToken":null}"#.utf8), headers: ["Content-Type": "application/json"]),
                    emulatorID: "ctx", method: "POST", path: "/verify-email", trigger: .times(1)
                ))
            let error = await engageError { try await harness.client.verify(email: "ana@example.com", code: "123456") }
            #expect(error?.code == .exploreGiftCardUnexpectedAnswer)
            #expect(try await harness.client.isSignedIn() == false)
            await harness.stop()
        }

        @Test("a sign-out while a code is being verified leaves no session behind", .bounded(deadline: .seconds(60)))
        func signOutDuringVerification() async throws {
            let harness = try await CTXHarness()
            let email = "ana@example.com"
            try await harness.client.requestCode(email: email)
            let code = try #require(harness.emulator.loginCode(for: email))
            harness.host.faults.inject(
                FaultRule(.delay(.seconds(1)), emulatorID: "ctx", method: "POST", path: "/verify-email", trigger: .times(1)))
            let client = harness.client
            let verify = Task { try await client.verify(email: email, code: code) }
            try await eventuallyTrue("the code reaches the server") { await harness.gate.arrivals == 1 }
            try await client.signOut()
            await harness.gate.open()
            let outcome = await verify.result
            #expect(throws: EngageError.self) { try outcome.get() }
            #expect(try await client.isSignedIn() == false, "the verification's session did not outlive the sign-out")
            await harness.stop()
        }

        @Test("rotated tokens are stored even though the caller that triggered the refresh was cancelled")
        func rotatedTokensSurviveCancellation() async throws {
            let harness = try await CTXHarness()
            try await harness.signIn()
            let before = try #require(try await harness.client.tokens.currentTokens())
            harness.host.faults.inject(
                FaultRule(.delay(.seconds(1)), emulatorID: "ctx", method: "POST", path: "/refresh-token", trigger: .times(1)))
            harness.clock.advance(by: .seconds(700))  // past the 600 s access token
            let client = harness.client
            let caller = Task { try await probe(client, "tx-1") }
            try await eventuallyTrue("the refresh reaches the server") { await harness.gate.arrivals == 1 }
            caller.cancel()
            await harness.gate.open()
            _ = await caller.result  // cancelled, or finished: either way the refresh completed on its own
            try await eventuallyTrue("the rotated pair is stored") {
                (try? await client.tokens.currentTokens())?.refreshToken != before.refreshToken
            }
            #expect(harness.emulator.refreshCount == 1)
            // The stored pair is the rotated one: the old refresh token is spent, yet the next refresh works.
            harness.clock.advance(by: .seconds(700))
            try await probe(client, "tx-1")
            #expect(harness.emulator.refreshCount == 2)
            await harness.stop()
        }

        @Test("a transient refresh failure (503, a dropped connection) keeps the tokens and is sent once; the next call refreshes")
        func transientRefreshFailureKeepsTokens() async throws {
            // A dropped connection surfaces as a network error or, when libcurl waits for a reply, a timeout.
            let harness = try await CTXHarness(timeoutSeconds: 2)
            try await harness.signIn()
            let before = try #require(try await harness.client.tokens.currentTokens())
            harness.clock.advance(by: .seconds(700))
            harness.host.faults.inject(
                FaultRule(.status(503), emulatorID: "ctx", method: "POST", path: "/refresh-token", trigger: .times(1)))
            let serverError = await engageError { try await probe(harness.client, "tx") }
            #expect(serverError?.code == .exploreGiftCardServer)
            #expect(serverError?.isRetryable == true)
            #expect(try await harness.client.tokens.currentTokens() == before)
            #expect(harness.requests(to: "/refresh-token").count == 1)  // the rotating refresh token is presented once

            harness.host.faults.inject(FaultRule(.dropConnection, emulatorID: "ctx", method: "POST", path: "/refresh-token"))
            let networkError = await engageError { try await probe(harness.client, "tx") }
            #expect(networkError?.isRetryable == true)
            #expect(networkError?.code == .network || networkError?.code == .timeout)
            #expect(try await harness.client.tokens.currentTokens() == before)
            #expect(try await harness.client.isSignedIn())
            #expect(harness.requests(to: "/refresh-token").count == 2)

            harness.host.faults.removeAll()
            try await probe(harness.client, "tx")
            #expect(harness.emulator.refreshCount == 1)
            #expect(harness.requests(to: "/refresh-token").count == 3)
            #expect(try await harness.client.tokens.currentTokens() != before)
            await harness.stop()
        }

        @Test("a 401 on refresh clears the tokens: .sessionExpired, signed out, then .unauthorized without a request")
        func rejectedRefreshSignsOut() async throws {
            let harness = try await CTXHarness()
            try await harness.signIn()
            harness.emulator.revokeRefreshTokens()
            harness.clock.advance(by: .seconds(700))
            let error = await engageError { try await probe(harness.client, "tx") }
            #expect(error?.code == .sessionExpired)
            #expect(error?.httpStatus == 401)
            #expect(try await harness.client.isSignedIn() == false)
            let sent = harness.host.journal.entries(for: "ctx").count
            let after = await engageError { try await probe(harness.client, "tx") }
            #expect(after?.code == .unauthorized)
            #expect(harness.host.journal.entries(for: "ctx").count == sent)
            await harness.stop()
        }

        @Test("40 concurrent callers on an expired token share one refresh request")
        func concurrentCallersShareOneRefresh() async throws {
            let harness = try await CTXHarness()
            try await harness.signIn()
            harness.clock.advance(by: .seconds(700))
            let client = harness.client
            let failures = await withTaskGroup(of: String?.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        do {
                            try await probe(client, "tx-\(index)")
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
            #expect(failures.isEmpty, "\(failures.first ?? "")")
            #expect(harness.emulator.refreshCount == 1)
            #expect(harness.requests(to: "/refresh-token").count == 1)
            #expect(await client.tokens.refreshCount == 1)
            await harness.stop()
        }

        @Test("a 401 on a protected call refreshes, then resends it once; a second 401 is returned")
        func unauthorizedRefreshesAndRetriesOnce() async throws {
            let harness = try await CTXHarness()
            try await harness.signIn()
            harness.host.faults.inject(FaultRule(.status(401), emulatorID: "ctx", method: "GET", path: "/gift-cards", trigger: .times(1)))
            try await probe(harness.client, "tx")
            #expect(harness.emulator.refreshCount == 1)
            #expect(harness.requests(to: "/gift-cards").count == 2)

            harness.host.faults.inject(FaultRule(.status(401), emulatorID: "ctx", method: "GET", path: "/gift-cards"))
            let error = await engageError { try await probe(harness.client, "tx") }
            #expect(error?.code == .unauthorized)
            #expect(error?.httpStatus == 401)
            #expect(harness.requests(to: "/gift-cards").count == 4)
            #expect(harness.emulator.refreshCount == 2)
            await harness.stop()
        }
    }
}

/// An authorised request that reaches CTX's route: `GET gift-cards?txid=` for a transaction that paid
/// no card, which CTX answers 404 (inferred: the official clients treat a failure as "no card"). Any
/// other failure is thrown.
private func probe(_ client: CTXClient, _ transactionID: String) async throws {
    do {
        _ = try await client.giftCard(transactionID: transactionID)
    } catch let error as EngageError where error.httpStatus == 404 {
        return
    }
}
