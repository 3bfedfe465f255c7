@_spi(EngageProvider) import EngageCore
import Logging

/// Logging that an app changes at run time, for every instance at once, as it does with RevenueCat's
/// `Purchases.logLevel` and `Purchases.logHandler`.
///
/// By default EngageKit writes through swift-log (the `RegistryEnvironment`'s logger, whose handler is
/// the app's `LoggingSystem` choice) at each configuration's `logLevel`. An app that routes logs into
/// its own system sets a handler instead:
///
/// ```swift
/// Engage.logLevel = .debug                      // more detail while a support case is open
/// Engage.logHandler = { level, message, metadata in
///     MyLogger.shared.write("[EngageKit] \(level): \(message) \(metadata)")
/// }
/// ```
extension Engage {
    /// The level of every SDK logger, replacing each configuration's `logLevel` while set; `nil` (the
    /// default) goes back to the configurations'. Takes effect at once, for lines logged after it, in
    /// every instance.
    public static var logLevel: Logger.Level? {
        get { RuntimeLogSettings.level }
        set { RuntimeLogSettings.level = newValue }
    }

    /// Receives every SDK log line at or above the level in effect, instead of the swift-log handler:
    /// its level, its message and its metadata as text, all redacted (tokens, passwords, card numbers and
    /// e-mail addresses are masked, and the values of sensitive metadata keys). `nil` (the default)
    /// writes through swift-log again.
    ///
    /// It is called on the thread that logged, possibly on several at once: hand the line to your
    /// logging system and return; do not call back into EngageKit.
    public static var logHandler: (@Sendable (_ level: Logger.Level, _ message: String, _ metadata: [String: String]) -> Void)? {
        get { RuntimeLogSettings.handler }
        set { RuntimeLogSettings.handler = newValue }
    }
}
