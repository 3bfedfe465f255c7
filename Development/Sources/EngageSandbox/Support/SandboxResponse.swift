import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Builders for the JSON responses emulators send.
public enum SandboxResponse {
    /// A JSON encoder with stable output: sorted keys, unescaped slashes, ISO 8601 dates.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A response whose body is `value` encoded as JSON.
    /// - Throws: The encoder's error when `value` cannot be encoded.
    public static func json(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) throws -> Response {
        raw(try makeEncoder().encode(value), status: status, headers: headers)
    }

    /// A response whose body is `body`, labelled `application/json` unless `headers` says otherwise.
    public static func raw(_ body: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        if fields[.contentType] == nil {
            fields[.contentType] = "application/json"
        }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// An OAuth-style error: `{"error": code}` plus `error_description` when given.
    public static func error(
        _ status: HTTPResponse.Status, code: String, description: String? = nil, headers: HTTPFields = [:]
    ) -> Response {
        var object = ["error": code]
        if let description { object["error_description"] = description }
        // Encoding a dictionary of strings cannot fail.
        let body = (try? makeEncoder().encode(object)) ?? Data()
        return raw(body, status: status, headers: headers)
    }
}
