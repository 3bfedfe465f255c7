@_spi(EngageProvider) import EngageSandbox
import Foundation
@_spi(EngageProvider) import EngageCore

/// A local Acme backend for tests and the example, served by a `SandboxHost` under `/acme`.
///
/// | route | behaviour |
/// |---|---|
/// | `GET /deals?limit=N` | `{"deals":[{"id","title","percentOff","sku"}]}`, at most N (1...100); needs `Authorization: Bearer <apiKey>` (else 401 `{"error":"invalid_key"}`) |
/// | `POST /deals/{id}/claim` | `{"code"}`; unknown deal 404 `{"message"}`; a second claim 409 `{"error":"already_claimed"}` |
/// | `GET /status` | `{"ok":true}`, without authentication |
public final class AcmeEmulator: Emulator {
    /// The path prefix: `acme`.
    public let id = "acme"
    /// The key the emulator accepts.
    public let apiKey: String
    private let claimed = Locked<[String: String]>([:])

    /// The deals the emulator serves, in order.
    public static let deals: [(id: String, title: String, percentOff: Int, sku: String)] = [
        ("deal-1", "20 % off the anvil", 20, "anvil"),
        ("deal-2", "Rocket skates, 35 % off", 35, "rocket-skates"),
        ("deal-3", "Giant magnet: half price", 50, "magnet"),
        ("deal-4", "Bird seed, 10 % off", 10, "bird-seed"),
    ]

    /// An emulator accepting `apiKey`.
    public init(apiKey: String = "acme-demo-key") {
        self.apiKey = apiKey
    }

    /// The codes handed out so far, by deal id (for tests).
    public var claims: [String: String] { claimed.withLock { $0 } }

    /// Adds the routes of the table above.
    public func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.get("status") { _, _ in SandboxResponse.raw(Data(#"{"ok":true}"#.utf8)) }
        group.get("deals") { request, _ in
            guard self.isAuthorized(request) else { return Self.invalidKey() }
            let limit = request.queryLookup["limit"].flatMap(Int.init) ?? 20
            guard (1...100).contains(limit) else {
                return SandboxResponse.error(.badRequest, code: "invalid_limit", description: "limit must be within 1...100.")
            }
            let deals = Self.deals.prefix(limit).map {
                ["id": $0.id, "title": $0.title, "percentOff": $0.percentOff, "sku": $0.sku] as [String: Any]
            }
            return SandboxResponse.raw(try JSONSerialization.data(withJSONObject: ["deals": deals], options: [.sortedKeys]))
        }
        group.post("deals/:id/claim") { request, context in
            guard self.isAuthorized(request) else { return Self.invalidKey() }
            let dealID = context.parameters.get("id") ?? ""
            guard Self.deals.contains(where: { $0.id == dealID }) else {
                return SandboxResponse.raw(Data(#"{"message":"no such deal"}"#.utf8), status: .notFound)
            }
            var generator = environment.makeGenerator(stream: "claim/\(dealID)")
            let code = "ACME-" + String(generator.next() % 1_000_000)
            let isNew = self.claimed.withLock { claims -> Bool in
                guard claims[dealID] == nil else { return false }
                claims[dealID] = code
                return true
            }
            guard isNew else { return SandboxResponse.error(.conflict, code: "already_claimed") }
            return try SandboxResponse.json(["code": code])
        }
    }

    private func isAuthorized(_ request: Request) -> Bool {
        request.headers[.authorization] == "Bearer \(apiKey)"
    }

    private static func invalidKey() -> Response {
        SandboxResponse.error(.unauthorized, code: "invalid_key", headers: [.wwwAuthenticate: "Bearer"])
    }
}
