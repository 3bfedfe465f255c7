import Foundation

/// The examples' output: a readable report, or (with `--json`) only the JSON document on standard
/// output, the narration going to standard error.
public final class ExampleOutput: Sendable {
    /// Whether standard output is reserved for one JSON document.
    public let json: Bool

    /// An output in text or JSON mode.
    public init(json: Bool) {
        self.json = json
    }

    /// Prints a line of narration.
    public func line(_ text: String) {
        // In JSON mode, narration goes to standard error so standard output stays one JSON document.
        let handle = json ? FileHandle.standardError : FileHandle.standardOutput
        handle.write(Data((text + "\n").utf8))
    }

    /// Prints a section title.
    public func section(_ title: String) {
        line("\n== \(title) ==")
    }

    /// Prints `value` as pretty, key-sorted JSON on standard output.
    public func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
    }
}
