import Foundation

/// A private directory under the system temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    /// Creates `<tmp>/engage-bench-<label>-<uuid>`.
    public init(label: String) throws {
        path = NSTemporaryDirectory().appending("engage-bench-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside this directory that does not exist yet (for "new database" iterations).
    public func newSubpath(_ name: String = UUID().uuidString) -> String {
        path + "/" + name
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
