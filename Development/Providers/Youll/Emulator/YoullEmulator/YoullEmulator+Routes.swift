@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Graphiti
import GraphQL
import HTTPTypes
import Hummingbird
import NIOCore

extension YoullEmulator {
    /// The largest request body read (6 MiB: a 5 MiB picture and its multipart framing).
    static let maxBodySize = 6 << 20

    /// Who a request's bearer token names.
    enum Caller {
        case guest
        case user(String)
        case refused(JWTVerificationError)
    }

    /// Verifies the bearer token, if any, and reads the Hasura user id from its claims.
    func caller(of request: Request, environment: EmulatorEnvironment) -> Caller {
        guard let header = request.headers[.authorization] else { return .guest }
        guard header.hasPrefix("Bearer ") else { return .refused(.malformed) }
        do {
            let claims = try environment.jwt.verify(String(header.dropFirst("Bearer ".count)))
            guard let text = claims.extraClaims[Self.hasuraClaimsKey],
                let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let userID = object["x-hasura-user-id"] as? String,
                (object["x-hasura-allowed-roles"] as? [String])?.contains("user") == true
            else { return .refused(.malformed) }
            if state.withLock({ $0.deletedUsers.contains(userID) }) { return .refused(.badSignature) }
            return .user(userID)
        } catch {
            return .refused(error)
        }
    }

    func readBody(_ request: Request, context: SandboxRequestContext) async throws -> Data? {
        var request = request
        let buffer = try await request.collectBody(upTo: max(context.maxUploadSize, Self.maxBodySize))
        guard buffer.readableBytes <= Self.maxBodySize else { return nil }
        return Data(buffer.readableBytesView)
    }

    // MARK: GraphQL

    func addGraphQLRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.post("v1/graphql") { request, context in
            guard let body = try await self.readBody(request, context: context) else {
                return Self.graphQLError("request body too large", code: "parse-failed")
            }
            return await self.executeGraphQL(body: body, request: request, environment: environment)
        }
        group.post("auth/token") { request, context in
            struct TokenRequest: Decodable { var userId: String }
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            guard let body = try await self.readBody(request, context: context),
                let token = try? decoder.decode(TokenRequest.self, from: body),
                !token.userId.isEmpty, token.userId.count <= 128
            else {
                return SandboxResponse.error(.badRequest, code: "invalid_request", description: "Expected {\"user_id\": \"…\"}.")
            }
            return try SandboxResponse.json(["access_token": self.issueToken(userID: token.userId)])
        }
    }

    func executeGraphQL(body: Data, request: Request, environment: EmulatorEnvironment) async -> Response {
        let userID: String?
        switch caller(of: request, environment: environment) {
        case .guest:
            if let role = request.headers[HTTPField.Name(literal: "x-hasura-role")], role != "guest" {
                return Self.graphQLError("x-hasura-role '\(role)' needs a verified JWT", code: "access-denied")
            }
            userID = nil
        case let .user(id):
            if let role = request.headers[HTTPField.Name(literal: "x-hasura-role")], !["user", "guest"].contains(role) {
                return Self.graphQLError("your requested role is not in allowed roles", code: "access-denied")
            }
            userID = id
        case .refused(.expired):
            return Self.graphQLError("Could not verify JWT: JWTExpired", code: "invalid-jwt")
        case .refused:
            return Self.graphQLError("Could not verify JWT: JWSError JWSInvalidSignature", code: "invalid-jwt")
        }
        guard let schema = Self.schema else { return Self.graphQLError("the schema did not build", code: "unexpected") }
        guard let graphQLRequest = try? JSONDecoder().decode(GraphQLRequest.self, from: body) else {
            return Self.graphQLError("Error in $: expected {\"query\",\"variables\",\"operationName\"}", code: "parse-failed")
        }
        var result: GraphQLResult
        do {
            result = try await schema.execute(
                request: graphQLRequest.query, resolver: YoullResolver(), context: YoullGraphQLContext(userID: userID, emulator: self),
                variables: graphQLRequest.variables, operationName: graphQLRequest.operationName
            )
        } catch let error as GraphQLError {
            result = GraphQLResult(errors: [error])
        } catch {
            result = GraphQLResult(errors: [GraphQLError(message: "\(error)")])
        }
        result.errors = result.errors.map { error in
            let code =
                (error.originalError as? YoullGraphQLFailure)?.code
                ?? (error.locations.isEmpty && error.path.elements.isEmpty ? "validation-failed" : "unexpected")
            let message = (error.originalError as? YoullGraphQLFailure)?.description ?? error.message
            return GraphQLError(message: message, locations: error.locations, path: error.path, extensions: ["code": .string(code)])
        }
        do {
            return SandboxResponse.raw(try GraphQLJSONEncoder().encode(result))
        } catch {
            return Self.graphQLError("the answer could not be encoded", code: "unexpected")
        }
    }

    /// A Hasura-style error answer (HTTP 200) without data.
    static func graphQLError(_ message: String, code: String) -> Response {
        let object: [String: Any] = ["errors": [["message": message, "extensions": ["code": code, "path": "$"]]]]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return SandboxResponse.raw(body)
    }
}
