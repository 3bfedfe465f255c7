import Foundation

extension URL {
    /// A URL from a string literal written in the source, such as a backend's production address. A
    /// literal that is not a URL is a programming error caught by the first test that touches it, not
    /// input to recover from; runtime strings go through `URL(string:)` and a clear error instead.
    package init(literal: StaticString) {
        guard let url = URL(string: "\(literal)") else { preconditionFailure("Invalid URL literal \(literal)") }
        self = url
    }
}
