@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Logging
import EngageTestTraits
import Testing

/// An app's log handler that keeps its level and its lines in one shared object, as handlers that
/// forward to a logging service often do: a copy of a logger built on it shares the level.
private final class SharedLogState: Sendable {
    let level = Locked(Logger.Level.warning)
    let lines = Locked<[String]>([])
}

private struct SharedStateHandler: LogHandler {
    let state: SharedLogState
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level {
        get { state.level.withLock { $0 } }
        set { state.level.withLock { $0 = newValue } }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let provider = event.metadata?["provider"] ?? metadata["provider"]
        state.lines.withLock { $0.append("\(event.level) \(provider.map { "\($0)" } ?? "-") \(event.message)") }
    }
}

@Suite("Registry logging", .bounded)
struct RegistryLoggingTests {
    @Test("the registry never changes the level of the app's logger, and logs no lower than either level")
    func appLoggerLevelIsLeftAlone() async throws {
        let state = SharedLogState()
        let appLogger = Logger(label: "app") { _ in SharedStateHandler(state: state) }
        var configuration = testConfiguration()
        configuration.logLevel = .trace
        let registry = try ProviderRegistry(configuration: configuration, environment: testEnvironment(logger: appLogger))
        try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration()))
        _ = await registry.start()
        let alpha = try await registry.provider(AlphaProvider.self)

        alpha.behavior.context.logger.debug("below the app's level")
        alpha.behavior.context.logger.warning("at the app's level")

        #expect(state.level.withLock { $0 } == .warning)
        #expect(appLogger.logLevel == .warning)
        #expect(state.lines.withLock { $0 } == ["warning alpha at the app's level"])
        await registry.shutdown()
    }

    @Test("the configuration's level filters the SDK's lines even when the app's logger is more verbose")
    func configurationLevelApplies() async throws {
        let state = SharedLogState()
        let (registry, logger) = try await registry(state: state)

        logger.warning("below the configured level")
        logger.error("at the configured level")

        #expect(state.level.withLock { $0 } == .trace)
        #expect(state.lines.withLock { $0 } == ["error alpha at the configured level"])
        await registry.shutdown()
    }

    /// A registry whose app logger is at `.trace` and whose configuration logs errors only, and its
    /// provider Alpha's logger.
    fileprivate func registry(state: SharedLogState) async throws -> (ProviderRegistry, Logger) {
        state.level.withLock { $0 = .trace }
        let appLogger = Logger(label: "app") { _ in SharedStateHandler(state: state) }
        var configuration = testConfiguration()
        configuration.logLevel = .error
        let registry = try ProviderRegistry(configuration: configuration, environment: testEnvironment(logger: appLogger))
        try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration()))
        _ = await registry.start()
        return (registry, try await registry.provider(AlphaProvider.self).behavior.context.logger)
    }

    @Test("a run-time level replaces the configuration's at once, for loggers made before it was set")
    func runtimeLevel() async throws {
        let state = SharedLogState()
        let (registry, logger) = try await registry(state: state)
        logger.info("before: below the configured level")
        RuntimeLogSettings.$scoped.withValue(RuntimeLogSettings.Settings(level: .info)) {
            logger.info("while set: at the run-time level")
            logger.debug("while set: below it")
        }
        logger.info("after: below the configured level again")
        #expect(state.lines.withLock { $0 } == ["info alpha while set: at the run-time level"])
        await registry.shutdown()
    }

    @Test("a run-time handler gets each line instead of the app's swift-log handler: level, message and metadata, redacted")
    func runtimeHandler() async throws {
        let state = SharedLogState()
        let (registry, logger) = try await registry(state: state)
        let received = Locked<[(Logger.Level, String, [String: String])]>([])
        let settings = RuntimeLogSettings.Settings(handler: { level, message, metadata in
            received.withLock { $0.append((level, message, metadata)) }
        })
        RuntimeLogSettings.$scoped.withValue(settings) {
            logger.error(
                "login failed for ana@example.com with Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
                metadata: ["access_token": "s3cr3t", "attempt": "2"])
            logger.warning("below the configured level: not delivered")
        }
        let lines = received.withLock { $0 }
        try #require(lines.count == 1)
        #expect(lines[0].0 == .error)
        #expect(lines[0].1.hasPrefix("login failed for "))
        #expect(!lines[0].1.contains("ana@example.com"))
        #expect(!lines[0].1.contains("eyJhbGciOiJIUzI1NiJ9"))
        #expect(lines[0].2["access_token"] == Redactor.mask)
        #expect(lines[0].2["attempt"] == "2")
        #expect(lines[0].2["provider"] == "alpha")
        #expect(state.lines.withLock { $0 }.isEmpty, "the app's swift-log handler got a line the closure took")
        await registry.shutdown()
    }

    @Test("Engage.logLevel and Engage.logHandler are the process-wide settings the loggers read")
    func facadeProperties() {
        // Read only: setting them here would reach every test running beside this one.
        #expect(Engage.logLevel == RuntimeLogSettings.level)
        #expect((Engage.logHandler == nil) == (RuntimeLogSettings.handler == nil))
    }
}
