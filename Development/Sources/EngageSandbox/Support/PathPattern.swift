/// An emulator-relative path: exact, or a prefix when it ends with `*` (`/v1/*` matches `/v1/a/b`).
struct PathPattern: Sendable, Hashable {
    private let text: String
    private let isPrefix: Bool

    init(_ pattern: String) {
        if pattern.hasSuffix("*") {
            self.text = String(pattern.dropLast())
            self.isPrefix = true
        } else {
            self.text = pattern
            self.isPrefix = false
        }
    }

    func matches(_ path: String) -> Bool {
        isPrefix ? path.hasPrefix(text) : path == text
    }
}
