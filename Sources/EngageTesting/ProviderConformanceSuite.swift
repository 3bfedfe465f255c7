@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB
import Logging

/// Checks that a provider honours the EngageKit provider contract. Every provider, ours and third
/// parties', runs it in its own tests:
///
/// ```swift
/// @Test func conformance() async throws {
///     let suite = ProviderConformanceSuite(WeatherPerks.self, configuration: .init(baseURL: emulatorURL))
///     let report = await suite.run()
///     #expect(report.failures.isEmpty, "\(report)")
/// }
/// ```
///
/// It checks the descriptor, the migrations (unique names; applied once, recorded by name, and
/// applying them again changes nothing; every table, index, view and trigger they create is named
/// `<id>_…`), the configuration (Codable round trip, validation), the lifecycle through a real registry
/// (start, typed access, duplicate registration), and, given an `operationProbe`, that an operation
/// publishes its `OperationEvent` and (given `secrets`) that no listed secret appears in the logs.
public struct ProviderConformanceSuite<Provider: EngageProvider>: Sendable {
    /// A valid configuration the provider starts with.
    public let configuration: Provider.Configuration
    /// A configuration the provider must reject, if it has such a thing.
    public var invalidConfiguration: Provider.Configuration?
    /// Runs one real operation against the started provider (e.g. against its emulator).
    public var operationProbe: (@Sendable (Provider) async throws -> Void)?
    /// Strings that must never appear in logs while the probe runs (tokens, passwords, card numbers).
    public var secrets: [String]
    /// The environment for the registry; its transport decides where the provider's requests go.
    @_spi(EngageProvider) public var transport: (any HTTPTransport)?
    /// Timeouts and retries of the provider's requests: unless given, the `.testing` preset's (one
    /// attempt) with 20 s of silence allowed instead of 5, because the suite runs beside hundreds of
    /// tests on busy machines (a 5 s limit failed the Explore and Reference probes in CI and locally);
    /// a request that really hangs still ends.
    public var network: NetworkSettings

    /// A suite for `type`: started with `configuration` (its requests go to `transport`, URLSession by
    /// default), `invalidConfiguration` must be rejected, `operationProbe` runs one real operation and
    /// `secrets` must not appear in the logs meanwhile.
    @_spi(EngageProvider) public init(
        _ type: Provider.Type,
        configuration: Provider.Configuration,
        invalidConfiguration: Provider.Configuration? = nil,
        transport: (any HTTPTransport)? = nil,
        network: NetworkSettings? = nil,
        secrets: [String] = [],
        operationProbe: (@Sendable (Provider) async throws -> Void)? = nil
    ) {
        self.network =
            network
            ?? {
                var settings = EngageConfiguration.preset(.testing, appID: "org.engagekit.conformance").network
                settings.timeoutSeconds = 20
                return settings
            }()
        self.configuration = configuration
        self.invalidConfiguration = invalidConfiguration
        self.transport = transport
        self.secrets = secrets
        self.operationProbe = operationProbe
    }

    /// Runs every check and returns the report; it never throws.
    public func run() async -> ConformanceReport {
        var report = ConformanceReport(providerID: Provider.descriptor.id)
        checkDescriptor(&report)
        checkMigrations(&report)
        checkConfiguration(&report)
        await checkLifecycle(&report)
        await checkInvalidConfiguration(&report)
        return report
    }

    // MARK: - Checks

    private func checkDescriptor(_ report: inout ConformanceReport) {
        let descriptor = Provider.descriptor
        report.check("descriptor.id is valid", descriptor.id.isValid, "'\(descriptor.id)' must be lowercase letters, digits, '-', '_'")
        report.check("descriptor.displayName is set", !descriptor.displayName.trimmingCharacters(in: .whitespaces).isEmpty)
        let version = descriptor.version.split(separator: ".")
        report.check(
            "descriptor.version is semantic", version.count == 3 && version.allSatisfy { Int($0.prefix { $0.isNumber }) != nil },
            "'\(descriptor.version)' should look like 1.2.3"
        )
        report.check(
            "descriptor.eventSuffix is a name", ProviderID(rawValue: descriptor.eventSuffix).isValid,
            "'\(descriptor.eventSuffix)' is used in event names"
        )
    }

