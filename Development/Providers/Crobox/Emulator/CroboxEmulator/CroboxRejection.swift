@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import HTTPTypes
import Hummingbird

/// Why the emulator refuses a request: the status and the `{"error", "error_description"}` body.
struct CroboxRejection: Error, Sendable {
    var status: HTTPResponse.Status
    var code: String
    var description: String
    var headers: HTTPFields = [:]

    /// 400 `invalid_request`.
    static func invalidRequest(_ description: String) -> CroboxRejection {
        CroboxRejection(status: .badRequest, code: "invalid_request", description: description)
    }

    /// The response to send.
    var response: Response {
        SandboxResponse.error(status, code: code, description: description, headers: headers)
    }
}
