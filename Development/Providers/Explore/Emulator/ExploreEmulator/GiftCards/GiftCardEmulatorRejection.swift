@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird

/// A refusal of a gift-card emulator: a status and the exact JSON body the backend sends. Route bodies
/// throw it; ``GiftCardEmulatorRoutes/respond(_:)`` turns it into the response.
struct GiftCardEmulatorRejection: Error, Sendable {
    var status: HTTPResponse.Status
    var body: Data

    var response: Response { SandboxResponse.raw(body, status: status) }

    /// A CTX error body, `{"errors":[{"id","message"}]}` plus `fields` when given: the shape of
    /// `CTXSpendAPIError` in the Dash wallet's `CTXSpendEndpoint.swift`, written by the emulator itself.
    static func ctx(_ status: HTTPResponse.Status, _ message: String, fields: [String: [String]]? = nil) -> Self {
        var object: [String: Any] = ["errors": [["id": "\(status.code)", "message": message]]]
        if let fields { object["fields"] = fields }
        return Self(status: status, body: GiftCardEmulatorRoutes.json(object))
    }
}

/// The bits every gift-card emulator route needs: answering rejections, bounded bodies, strict JSON.
enum GiftCardEmulatorRoutes {
    /// The largest request body read (64 KiB).
    static let maxBodySize = 64 * 1024

    static func respond(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let rejection as GiftCardEmulatorRejection {
            return rejection.response
        }
    }

    /// The body decoded as `type`, or `invalid` (thrown) when it is missing, too large or not that JSON.
    static func decode<T: Decodable>(
        _ type: T.Type, from request: Request, context: SandboxRequestContext, invalid: GiftCardEmulatorRejection
    ) async throws -> T {
        var request = request
        let buffer = try await request.collectBody(upTo: max(context.maxUploadSize, maxBodySize))
        guard buffer.readableBytes <= maxBodySize, let value = try? JSONDecoder().decode(type, from: Data(buffer.readableBytesView)) else {
            throw invalid
        }
        return value
    }

    /// `object` (a JSON object or array) as JSON with sorted keys (the emulators' own answers are plain
    /// JSON values).
    static func json(_ object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    /// A response whose body is `object` as JSON.
    static func jsonResponse(_ object: Any, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        SandboxResponse.raw(json(object), status: status, headers: headers)
    }

    /// The verified claims of `Authorization: Bearer <jwt>` when it is an access token of kind `kind`.
    static func bearerClaims(_ request: Request, environment: EmulatorEnvironment, kind: String) -> VerifiedClaims? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
        guard let claims = try? environment.jwt.verify(String(header.dropFirst("Bearer ".count))),
            claims.extraClaims[tokenKindClaim] == kind
        else { return nil }
        return claims
    }

    /// The JWT claim naming what a token is for.
    static let tokenKindClaim = "typ"
}

extension SeededGenerator {
    /// A version-4 UUID string drawn from this generator.
    mutating func nextUUID() -> String {
        let hex = Array(nextHex(byteCount: 16))
        var characters = hex
        characters[12] = "4"
        characters[16] = ["8", "9", "a", "b"][Int(next() % 4)]
        let text = String(characters)
        func slice(_ from: Int, _ to: Int) -> Substring { text.dropFirst(from).prefix(to - from) }
        return [slice(0, 8), slice(8, 12), slice(12, 16), slice(16, 20), slice(20, 32)].joined(separator: "-")
    }

    /// `count` random decimal digits.
    mutating func nextDigits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(next() % 10)) })
    }
}
