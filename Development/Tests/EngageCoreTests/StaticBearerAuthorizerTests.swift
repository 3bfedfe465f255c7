@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

@Suite("StaticBearerAuthorizer", .bounded)
struct StaticBearerAuthorizerTests {
    func stack(_ transport: InMemoryTransport, key: String) -> APIClient {
        APIClient(baseURL: URL(string: "https://api.example.com")!, transport: transport, authorizer: StaticBearerAuthorizer(key: key))
    }

    @Test("the key goes out as a bearer token, except on requests marked authorization: .none")
    func sentUnlessNone() async throws {
        let transport = InMemoryTransport { _ in .json([:]) }
        let stack = stack(transport, key: "acme-key-123")
        _ = try await stack.data(.get, "/deals")
        _ = try await stack.data(.get, "/deals", options: RequestOptions(authorization: .required))
        _ = try await stack.data(.get, "/public", options: RequestOptions(authorization: .none))
        #expect(transport.requests.map(\.bearerToken) == ["acme-key-123", "acme-key-123", nil])
    }

    @Test("a 401 is the call's error: a fixed key cannot be renewed, and the request is not resent")
    func unauthorizedIsFinal() async throws {
        let transport = InMemoryTransport { _ in .status(.unauthorized) }
        let error = await #expect(throws: EngageError.self) { try await stack(transport, key: "acme-key-123").data(.get, "/deals") }
        #expect(error?.httpStatus == 401)
        #expect(transport.requests.count == 1)
    }

    @Test("an empty key sends nothing, and a required request fails with .unauthorized before it is sent")
    func emptyKey() async throws {
        let transport = InMemoryTransport { _ in .json([:]) }
        let stack = stack(transport, key: "")
        _ = try await stack.data(.get, "/deals")
        #expect(transport.requests.first?.head.headerFields[.authorization] == nil)
        await #expect { try await stack.data(.get, "/deals", options: RequestOptions(authorization: .required)) } throws: {
            ($0 as? EngageError)?.code == .unauthorized
        }
        #expect(transport.requests.count == 1)
    }

    @Test("the key appears in neither its description nor dump nor Mirror")
    func keyHidden() {
        let authorizer = StaticBearerAuthorizer(key: "acme-key-123")
        var dumped = ""
        dump(authorizer, to: &dumped)
        for text in [
            String(describing: authorizer), String(reflecting: authorizer), dumped,
            "\(Mirror(reflecting: authorizer).children.map(\.value))",
        ] {
            #expect(!text.contains("acme-key-123"), "\(text)")
        }
    }
}
