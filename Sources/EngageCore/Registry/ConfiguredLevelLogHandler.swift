import Logging

/// The handler under every logger the registry hands out (to providers and to the analytics queue):
/// it forwards to the app's handler what is at or above both `EngageConfiguration.logLevel` and the
/// app's handler's own level, with its own metadata.
///
/// The level and the metadata set on a logger built on it stay in this handler, so the SDK never
/// changes the app's logger: setting `logLevel` on a copy of the app's logger would write into the
/// app's handler whenever that handler keeps its state in a shared object.
struct ConfiguredLevelLogHandler: LogHandler {
    /// The app's handler; only read.
    private let upstream: any LogHandler
    /// The configuration's level. The app's handler's level applies too.
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(upstream: any LogHandler, logLevel: Logger.Level) {
        self.upstream = upstream
        self.logLevel = logLevel
        self.metadataProvider = upstream.metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.level >= upstream.logLevel else { return }
        var event = event
        if !metadata.isEmpty {
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, callSite in callSite }
        }
        upstream.log(event: event)
    }
}

extension Logger {
    /// A logger for the SDK's own use that writes through this logger's handler at `level` at most as
    /// verbosely as the app's own level allows, and leaves this logger's handler untouched.
    func configured(level: Logger.Level) -> Logger {
        let upstream = handler
        return Logger(label: label) { _ in ConfiguredLevelLogHandler(upstream: upstream, logLevel: level) }
    }
}
