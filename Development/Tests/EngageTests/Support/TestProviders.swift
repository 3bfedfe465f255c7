@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Logging

/// In-memory providers with scripted behaviour, for registry and facade tests.
struct ScriptedConfiguration: ProviderConfiguration, Equatable {
    var offers: [String] = []
    var failOffers: Bool = false
    var failInit: Bool = false
    var failStart: Bool = false
    var startDelayMilliseconds: Int = 0
    /// The `ScriptProbe` this provider reports to, if any.
    var probe: String?
    /// With a probe: the first `start()` of the probe waits at its gate.
    var waitAtGate: Bool = false
    /// With a probe: `start()` waits at the probe's barrier for this many parties (0: no barrier).
    var barrierParties: Int = 0
    /// With a probe: `start()` registers an analytics destination `<id>.events`; `shutdown()` removes it.
    var registersDeliverer: Bool = false
    /// With a probe: `offers()` and Alpha's `logIn` count themselves in `callsEntered`, then wait until
    /// they are cancelled.
    var waitsForCancellation: Bool = false

    func validationIssues() -> [String] {
        startDelayMilliseconds < 0 ? ["startDelayMilliseconds must not be negative."] : []
    }
}

/// The shared scripted behaviour of the test providers below.
struct ScriptedBehavior: Sendable {
    let configuration: ScriptedConfiguration
    let context: ProviderContext

    init(configuration: ScriptedConfiguration, context: ProviderContext) throws {
        if configuration.failInit {
            throw EngageError(.invalidConfiguration, "scripted init failure")
        }
        self.configuration = configuration
        self.context = context
    }

    func start() async throws {
        if let name = configuration.probe {
            let probe = ScriptProbe.named(name)
            let arrival = probe.startEntered.increment()
            if configuration.barrierParties > 0 {
                try await probe.barrier(parties: configuration.barrierParties).arrive()
            }
            if configuration.waitAtGate, arrival == 1 {
                await probe.startGate.wait()
            }
            if configuration.registersDeliverer {
                try await context.analytics.register(destination: destination, deliverer: ProbeDeliverer(probe: probe))
            }
        }
        if configuration.startDelayMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(configuration.startDelayMilliseconds))
        }
        if configuration.failStart { throw EngageError(.network, "scripted start failure", isRetryable: true) }
    }

    func shutdown() async {
        guard let name = configuration.probe else { return }
        let probe = ScriptProbe.named(name)
        if configuration.registersDeliverer {
            await context.analytics.unregister(destination: destination)
        }
        probe.shutdowns.increment()
    }

    /// With a probe and `waitsForCancellation`: counts the call, then waits until it is cancelled.
    func waitForCancellationIfScripted() async throws {
        guard configuration.waitsForCancellation, let name = configuration.probe else { return }
        ScriptProbe.named(name).callsEntered.increment()
        await TestGate().wait()  // never opened: ends when the call is cancelled
        try Task.checkCancellation()
    }

    /// The analytics destination of a provider with `registersDeliverer`.
    var destination: String { "\(context.providerID).events" }

    func offers() async throws -> [Offer] {
        let providerID = context.providerID
        try await waitForCancellationIfScripted()
        return try await context.perform(TestOperation.offers) {
            if configuration.failOffers { throw EngageError.http(status: 503) }
            return configuration.offers.map { Offer(id: $0, providerID: providerID, kind: .coupon, title: LocalizedText($0)) }
        }
    }
}

final class AlphaProvider: EngageProvider, OffersProviding, IdentityAware {
    static let descriptor = ProviderDescriptor(id: "alpha", displayName: "Alpha", version: "1.0.0")
    let behavior: ScriptedBehavior
    let loggedIn = Locked<String?>(nil)

    init(configuration: ScriptedConfiguration, context: ProviderContext) async throws {
        behavior = try ScriptedBehavior(configuration: configuration, context: context)
    }

