@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("Engage facade", .bounded)
struct FacadeTests {
    func start(alpha: ScriptedConfiguration, beta: ScriptedConfiguration, gamma: ScriptedConfiguration? = nil) async throws -> Engage {
        var providers: [ProviderRegistration] = [
            .provider(AlphaProvider.self, configuration: alpha),
            .provider(BetaProvider.self, configuration: beta),
        ]
        if let gamma { providers.append(.provider(GammaProvider.self, configuration: gamma)) }
        return try await Engage.start(configuration: testConfiguration(), providers: providers, environment: testEnvironment())
    }

    @Test("offers merge across providers in registration order, each tagged with its provider")
    func offersMerge() async throws {
        let engage = try await start(alpha: .init(offers: ["a1", "a2"]), beta: .init(offers: ["b1"]))
        let result = try await engage.offers()
        #expect(result.items.map(\.id) == ["a1", "a2", "b1"])
        #expect(result.items.map(\.providerID) == ["alpha", "alpha", "beta"])
        #expect(result.isComplete)
        #expect(result.report.succeeded == ["alpha", "beta"])
        await engage.shutdown()
    }

    @Test("a failing provider is reported, not hidden, and does not hide the others' results")
    func partialFailure() async throws {
        let engage = try await start(alpha: .init(offers: ["a1"]), beta: .init(failOffers: true), gamma: .init(offers: ["g1"]))
        let result = try await engage.offers()
        #expect(result.items.map(\.id) == ["a1", "g1"])
        #expect(!result.isComplete)
        #expect(result.report.succeeded == ["alpha", "gamma"])
        let failure = try #require(result.report.failures["beta"])
        #expect(failure.httpStatus == 503)
        #expect(failure.providerID == "beta")
        await engage.shutdown()
    }

    @Test("a provider that failed to start is left out and listed in the start report")
    func startFailureExcluded() async throws {
        let engage = try await start(alpha: .init(failStart: true), beta: .init(offers: ["b1"]))
        #expect(await engage.waitUntilReady().failures["alpha"] != nil)
        let result = try await engage.offers()
        #expect(result.items.map(\.id) == ["b1"])
        await engage.shutdown()
    }

    @Test("merchants near a point come back nearest first")
    func merchantsNear() async throws {
        let engage = try await start(alpha: .init(), beta: .init())
        let athens = try GeoPoint(latitude: 37.98, longitude: 23.72)
        let result = try await engage.merchants(near: athens, radiusMeters: 100_000)
        #expect(result.items.map(\.name) == ["near", "mid", "far"])
        await engage.shutdown()
    }

