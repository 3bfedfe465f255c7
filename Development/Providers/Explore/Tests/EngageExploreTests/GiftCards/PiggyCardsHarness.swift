#if PiggyCards
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
    @_spi(EngageProvider) @testable import EngageCore
    @_spi(EngageProvider) @testable import EngageExplore
    @_spi(EngageProvider) import EngageSandbox
    @_spi(EngageProvider) @testable import EngageTesting
    import ExploreEmulator
    import Foundation
    import Testing

    /// A sandbox serving the PiggyCards emulator and a `PiggyCardsClient` pointed at it, sharing one
    /// `FakeClock`.
    struct PiggyCardsHarness {
        let clock = FakeClock()
        let emulator: PiggyCardsEmulator
        let host: SandboxHost
        let test: GiftCardTestContext
        let client: PiggyCardsClient
        /// Where the emulator answers (`http://127.0.0.1:<port>/piggycards`).
        let baseURL: URL

        /// `sleep` is what the host's `.delay` faults wait on (real time by default).
        init(
            configuration: PiggyCardsEmulator.Configuration = .init(), timeoutSeconds: Double = 30,
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        ) async throws {
            emulator = PiggyCardsEmulator(configuration: configuration)
            let clock = clock
            host = SandboxHost(emulators: [emulator], configuration: SandboxConfiguration(now: { clock.now }, sleep: sleep))
            baseURL = try #require(try await host.start().baseURL(for: "piggycards"))
            test = try GiftCardTestContext(clock: clock, timeoutSeconds: timeoutSeconds)
            client = try PiggyCardsClient(configuration: PiggyCardsConfiguration(baseURL: baseURL), context: test.context)
        }

        /// Signs up, reads the OTP from the emulator's "inbox" and verifies it (which logs in).
        func signIn(email: String = "rui@example.com") async throws {
            try await client.signUp(firstName: "Rui", lastName: "Costa", email: email, country: "US")
            try await client.verify(otp: try #require(emulator.otp(for: email)))
        }

        /// A product of the standard catalogue, as the client reads it.
        func product(_ id: String) async throws -> PiggyCardsProduct {
            let brandID = try #require(emulator.catalogue.products.first { String($0.id) == id }.map { String($0.brandID) })
            return try #require(try await client.giftCards(country: "US", brandID: brandID).first { $0.id == id })
        }

        func requests(to path: String) -> [JournalEntry] {
            host.journal.entries(for: "piggycards").filter { $0.path == path }
        }

        func stop() async { await host.stop() }
    }
#endif
