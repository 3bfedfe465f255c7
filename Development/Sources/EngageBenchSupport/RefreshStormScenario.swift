@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageTesting
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import ReferenceEmulator

/// Benchmark 2: `concurrency` concurrent authorised GETs while the access token is expired must cause
/// exactly one `POST /auth/refresh`, and all of them must succeed. The baseline is the same burst with
/// a valid token.
public final class RefreshStormScenario: Sendable {
    /// Concurrent calls per burst.
    public let concurrency: Int
    /// The items document size each call asks for (small: the burst measures coordination, not bytes).
    public static let itemsSize = 64

    public let sandbox: BenchSandbox
    @_spi(EngageProvider) public let tokens: TokenManager
    @_spi(EngageProvider) public let client: APIClient

    /// What one burst did.
    public struct Outcome: Sendable {
        public var succeeded: Int
        public var failed: Int
        /// `/auth/refresh` calls the emulator served during the burst.
        public var refreshes: Int
        /// The first failure, for the error message.
        public var firstError: String?
    }

    private init(concurrency: Int, sandbox: BenchSandbox, tokens: TokenManager, client: APIClient) {
        self.concurrency = concurrency
        self.sandbox = sandbox
        self.tokens = tokens
        self.client = client
    }

    public static func start(concurrency: Int = 1000) async throws -> RefreshStormScenario {
        let sandbox = try await BenchSandbox.start()
        do {
            let tokens = sandbox.makeTokenManager(refreshClient: sandbox.makeClient())
            try await tokens.setTokens(try await sandbox.logIn())
            let client = sandbox.makeClient(authorizer: BearerAuthorizer(tokens: tokens))
            return RefreshStormScenario(concurrency: concurrency, sandbox: sandbox, tokens: tokens, client: client)
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    /// How many refreshes the emulator served since it started.
    public var totalRefreshes: Int { sandbox.emulator.refreshCount }

    /// Moves the shared clock (sandbox and client) past the access token's expiry.
    public func expireToken() {
        sandbox.clock.advance(by: BenchSandbox.tokenLifetime * 2)
    }

    /// Runs one burst of `concurrency` concurrent authorised GETs.
    public func burst() async -> Outcome {
        let refreshesBefore = sandbox.emulator.refreshCount
        let client = self.client
        var outcome = Outcome(succeeded: 0, failed: 0, refreshes: 0)
        await withTaskGroup(of: String?.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    do {
                        let data = try await client.data(
                            .get, "/items", query: [("size", String(Self.itemsSize))],
                            options: RequestOptions(authorization: .required)
                        )
                        return data.isEmpty ? "empty body" : nil
                    } catch {
                        return String(describing: error)
                    }
                }
            }
            for await failure in group {
                if let failure {
                    outcome.failed += 1
                    if outcome.firstError == nil { outcome.firstError = failure }
                } else {
                    outcome.succeeded += 1
                }
            }
        }
        outcome.refreshes = sandbox.emulator.refreshCount - refreshesBefore
        return outcome
    }

    /// Throws unless every call succeeded and exactly `refreshes` refreshes happened.
    public func verify(_ outcome: Outcome, refreshes expected: Int) throws {
        guard outcome.succeeded == concurrency, outcome.refreshes == expected else {
            throw BenchFailure(
                "Burst of \(concurrency): \(outcome.succeeded) succeeded, \(outcome.failed) failed, "
                    + "\(outcome.refreshes) refresh(es) (expected \(expected))"
                    + (outcome.firstError.map { "; first error: \($0)" } ?? "")
            )
        }
    }

    /// One storm: expire, burst, verify exactly one refresh and no failure. Returns the burst's wall time.
    public func storm() async throws -> Duration {
        expireToken()
        let (outcome, elapsed) = await timed { await burst() }
        try verify(outcome, refreshes: 1)
        return elapsed
    }

    /// One baseline burst with the valid token: verifies no refresh and no failure.
    public func validBurst() async throws -> Duration {
        let (outcome, elapsed) = await timed { await burst() }
        try verify(outcome, refreshes: 0)
        return elapsed
    }

    public func stop() async {
        await sandbox.stop()
    }
}