    @Test("an operation no running provider supports throws .unsupported")
    func unsupported() async throws {
        let engage = try await start(alpha: .init(), beta: .init())
        await #expect {
            try await engage.content()
        } throws: { ($0 as? EngageError)?.code == .unsupported }
        await engage.shutdown()
    }

    @Test("when every provider with the capability failed to start, the error names them and points at ready().failures")
    func unsupportedAfterStartFailures() async throws {
        let engage = try await start(alpha: .init(failStart: true), beta: .init(failStart: true))
        let error = await #expect(throws: EngageError.self) { try await engage.offers() }
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("failed to start: alpha, beta") == true)
        #expect(error?.recoverySuggestion?.contains("engage.waitUntilReady().failures") == true)
        let none = try await start(alpha: .init(), beta: .init())
        let plain = await #expect(throws: EngageError.self) { try await none.content() }
        #expect(plain?.recoverySuggestion?.contains("EngageConfiguration.providers") == true)
        await engage.shutdown()
        await none.shutdown()
    }

    @Test("an event property holding NaN is refused with .invalidInput before anything is stored")
    func nonFiniteProperty() async throws {
        let engage = try await start(alpha: .init(), beta: .init())
        let event = TrackedEvent(.custom, name: "measured", properties: ["values": [1, .number(.nan)]])
        let error = await #expect(throws: EngageError.self) { try await engage.track(event) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("values") == true)
        #expect(try await engage.registry.analytics.pendingCount() == 0)
        await engage.shutdown()
    }

    @Test("a provider a login does not apply to is reported apart, not as a failure")
    func notApplicableOutcome() async throws {
        let engage = try await start(alpha: .init(), beta: .init())
        let report = try await engage.logIn(UserIdentity(userID: "host-owned"))
        #expect(report.failures.isEmpty)
        #expect(report.isComplete)
        #expect(report.notApplicable["alpha"] == "Alpha's session belongs to the host app.")
        #expect(report.succeeded.isEmpty)
        await engage.shutdown()
    }

    @Test("capabilities follow from the protocols a provider adopts; a fan-out reaches exactly those providers")
    func capabilitiesFromConformance() async throws {
        #expect(AlphaProvider.capabilities == [.offers, .identity])
        #expect(BetaProvider.capabilities == [.offers, .merchantDirectory])
        #expect(DishonestProvider.capabilities.isEmpty)
        let engage = try await Engage.start(
            configuration: testConfiguration(),
            providers: [
                .provider(AlphaProvider.self, configuration: ScriptedConfiguration(offers: ["a"])),
                .provider(DishonestProvider.self, configuration: EmptyConfiguration()),
            ],
            environment: testEnvironment()
        )
        #expect(await engage.registry.providers(with: .offers).map { type(of: $0).descriptor.id } == ["alpha"])
        #expect(await engage.registry.providers(with: "acme.deals").isEmpty)
        let offers = try await engage.offers()
        #expect(offers.report.succeeded == ["alpha"])
        #expect(offers.report.failures.isEmpty)
        await #expect { try await engage.content() } throws: { ($0 as? EngageError)?.code == .unsupported }
        await engage.shutdown()
    }

    @Test("setPushToken with no provider that takes push tokens sends nothing and reports nothing")
    func pushTokenWithoutReceivers() async throws {
        let engage = try await Engage.start(
            configuration: testConfiguration(),
            providers: [.provider(AlphaProvider.self, configuration: ScriptedConfiguration(offers: ["a"]))],
            environment: testEnvironment()
        )
        let report = try await engage.setPushToken(Data([0xab, 0xcd]))
        #expect(report.succeeded.isEmpty && report.failures.isEmpty)
        #expect(AlphaProvider.capabilities.contains(.pushToken) == false)
        await engage.shutdown()
    }

    /// Before, the cancelled caller got a "successful" result: the other providers' items, and the
    /// cancelled one listed as a failure.
    @Test("a fan-out whose caller is cancelled throws .cancelled, not a partial success")
    func cancelledFanOut() async throws {
        let probe = ScriptProbe.uniqueName("cancelled-fan-out")
        let engage = try await Engage.start(
            configuration: testConfiguration(),
            providers: [
                .provider(AlphaProvider.self, configuration: ScriptedConfiguration(offers: ["a", "b"])),
                .provider(GammaProvider.self, configuration: ScriptedConfiguration(probe: probe, waitsForCancellation: true)),
            ],
            environment: testEnvironment()
        )
        let call = Task { try await engage.offers() }
        await eventually { ScriptProbe.named(probe).callsEntered.count == 1 }
        call.cancel()
        await #expect { _ = try await call.value } throws: { ($0 as? EngageError)?.code == .cancelled }
        await engage.shutdown()
    }

    /// Before, `logIn` recorded the user in the facade's state even when its caller was cancelled while
    /// a provider was logging in.
    @Test("a cancelled logIn does not record the user")
    func cancelledLogIn() async throws {
        let probe = ScriptProbe.uniqueName("cancelled-log-in")
        let engage = try await Engage.start(
            configuration: testConfiguration(),
            providers: [.provider(AlphaProvider.self, configuration: ScriptedConfiguration(probe: probe, waitsForCancellation: true))],
            environment: testEnvironment()
        )
        let call = Task { try await engage.logIn(UserIdentity(userID: "u-9")) }
        await eventually { ScriptProbe.named(probe).callsEntered.count == 1 }
        call.cancel()
        await #expect { _ = try await call.value } throws: { ($0 as? EngageError)?.code == .cancelled }
        #expect(engage.currentState.user == nil, "the cancelled login recorded the user")
        await engage.shutdown()
    }

    @Test("log in and log out reach every identity-aware provider")
    func identityPropagation() async throws {
        let engage = try await start(alpha: .init(), beta: .init())
        let report = try await engage.logIn(UserIdentity(userID: "u-7", email: "u7@example.com"))
        #expect(report.succeeded == ["alpha"])
        let alpha = try await engage.provider(AlphaProvider.self)
        #expect(alpha.loggedIn.value == "u-7")
        _ = try await engage.logOut()
        #expect(alpha.loggedIn.value == nil)
        await engage.shutdown()
    }

    @Test("callback twins deliver the same results on the callback queue")
    func callbackTwins() async throws {
        let engage = try await start(alpha: .init(offers: ["a1"]), beta: .init(failOffers: true))
        let result = await withCheckedContinuation { continuation in
            engage.offers(OfferQuery()) { continuation.resume(returning: $0) }
        }
        let offers = try result.get()
        #expect(offers.items.map(\.id) == ["a1"])
        #expect(offers.report.failures["beta"] != nil)

        let unsupported = await withCheckedContinuation { continuation in
            engage.content(ContentQuery()) { continuation.resume(returning: $0) }
        }
        let error = #expect(throws: EngageError.self) { try unsupported.get() }
        #expect(error?.code == .unsupported)

        let typed = await withCheckedContinuation { continuation in
            engage.provider(BetaProvider.self) { continuation.resume(returning: $0) }
        }
        #expect(try typed.get().behavior.configuration.failOffers)
        await engage.shutdown()
    }

    @Test("operations publish success and failure events on the bus")
    func operationEvents() async throws {
        let engage = try await start(alpha: .init(offers: ["a1"]), beta: .init(failOffers: true))
        let names = Locked<[String]>([])
        let subscription = engage.events.subscribe(to: OperationEvent.self) { event in names.withLock { $0.append(event.name) } }
        _ = try await engage.offers()
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume() }
        }
        #expect(Set(names.value) == ["custom_success_offers_alpha", "custom_error_offers_beta"])
        subscription.cancel()
        await engage.shutdown()
    }
}
