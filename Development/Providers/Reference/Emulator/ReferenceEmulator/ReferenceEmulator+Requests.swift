@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird
import NIOCore

extension ReferenceEmulator {
    /// Decodes the request body as JSON, or returns `nil` when it is not the expected shape.
    func decodeBody<T: Decodable>(_ type: T.Type, from request: Request, context: SandboxRequestContext) async throws -> T? {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        return try? JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
    }

    /// 400 `{"error":"invalid_request"}`.
    func invalidRequest(_ description: String) -> Response {
        SandboxResponse.error(.badRequest, code: "invalid_request", description: description)
    }

    /// The request path relative to this emulator's prefix.
    func relativePath(of request: Request) -> String {
        let path = request.uri.path
        let prefix = "/" + id
        guard path.hasPrefix(prefix) else { return path }
        let rest = String(path.dropFirst(prefix.count))
        return rest.isEmpty ? "/" : rest
    }
}