    private func checkMigrations(_ report: inout ConformanceReport) {
        let migrations = Provider.migrations
        let names = migrations.map(\.name)
        let namespace = Provider.descriptor.id.rawValue
        report.check("migration names are unique", Set(names).count == names.count, "names: \(names)")
        do {
            let database = try EngageDatabase(location: .inMemory)
            let before = try Self.schema(of: database)
            _ = try database.namespace(namespace, migrations: migrations)
            let once = try Self.schema(of: database)
            let appliedOnce = try database.appliedMigrations(namespace: namespace)
            _ = try database.namespace(namespace, migrations: migrations)
            let twice = try Self.schema(of: database)
            let appliedTwice = try database.appliedMigrations(namespace: namespace)
            report.check(
                "migrations apply once and are idempotent",
                appliedOnce == names && appliedTwice == names && once == twice,
                appliedTwice != names
                    ? "recorded \(appliedTwice), expected \(names)"
                    : "applying the migrations again changed the schema: \(Self.difference(once, twice))"
            )
            let prefix = "\(namespace)_"
            let created = once.subtracting(before)
            let foreign = created.filter { object in
                // SQLite names the index of a UNIQUE or PRIMARY KEY constraint itself; its table counts.
                let name = object.name.hasPrefix("sqlite_autoindex_") ? object.table : object.name
                return !name.hasPrefix(prefix)
            }
            report.check(
                "tables live in the provider's namespace", foreign.isEmpty,
                "objects without the '\(prefix)' prefix: \(foreign.map { "\($0.type) \($0.name)" }.sorted())"
            )
        } catch {
            report.check("migrations apply once and are idempotent", false, "\(error)")
        }
    }

    /// One row of `sqlite_master`.
    private struct SchemaObject: Hashable {
        var type: String
        var name: String
        var table: String
        var sql: String?
    }

