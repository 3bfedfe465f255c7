import Logging

/// The process-wide logging choices an app can change at any time (`Engage.logLevel`,
/// `Engage.logHandler`), read by every logger the SDK writes through (``ConfiguredLevelLogHandler``).
package enum RuntimeLogSettings {
    /// Receives one SDK log line: its level, its message and its metadata, redacted.
    package typealias Handler = @Sendable (Logger.Level, String, [String: String]) -> Void

    /// A level and a handler, each optional.
    package struct Settings: Sendable {
        /// The level every SDK logger uses instead of its configuration's, when set.
        package var level: Logger.Level?
        /// Where SDK log lines go instead of the app's swift-log handler, when set.
        package var handler: Handler?

        /// Settings with `level` and `handler`.
        package init(level: Logger.Level? = nil, handler: Handler? = nil) {
            self.level = level
            self.handler = handler
        }
    }

    private static let global = Locked(Settings())

    /// Settings for the current task and the tasks it creates, in place of the process-wide ones: tests
    /// use it, since the process-wide settings would reach every test running beside them.
    @TaskLocal package static var scoped: Settings?

    /// The process-wide level (`Engage.logLevel`).
    package static var level: Logger.Level? {
        get { global.withLock { $0.level } }
        set { global.withLock { $0.level = newValue } }
    }

    /// The process-wide handler (`Engage.logHandler`).
    package static var handler: Handler? {
        get { global.withLock { $0.handler } }
        set { global.withLock { $0.handler = newValue } }
    }

    /// The settings in effect here: the task's, else the process-wide ones.
    static var current: Settings { scoped ?? global.withLock { $0 } }
}
