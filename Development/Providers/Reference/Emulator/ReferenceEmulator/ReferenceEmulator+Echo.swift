@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension ReferenceEmulator {
    func addEchoRoutes(to group: RouterGroup<SandboxRequestContext>) {
        let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]
        for method in methods {
            group.on("echo", method: method) { request, context in
                try await self.echo(request, context: context)
            }
        }
    }

    private func echo(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let rawQuery = request.uri.query
        return try SandboxResponse.json(
            EchoResponse(
                method: request.method.rawValue,
                path: relativePath(of: request),
                rawQuery: rawQuery,
                query: rawQuery.map(QueryString.decode) ?? [],
                headers: request.headers.map { HeaderField(name: $0.name.rawName, value: $0.value) },
                body: String(decoding: body.readableBytesView, as: UTF8.self)
            )
        )
    }
}