    private static func schema(of database: EngageDatabase) throws -> Set<SchemaObject> {
        try database.writer.read { db in
            Set(
                try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master").map { row in
                    SchemaObject(
                        type: try row.decode(forColumn: "type"), name: try row.decode(forColumn: "name"),
                        table: try row.decode(forColumn: "tbl_name"), sql: try row.decode(forColumn: "sql")
                    )
                })
        }
    }

    private static func difference(_ first: Set<SchemaObject>, _ second: Set<SchemaObject>) -> String {
        let changed = first.symmetricDifference(second).map { "\($0.type) \($0.name)" }
        return Set(changed).sorted().joined(separator: ", ")
    }

    private func checkConfiguration(_ report: inout ConformanceReport) {
        let issues = configuration.validationIssues()
        report.check("the test configuration is valid", issues.isEmpty, issues.joined(separator: " "))
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let first = try encoder.encode(configuration)
            let decoded = try JSONDecoder().decode(Provider.Configuration.self, from: first)
            let second = try encoder.encode(decoded)
            report.check("configuration survives a JSON round trip", first == second)
        } catch {
            report.check("configuration survives a JSON round trip", false, "\(error)")
        }
    }

    private func checkLifecycle(_ report: inout ConformanceReport) async {
        let capture = LogCapture()
        let registry: ProviderRegistry
        do {
            registry = try makeRegistry(logger: capture.logger())
            try await registry.register(.provider(Provider.self, configuration: configuration))
        } catch {
            report.check("provider registers", false, "\(error)")
            return
        }
        do {
            try await registry.register(.provider(Provider.self, configuration: configuration))
            report.check("duplicate registration is rejected", false, "a second registration was accepted")
        } catch {
            report.check("duplicate registration is rejected", error.code == .duplicateProvider, "\(error)")
        }
        let startReport = await registry.start()
        report.check(
            "provider starts", startReport.started.contains(Provider.descriptor.id),
            startReport.failures[Provider.descriptor.id].map { "\($0)" } ?? ""
        )
        guard let provider = try? await registry.provider(Provider.self) else {
            report.check("typed access returns the provider", false)
            await registry.shutdown()
            return
        }
        report.check("typed access returns the provider", true)
        if let operationProbe {
            let events = Locked<[OperationEvent]>([])
            let eventQueue = DispatchQueue(label: "engagekit.conformance.events")
            let subscription = registry.events.subscribe(to: OperationEvent.self, on: eventQueue) { event in
                events.withLock { $0.append(event) }
            }
            do {
                try await operationProbe(provider)
                report.check("the probe operation succeeds", true)
            } catch {
                report.check("the probe operation succeeds", false, "\(error)")
            }
            // Events are dispatched to the serial queue as they are published: once a block enqueued
            // now has run, every event of the probe has been delivered.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                eventQueue.async { continuation.resume() }
            }
            let published = events.value.filter { $0.providerID == Provider.descriptor.id }
            report.check("operations publish OperationEvent", !published.isEmpty, "no OperationEvent from '\(Provider.descriptor.id)'")
            subscription.cancel()
            let listed = secrets.filter { !$0.isEmpty }
            if !listed.isEmpty {
                let leaked = listed.filter { capture.contains($0) }
                report.check("no secret appears in logs", leaked.isEmpty, "\(leaked.count) secret(s) found in captured logs")
            }
        }
        await registry.shutdown()
    }

    private func checkInvalidConfiguration(_ report: inout ConformanceReport) async {
        guard let invalidConfiguration else { return }
        let issues = invalidConfiguration.validationIssues()
        report.check("the invalid configuration reports issues", !issues.isEmpty)
        do {
            let registry = try makeRegistry(logger: Logger(label: "engagekit.conformance"))
            try await registry.register(.provider(Provider.self, configuration: invalidConfiguration))
            let startReport = await registry.start()
            let failure = startReport.failures[Provider.descriptor.id]
            report.check("an invalid configuration is an error, not a crash", failure != nil, "it started")
            await registry.shutdown()
        } catch {
            report.check("an invalid configuration is an error, not a crash", error.code == .invalidConfiguration, "\(error)")
        }
    }

    private func makeRegistry(logger: Logger) throws(EngageError) -> ProviderRegistry {
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.conformance")
        configuration.logLevel = .trace
        configuration.network = network
        return try ProviderRegistry(
            configuration: configuration,
            environment: RegistryEnvironment(
                transport: transport, secretStore: InMemorySecretStore(), logger: logger
            )
        )
    }

}

/// The outcome of a conformance run: each check with its result.
public struct ConformanceReport: Sendable, CustomStringConvertible {
    /// One check and its outcome.
    public struct Check: Sendable {
        /// What was checked, e.g. `"provider starts"`.
        public var name: String
        /// Whether the provider passed it.
        public var passed: Bool
        /// Why it failed (empty when it passed).
        public var detail: String
    }

    /// The provider that was checked.
    public let providerID: ProviderID
    /// Every check, in the order it ran.
    public private(set) var checks: [Check] = []

    init(providerID: ProviderID) {
        self.providerID = providerID
    }

    mutating func check(_ name: String, _ passed: Bool, _ detail: @autoclosure () -> String = "") {
        checks.append(Check(name: name, passed: passed, detail: passed ? "" : detail()))
    }

    /// The checks that failed.
    public var failures: [Check] { checks.filter { !$0.passed } }

    /// Throws an `EngageError` listing the failed checks, if any.
    public func requirePassed() throws(EngageError) {
        guard !failures.isEmpty else { return }
        throw EngageError(.internal, "Provider '\(providerID)' failed conformance: \(description)", providerID: providerID)
    }

    /// A summary line and one line per check (✓ or ✗ with the reason).
    public var description: String {
        let lines = checks.map { "\($0.passed ? "✓" : "✗") \($0.name)\($0.detail.isEmpty ? "" : ": \($0.detail)")" }
        return "\(providerID) conformance (\(checks.count - failures.count)/\(checks.count) passed)\n" + lines.joined(separator: "\n")
    }
}
