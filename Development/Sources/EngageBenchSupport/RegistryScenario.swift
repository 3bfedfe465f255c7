@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB
import Logging

// MARK: - Five minimal providers

/// The shared behaviour of the five minimal providers: one storage migration creating a table in the
/// provider's namespace, and a `start()` that registers an analytics destination.
@_spi(EngageProvider) public protocol MinimalProvider: EngageProvider where Configuration == EmptyConfiguration {
    static var providerID: String { get }
    var context: ProviderContext { get }
}

extension MinimalProvider {
    public static var descriptor: ProviderDescriptor {
        ProviderDescriptor(id: ProviderID(rawValue: providerID), displayName: "Minimal \(providerID)", version: "1.0.0")
    }

    @_spi(EngageProvider) public static var migrations: [StorageMigration] {
        let table = "\(providerID)_items"
        return [
            StorageMigration("create items") { db in
                try db.create(table: table) { table in
                    table.primaryKey("id", .text)
                    table.column("payload", .blob).notNull()
                    table.column("updated_at", .double).notNull()
                }
            }
        ]
    }

    /// The provider's analytics destination.
    public static var destination: String { "\(providerID).events" }

    public func start() async throws {
        try await context.analytics.register(destination: Self.destination, deliverer: DiscardingDeliverer())
    }

    public func shutdown() async {
        await context.analytics.unregister(destination: Self.destination)
    }
}

@_spi(EngageProvider) public final class AlphaProvider: MinimalProvider {
    public static let providerID = "alpha"
    @_spi(EngageProvider) public let context: ProviderContext
    @_spi(EngageProvider) public init(configuration: EmptyConfiguration, context: ProviderContext) async throws { self.context = context }
}

@_spi(EngageProvider) public final class BravoProvider: MinimalProvider {
    public static let providerID = "bravo"
    @_spi(EngageProvider) public let context: ProviderContext
    @_spi(EngageProvider) public init(configuration: EmptyConfiguration, context: ProviderContext) async throws { self.context = context }
}

@_spi(EngageProvider) public final class CharlieProvider: MinimalProvider {
    public static let providerID = "charlie"
    @_spi(EngageProvider) public let context: ProviderContext
    @_spi(EngageProvider) public init(configuration: EmptyConfiguration, context: ProviderContext) async throws { self.context = context }
}

@_spi(EngageProvider) public final class DeltaProvider: MinimalProvider {
    public static let providerID = "delta"
    @_spi(EngageProvider) public let context: ProviderContext
    @_spi(EngageProvider) public init(configuration: EmptyConfiguration, context: ProviderContext) async throws { self.context = context }
}

@_spi(EngageProvider) public final class EchoProvider: MinimalProvider {
    public static let providerID = "echo"
    @_spi(EngageProvider) public let context: ProviderContext
    @_spi(EngageProvider) public init(configuration: EmptyConfiguration, context: ProviderContext) async throws { self.context = context }
}

/// Accepts every batch and does nothing with it.
@_spi(EngageProvider) public struct DiscardingDeliverer: QueueDelivering {
    public init() {}
    @_spi(EngageProvider) public func deliver(_ batch: [QueuedEvent]) async throws {}
}

// MARK: - Scenario

/// Benchmark 4: `ProviderRegistry(configuration:environment:)` + register five providers + `start()` +
/// `shutdown()` on a new file-backed database (a new directory each time). Baselines: opening a new
/// `EngageDatabase` alone, and starting an empty registry.
///
/// The environment uses an in-memory secret store (no key file I/O) and one shared URLSession transport
/// (an app builds its environment once; the transport is not what this measures).
public final class RegistryScenario: Sendable {
    public let root: TemporaryDirectory
    let transport: URLSessionTransport
    let logger: Logger

    public static let registrations: [ProviderRegistration] = [
        .provider(AlphaProvider.self, configuration: EmptyConfiguration()),
        .provider(BravoProvider.self, configuration: EmptyConfiguration()),
        .provider(CharlieProvider.self, configuration: EmptyConfiguration()),
        .provider(DeltaProvider.self, configuration: EmptyConfiguration()),
        .provider(EchoProvider.self, configuration: EmptyConfiguration()),
    ]

    public init() throws {
        root = try TemporaryDirectory(label: "registry")
        transport = URLSessionTransport()
        var logger = Logger(label: "engage.bench.registry")
        logger.logLevel = .error
        self.logger = logger
    }

    /// A database location that does not exist yet.
    public func newLocation() -> String {
        root.newSubpath()
    }

    func configuration(path: String) -> EngageConfiguration {
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.bench")
        configuration.storage = .directory(path)
        return configuration
    }

    func environment() -> RegistryEnvironment {
        RegistryEnvironment(
            transport: transport, secretStore: InMemorySecretStore(), logger: logger
        )
    }

    /// Creates a registry on a new database at `path`, registers the five providers (or none), starts
    /// and shuts it down. Returns the registry so that the caller can close its database afterwards.
    @_spi(EngageProvider) public func startAndShutDown(
        path: String, providers: [ProviderRegistration] = RegistryScenario.registrations
    ) async throws
        -> ProviderRegistry
    {
        let registry = try ProviderRegistry(configuration: configuration(path: path), environment: environment())
        for registration in providers {
            try await registry.register(registration)
        }
        let report = await registry.start()
        guard report.isComplete, report.started.count == providers.count else {
            throw BenchFailure("Registry start: \(report.started.count) of \(providers.count) started; failures: \(report.failures)")
        }
        await registry.shutdown()
        return registry
    }

    /// Opens a new `EngageDatabase` at `path` (creating the directory and applying the core migrations).
    @_spi(EngageProvider) public func openDatabase(path: String) throws -> EngageDatabase {
        try EngageDatabase(location: .directory(path))
    }

    /// Checks that each registered provider's migration created its table, then closes the registry's
    /// database and deletes its directory (not part of any measurement).
    @_spi(EngageProvider) public func discard(_ registry: ProviderRegistry, path: String) async throws {
        let expected = await registry.registeredIDs.map { "\($0.rawValue)_items" }
        let missing = try await registry.database.writer.read { db in try expected.filter { try !db.tableExists($0) } }
        guard missing.isEmpty else { throw BenchFailure("Provider tables missing after start: \(missing)") }
        try registry.database.close()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Closes `database` and deletes its directory.
    @_spi(EngageProvider) public func discard(_ database: EngageDatabase, path: String) {
        try? database.close()
        try? FileManager.default.removeItem(atPath: path)
    }

    public func remove() {
        root.remove()
    }
}
