@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import Engage
@_spi(EngageProvider) import EngageTesting
import Foundation
import Logging
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

@Suite("Registry logging")
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
        state.level.withLock { $0 = .trace }
        let appLogger = Logger(label: "app") { _ in SharedStateHandler(state: state) }
        var configuration = testConfiguration()
        configuration.logLevel = .error
        let registry = try ProviderRegistry(configuration: configuration, environment: testEnvironment(logger: appLogger))
        try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration()))
        _ = await registry.start()
        let alpha = try await registry.provider(AlphaProvider.self)

        alpha.behavior.context.logger.warning("below the configured level")
        alpha.behavior.context.logger.error("at the configured level")

        #expect(state.level.withLock { $0 } == .trace)
        #expect(state.lines.withLock { $0 } == ["error alpha at the configured level"])
        await registry.shutdown()
    }
}
