@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird

/// Why the emulator refuses a request before (or instead of) answering it: an HTTP status and a small
/// JSON object of strings. Route handlers throw it; ``WarplyEmulator/respond(_:)`` turns it into the
/// response.
struct WarplyEmulatorRejection: Error, Sendable {
    var status: HTTPResponse.Status
    var body: [String: String]
    var headers: HTTPFields = [:]

    /// The response to send.
    var response: Response {
        // Encoding a dictionary of strings cannot fail.
        (try? SandboxResponse.json(body, status: status, headers: headers)) ?? SandboxResponse.raw(Data(), status: status, headers: headers)
    }

    /// 400 `{"status":"-1","msg":…}`: the body is not the JSON the route expects.
    static func malformed(_ message: String) -> Self {
        Self(status: .badRequest, body: ["status": "-1", "msg": message])
    }

    /// 413 `{"status":"-1","msg":…}`: the body is over the emulator's limit.
    static func tooLarge(limit: Int) -> Self {
        Self(status: .contentTooLarge, body: ["status": "-1", "msg": "The request body exceeds \(limit) bytes."])
    }

    /// 200 `{"status":"9","msg":…}`: the registration is unknown, register again.
    static func registrationInvalid(_ message: String) -> Self {
        Self(status: .ok, body: ["status": String(9), "msg": message])
    }

    /// 403 `{"status":"-1","msg":…}`: the signature or its date is wrong.
    static func forbidden(_ message: String) -> Self {
        Self(status: .forbidden, body: ["status": "-1", "msg": message])
    }

    /// 401 `{"error":"invalid_token","error_description":…}` with a `WWW-Authenticate` challenge.
    static func unauthorized(_ description: String) -> Self {
        Self(
            status: .unauthorized, body: ["error": "invalid_token", "error_description": description],
            headers: [.wwwAuthenticate: #"Bearer error="invalid_token", error_description="\#(description)""#]
        )
    }

    /// 401 `{"error":"invalid_grant"}`: the refresh token is unknown, used, expired or not this client's.
    static var invalidGrant: Self {
        Self(status: .unauthorized, body: ["error": "invalid_grant"])
    }

    /// 401 `{"error":"invalid_client"}` with a Basic challenge: wrong partner credentials.
    static var invalidClient: Self {
        Self(status: .unauthorized, body: ["error": "invalid_client"], headers: [.wwwAuthenticate: #"Basic realm="warply""#])
    }

    /// 200 `{"status":"0","msg":…}`: a refusal in the body (unknown app, unknown action).
    static func refused(_ message: String) -> Self {
        Self(status: .ok, body: ["status": "0", "msg": message])
    }
}
