@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import Logging

/// A provider context named `id` over `database`, with a fake clock (`clock`, or a new one), a seeded
/// random source, an in-memory secret store, and requests sent to `transport`.
func makeProviderContext(
    _ id: ProviderID, database: EngageDatabase, transport: InMemoryTransport = InMemoryTransport { _ in .status(.ok) },
    events: EventBus = EventBus(), clock: FakeClock = FakeClock()
) throws -> ProviderContext {
    let secretStore = InMemorySecretStore()
    let sealer = try Sealer(store: secretStore, keyName: "core-tests")
    let random = SeededRandomSource(seed: 1)
    let logger = Logger(label: "core-tests")
    return ProviderContext(
        descriptor: ProviderDescriptor(id: id, displayName: id.rawValue, version: "1.0.0"),
        configuration: .preset(.testing, appID: "org.engagekit.core-tests"), logger: logger, clock: clock, random: random,
        transport: transport, storage: try database.namespace(id.rawValue, sealer: sealer), database: database,
        secretStore: secretStore, sealer: sealer, events: events,
        analytics: DurableQueue(database: database, clock: clock, random: random, logger: logger)
    )
}

/// An unsigned JWT whose `exp` is `expiry` (the client never verifies signatures).
func makeJWT(expiresAt expiry: Date, subject: String = "user-1") -> String {
    let header = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
    let payload = Base64URL.encode(Data(#"{"sub":"\#(subject)","exp":\#(Int(expiry.timeIntervalSince1970))}"#.utf8))
    return "\(header).\(payload).c2lnbmF0dXJl"
}

extension HTTPRequestMessage {
    static func get(_ path: String, authorization: RequestOptions.Authorization = .ifAvailable) -> HTTPRequestMessage {
        HTTPRequestMessage(
            head: HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: path),
            options: RequestOptions(authorization: authorization)
        )
    }

    static func post(_ path: String, body: String = "{}") -> HTTPRequestMessage {
        HTTPRequestMessage(
            head: HTTPRequest(method: .post, scheme: "https", authority: "api.example.com", path: path),
            body: Data(body.utf8)
        )
    }

    var bearerToken: String? {
        head.headerFields[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
    }
}

/// Whether `body` throws an `EngageError` with `code`; any other error is rethrown, no error is `false`.
func throwsCode(_ code: EngageError.Code, _ body: () throws -> Void) throws -> Bool {
    do {
        try body()
        return false
    } catch let error as EngageError {
        return error.code == code
    }
}

extension CredentialRejection {
    /// A 401 to `request` as sent: its access token was refused.
    static func unauthorized(_ request: HTTPRequestMessage) -> CredentialRejection {
        CredentialRejection(
            request: request, response: HTTPResponseMessage(head: HTTPResponse(status: .unauthorized)), credential: .accessToken)
    }
}
