import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
@_spi(EngageProvider) import EngageCore

/// Serves a set of ``Emulator``s over HTTP on loopback, with a request journal and fault injection.
///
/// ```swift
/// let host = SandboxHost(emulators: [ReferenceEmulator()])
/// let endpoints = try await host.start()          // port 0: an ephemeral port
/// let base = endpoints.baseURL(for: "reference")! // http://127.0.0.1:<port>/reference
/// host.faults.inject(FaultRule(.serviceUnavailable(retryAfter: 1), path: "/items", trigger: .times(1)))
/// // ... exercise a client ...
/// #expect(host.journal.entries(for: "reference").count == 2)
/// await host.stop()
/// ```
///
/// A host starts once; ``stop()`` is final and idempotent.
public final class SandboxHost: Sendable {
    /// The served emulators, in the order given.
    public let emulators: [any Emulator]
    /// The configuration the host was created with.
    public let configuration: SandboxConfiguration
    /// Every request that reached an emulator.
    public let journal: RequestJournal
    /// The fault rules applied in front of the emulators.
    public let faults: FaultInjector
    /// The token issuer shared by the emulators (same secret, clock and lifetime).
    public let jwt: JWTIssuer
    /// Routes served beside the emulators, such as the sandbox UI.
    public let extensions: [any SandboxExtension]

    let lifecycle = Locked<Lifecycle>(.idle)

    /// Creates a host serving `emulators` and `extensions`; nothing listens until ``start()``.
    public init(emulators: [any Emulator], configuration: SandboxConfiguration = .init(), extensions: [any SandboxExtension] = []) {
        self.emulators = emulators
        self.extensions = extensions
        self.configuration = configuration
        self.journal = RequestJournal(capacity: configuration.journalCapacity)
        self.faults = FaultInjector(generator: SeededGenerator(seed: configuration.seed, stream: "sandbox/faults"))
        self.jwt = JWTIssuer(
            secret: configuration.jwtSecret,
            issuer: configuration.jwtIssuer,
            defaultLifetime: configuration.tokenLifetime,
            seed: configuration.seed,
            now: configuration.now
        )
    }

    /// The endpoints while the host is running, else `nil`.
    public var endpoints: SandboxEndpoints? {
        lifecycle.withLock { state in
            if case .running(_, let endpoints) = state { return endpoints }
            return nil
        }
    }

    /// The environment handed to the emulator `emulatorID` (also handy to unit-test an emulator).
    public func environment(for emulatorID: String) -> EmulatorEnvironment {
        var logger = configuration.logger
        logger[metadataKey: "emulator"] = .string(emulatorID)
        return EmulatorEnvironment(
            emulatorID: emulatorID, seed: configuration.seed, now: configuration.now, jwt: jwt, logger: logger
        )
    }

    /// Checks that emulator ids are valid path segments and unique.
    /// - Throws: ``SandboxError/invalidEmulatorID(_:)`` or ``SandboxError/duplicateEmulatorID(_:)``.
    public static func validate(emulatorIDs: [String]) throws(SandboxError) {
        var seen: Set<String> = []
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
        for id in emulatorIDs {
            guard !id.isEmpty, id != ".", id != "..", id.allSatisfy(allowed.contains) else {
                throw .invalidEmulatorID(id)
            }
            guard seen.insert(id).inserted else { throw .duplicateEmulatorID(id) }
        }
    }
}

extension SandboxHost {
    /// A started server: the service group running the application and the task running the group.
    struct Server: Sendable {
        let group: ServiceGroup
        let task: Task<Void, any Error>
    }

    /// Where the host is in its life.
    enum Lifecycle: Sendable {
        case idle
        case starting(Server?)
        case running(Server, SandboxEndpoints)
        case stopped(Server?)
    }
}

/// Routes a ``SandboxHost`` serves beside its emulators, such as the sandbox UI. They are neither
/// journaled nor subject to injected faults, and their paths must not start with an emulator id
/// (an emulator id never starts with `_`).
public protocol SandboxExtension: Sendable {
    /// Adds the extension's routes to `router`; `host` gives the journal, fault injector, token
    /// issuer and emulators.
    func addRoutes(to router: Router<SandboxRequestContext>, host: SandboxHost)
}
