import Foundation
import HTTPTypes

extension URL {
    /// A URL from a string literal written in the source, such as a backend's production address. A
    /// literal that is not a URL is a programming error caught by the first test that touches it, not
    /// input to recover from; runtime strings go through `URL(string:)` and a clear error instead.
    @_spi(EngageProvider) public init(literal: StaticString) {
        guard let url = URL(string: "\(literal)") else { preconditionFailure("Invalid URL literal \(literal)") }
        self = url
    }
}

extension HTTPField.Name {
    /// A header name from a string literal written in the source, such as `x-hasura-role`. A literal
    /// that is not a header token is a programming error caught by the first test that sends it.
    @_spi(EngageProvider) public init(literal: StaticString) {
        guard let name = HTTPField.Name("\(literal)") else { preconditionFailure("Invalid header name literal \(literal)") }
        self = name
    }
}
