import Logging

/// The handler under every logger the registry hands out (to providers and to the analytics queue):
/// it forwards to the app's handler what is at or above both `EngageConfiguration.logLevel` and the
/// app's handler's own level, with its own metadata.
///
/// The app can change both at run time, for every instance at once (``RuntimeLogSettings``, set through
/// `Engage.logLevel` and `Engage.logHandler`): a level set there replaces the configuration's, and a
/// handler set there receives each line (message and metadata redacted) instead of the app's
/// swift-log handler.
///
/// The level and the metadata set on a logger built on it stay in this handler, so the SDK never
/// changes the app's logger: setting `logLevel` on a copy of the app's logger would write into the
/// app's handler whenever that handler keeps its state in a shared object.
struct ConfiguredLevelLogHandler: LogHandler {
    /// The app's handler; only read.
    private let upstream: any LogHandler
    /// The configuration's level.
    private var configuredLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(upstream: any LogHandler, logLevel: Logger.Level) {
        self.upstream = upstream
        self.configuredLevel = logLevel
        self.metadataProvider = upstream.metadataProvider
    }

    /// The run-time level when the app set one (`Engage.logLevel`), else the configuration's. The app's
    /// handler's level applies too, unless the app routes lines to its own closure.
    var logLevel: Logger.Level {
        get { RuntimeLogSettings.current.level ?? configuredLevel }
        set { configuredLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, callSite in callSite }
        }
        if let handler = RuntimeLogSettings.current.handler {
            // The app's closure gets text only, every piece of it redacted.
            let redactor = Redactor()
            let metadata = (event.metadata ?? [:]).reduce(into: [String: String]()) { result, entry in
                result[entry.key] = redactor.isSensitive(key: entry.key) ? Redactor.mask : redactor.redact(text: "\(entry.value)")
            }
            handler(event.level, redactor.redact(text: "\(event.message)"), metadata)
            return
        }
        guard event.level >= upstream.logLevel else { return }
        upstream.log(event: event)
    }
}

extension Logger {
    /// A logger for the SDK's own use that writes through this logger's handler at `level` at most as
    /// verbosely as the app's own level allows, and leaves this logger's handler untouched.
    package func configured(level: Logger.Level) -> Logger {
        let upstream = handler
        return Logger(label: label) { _ in ConfiguredLevelLogHandler(upstream: upstream, logLevel: level) }
    }
}
