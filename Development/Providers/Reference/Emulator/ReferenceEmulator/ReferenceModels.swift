@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox

/// An event the reference emulator stored.
public struct ReferenceEvent: Sendable, Hashable, Codable {
    /// The client's idempotency key.
    public var id: String
    /// The event name.
    public var name: String
    /// The event payload as sent (`null` when absent).
    public var payload: JSONValue

    /// Creates an event.
    public init(id: String, name: String, payload: JSONValue = .null) {
        self.id = id
        self.name = name
        self.payload = payload
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, payload
    }

    /// Decodes an event; a missing payload becomes `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(String.self, forKey: .id)
        self.name = try container.decode(String.self, forKey: .name)
        self.payload = try container.decodeIfPresent(JSONValue.self, forKey: .payload) ?? .null
    }
}

struct TokenRequest: Decodable {
    var username: String
    var password: String
}

struct RefreshRequest: Decodable {
    var refresh_token: String
}

struct TokenResponse: Encodable {
    var access_token: String
    var refresh_token: String
    var expires_in: Int64
    var token_type = "Bearer"
}

struct EventBatch: Decodable {
    var events: [ReferenceEvent]
}

struct EventReceipt: Encodable {
    var accepted: Int
    var duplicates: Int
}

struct EventList: Encodable {
    var events: [ReferenceEvent]
}

struct EchoResponse: Encodable {
    var method: String
    var path: String
    var rawQuery: String?
    var query: [QueryItem]
    var headers: [HeaderField]
    var body: String
}

struct GraphQLRequest: Decodable {
    var query: String
    var variables: JSONValue?
    var operationName: String?
}
