@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Hummingbird

extension ReferenceEmulator {
    func addGraphQLRoutes(to group: RouterGroup<SandboxRequestContext>) {
        group.post("graphql") { request, context in
            guard let body = try await self.decodeBody(GraphQLRequest.self, from: request, context: context) else {
                return self.invalidRequest(#"Expected {"query", "variables"?, "operationName"?}."#)
            }
            if body.query.contains("fail") {
                let error: JSONValue = .object([
                    "message": .string("Simulated failure"),
                    "extensions": .object(["code": .string("simulated")]),
                ])
                return try SandboxResponse.json(JSONValue.object(["errors": .array([error])]))
            }
            let variables = body.variables ?? .object([:])
            return try SandboxResponse.json(
                JSONValue.object(["data": .object(["echo": .object(["variables": variables])])])
            )
        }
    }
}
