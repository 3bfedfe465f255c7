@_spi(EngageProvider) import EngageCore
import Logging

/// Collects log lines in memory, to assert what was (and was not) logged, e.g. that no secret leaks.
///
/// ```swift
/// let capture = LogCapture()
/// let logger = capture.logger(level: .trace)
/// ... run code with `logger` ...
/// #expect(!capture.contains("s3cret-token"))
/// ```
public final class LogCapture: Sendable {
    /// One captured line.
    public struct Entry: Sendable {
        /// The log level.
        public var level: Logger.Level
        /// The message.
        public var message: String
        /// The merged metadata, rendered as strings.
        public var metadata: [String: String]
        /// The logger's label.
        public var label: String

        /// The message and metadata as one string.
        public var text: String {
            ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    private let storage = Locked<[Entry]>([])

    /// An empty capture.
    public init() {}

    /// A logger writing into this capture.
    public func logger(label: String = "engagekit.test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { label in CaptureHandler(label: label, capture: self) }
        logger.logLevel = level
        return logger
    }

    /// Everything captured so far.
    public var entries: [Entry] { storage.value }

    /// All captured text, one line per entry.
    public var text: String { entries.map(\.text).joined(separator: "\n") }

    /// Whether any entry contains `needle`.
    public func contains(_ needle: String) -> Bool {
        entries.contains { $0.text.contains(needle) }
    }

    fileprivate func append(_ entry: Entry) {
        storage.withLock { $0.append(entry) }
    }
}

private struct CaptureHandler: LogHandler {
    let label: String
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        capture.append(
            LogCapture.Entry(
                level: event.level, message: "\(event.message)",
                metadata: merged.mapValues { "\($0)" }, label: label
            ))
    }
}