    func start() async throws { try await behavior.start() }
    func shutdown() async { await behavior.shutdown() }
    func offers(_ query: OfferQuery) async throws -> [Offer] { try await behavior.offers() }
    func logIn(_ identity: UserIdentity) async throws {
        try await behavior.waitForCancellationIfScripted()
        if identity.userID == "host-owned" {
            throw EngageError(.notApplicable, "Alpha's session belongs to the host app.", providerID: "alpha")
        }
        loggedIn.withLock { $0 = identity.userID }
    }
    func logOut() async throws { loggedIn.withLock { $0 = nil } }
}

final class BetaProvider: EngageProvider, OffersProviding, MerchantDirectory {
    static let descriptor = ProviderDescriptor(id: "beta", displayName: "Beta", version: "2.1.0")
    let behavior: ScriptedBehavior

    init(configuration: ScriptedConfiguration, context: ProviderContext) async throws {
        behavior = try ScriptedBehavior(configuration: configuration, context: context)
    }

    func start() async throws { try await behavior.start() }
    func shutdown() async { await behavior.shutdown() }
    func offers(_ query: OfferQuery) async throws -> [Offer] { try await behavior.offers() }

    func merchants(_ query: MerchantQuery) async throws -> Page<MerchantSummary> {
        let center = try query.center ?? GeoPoint(latitude: 0, longitude: 0)
        let merchants = try [("far", 0.5), ("near", 0.01), ("mid", 0.1)].map { name, offset in
            let location = try GeoPoint(latitude: center.latitude + offset, longitude: center.longitude)
            return MerchantSummary(
                id: name, providerID: Self.descriptor.id, name: name, location: location,
                distanceMeters: location.distance(to: center)
            )
        }
        return Page(items: merchants, totalCount: merchants.count)
    }
}

final class GammaProvider: EngageProvider, OffersProviding {
    static let descriptor = ProviderDescriptor(id: "gamma", displayName: "Gamma", version: "0.3.0")
    let behavior: ScriptedBehavior

    init(configuration: ScriptedConfiguration, context: ProviderContext) async throws {
        behavior = try ScriptedBehavior(configuration: configuration, context: context)
    }

    func start() async throws { try await behavior.start() }
    func shutdown() async { await behavior.shutdown() }
    func offers(_ query: OfferQuery) async throws -> [Offer] { try await behavior.offers() }
}

/// Records delivered payloads in its probe, noting whether the providers were shut down already.
struct ProbeDeliverer: QueueDelivering {
    let probe: ScriptProbe

    func deliver(_ batch: [QueuedEvent]) async throws {
        let afterShutdown = probe.shutdowns.count > 0
        probe.deliveries.withLock { deliveries in
            deliveries += batch.map { (String(decoding: $0.payload, as: UTF8.self), afterShutdown) }
        }
    }
}

/// A provider that adopts no capability protocol and has a version that is not semantic: the conformance
/// suite must catch the version, and no fan-out reaches it.
final class DishonestProvider: EngageProvider {
    typealias Configuration = EmptyConfiguration
    static let descriptor = ProviderDescriptor(id: "dishonest", displayName: "Dishonest", version: "1.0")
    init(configuration: EmptyConfiguration, context: ProviderContext) async throws {}
}

/// A provider whose id the registry refuses (not lowercase letters, digits, `-` and `_`).
final class MisnamedProvider: EngageProvider {
    typealias Configuration = EmptyConfiguration
    static let descriptor = ProviderDescriptor(id: "Not A Valid Id", displayName: "Misnamed", version: "1.0.0")
    init(configuration: EmptyConfiguration, context: ProviderContext) async throws {}
}

func testEnvironment(transport: (any HTTPTransport)? = nil, logger: Logger? = nil) -> RegistryEnvironment {
    RegistryEnvironment(
        transport: transport, secretStore: InMemorySecretStore(), logger: logger ?? Logger(label: "engage-tests")
    )
}

func testConfiguration() -> EngageConfiguration {
    EngageConfiguration.preset(.testing, appID: "org.engagekit.tests")
}

/// The test providers' operations.
enum TestOperation: String, ProviderOperation {
    case offers
}
