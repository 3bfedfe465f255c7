@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import ReferenceEmulator
import EngageTestTraits
import Testing

struct TokenPairReply: Decodable {
    var access_token: String
    var refresh_token: String
    var expires_in: Int
}

@Suite("Reference emulator", .bounded)
struct ReferenceEmulatorTests {
    @Test("logging in returns a real JWT and an opaque refresh token")
    func login() async throws {
        let clock = TestClock()
        let configuration = SandboxConfiguration(now: clock.provider, tokenLifetime: .seconds(90))
        try await withSandbox(configuration: configuration) { host, endpoints in
            let reply = try await TestClient().postJSON(
                try endpoints.reference("/auth/token"), ["username": "alice", "password": "secret"]
            )
            #expect(reply.status == 200)
            let pair = try reply.json(TokenPairReply.self)
            #expect(pair.expires_in == 90)
            let claims = try host.jwt.verify(pair.access_token)
            #expect(claims.subject == "alice")
            #expect(claims.expiresAt == clock.now.addingTimeInterval(90))
            #expect(pair.refresh_token.hasPrefix("rt_"))
        }
    }

    @Test("a wrong password is 401 invalid_grant")
    func wrongPassword() async throws {
        try await withSandbox { _, endpoints in
            let reply = try await TestClient().postJSON(
                try endpoints.reference("/auth/token"), ["username": "alice", "password": "nope"]
            )
            #expect(reply.status == 401)
            #expect(try reply.json([String: String].self)["error"] == "invalid_grant")
        }
    }

    @Test("refresh rotates the pair, counts once, and the old refresh token is then rejected")
    func refreshRotation() async throws {
        let emulator = ReferenceEmulator()
        try await withSandbox([emulator]) { _, endpoints in
            let client = TestClient()
            let login = try await client.postJSON(
                try endpoints.reference("/auth/token"), ["username": "alice", "password": "secret"]
            ).json(TokenPairReply.self)
            let refreshURL = try endpoints.reference("/auth/refresh")

            let rotated = try await client.postJSON(refreshURL, ["refresh_token": login.refresh_token])
            #expect(rotated.status == 200)
            let pair = try rotated.json(TokenPairReply.self)
            #expect(pair.refresh_token != login.refresh_token)
            #expect(pair.access_token != login.access_token)
            #expect(emulator.refreshCount == 1)

            let reused = try await client.postJSON(refreshURL, ["refresh_token": login.refresh_token])
            #expect(reused.status == 400)
            #expect(try reused.json([String: String].self)["error"] == "invalid_grant")
            #expect(emulator.refreshCount == 1)

            #expect(try await client.postJSON(refreshURL, ["refresh_token": pair.refresh_token]).status == 200)
            #expect(emulator.refreshCount == 2)
            #expect(emulator.loginCount == 1)
        }
    }

    @Test("/items requires a valid bearer token")
    func itemsNeedAuth() async throws {
        let clock = TestClock()
        let configuration = SandboxConfiguration(now: clock.provider, tokenLifetime: .seconds(30))
        try await withSandbox(configuration: configuration) { _, endpoints in
            let client = TestClient()
            let url = try endpoints.reference("/items?size=256")
            let anonymous = try await client.get(url)
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate") == "Bearer")

            let garbage = try await client.get(url, headers: ["Authorization": "Bearer not.a.jwt"])
            #expect(garbage.status == 401)

            let pair = try await client.postJSON(
                try endpoints.reference("/auth/token"), ["username": "bob", "password": "secret"]
            ).json(TokenPairReply.self)
            let authorized = try await client.get(url, headers: ["Authorization": "Bearer \(pair.access_token)"])
            #expect(authorized.status == 200)

            clock.advance(by: 30)
            let expired = try await client.get(url, headers: ["Authorization": "Bearer \(pair.access_token)"])
            #expect(expired.status == 401)
            #expect(expired.header("WWW-Authenticate")?.contains("invalid_token") == true)
        }
    }

    @Test("items documents are about the requested size, deterministic per seed", arguments: [0, 100, 2048, 100_000])
    func itemsSize(size: Int) async throws {
        func fetch(seed: UInt64) async throws -> Data {
            try await withSandbox(configuration: SandboxConfiguration(seed: seed)) { _, endpoints in
                let reply = try await TestClient().get(try endpoints.reference("/public/items?size=\(size)"))
                #expect(reply.status == 200)
                return reply.body
            }
        }
        let body = try await fetch(seed: 5)
        #expect(body.count <= max(size, 12))
        #expect(body.count >= size - 80)
        let document = try JSONDecoder().decode(ItemsReply.self, from: body)
        #expect(document.items.map(\.id) == Array(1...max(1, document.items.count)).prefix(document.items.count).map { $0 })
        #expect(try await fetch(seed: 5) == body)
        if size >= 2048 { #expect(try await fetch(seed: 6) != body) }
    }

    @Test("items default to about 2 KiB and are capped at 1 MiB")
    func itemsDefaultsAndCap() async throws {
        try await withSandbox { _, endpoints in
            let client = TestClient()
            let standard = try await client.get(try endpoints.reference("/public/items"))
            #expect((1_968...2_048).contains(standard.body.count))
            let capped = try await client.get(try endpoints.reference("/public/items?size=5000000"))
            #expect((1_048_496...1_048_576).contains(capped.body.count))
            #expect(try await client.get(try endpoints.reference("/public/items?size=abc")).status == 400)
        }
    }

    @Test("events are deduplicated by id")
    func eventsDedup() async throws {
        let emulator = ReferenceEmulator()
        try await withSandbox([emulator]) { _, endpoints in
            let client = TestClient()
            let url = try endpoints.reference("/events")
            let first = #"{"events":[{"id":"e1","name":"open","payload":{"screen":"home","n":1}},{"id":"e2","name":"tap"}]}"#
            let second = #"{"events":[{"id":"e2","name":"tap"},{"id":"e3","name":"close"}]}"#
            let firstReply = try await client.send("POST", url, body: Data(first.utf8))
            #expect(try firstReply.json([String: Int].self) == ["accepted": 2, "duplicates": 0])
            let secondReply = try await client.send("POST", url, body: Data(second.utf8))
            #expect(try secondReply.json([String: Int].self) == ["accepted": 1, "duplicates": 1])

            #expect(emulator.uniqueEventCount == 3)
            #expect(emulator.duplicateEventCount == 1)
            #expect(emulator.receivedEvents.map(\.id) == ["e1", "e2", "e3"])
            #expect(emulator.receivedEvents.first?.payload["screen"] == .string("home"))

            let listed = try await client.get(url).json(EventListReply.self)
            #expect(listed.events.map(\.id) == ["e1", "e2", "e3"])
            #expect(try await client.send("POST", url, body: Data("{}".utf8)).status == 400)
        }
    }

    @Test("graphql answers data with the variables, or errors with HTTP 200 when the query says fail")
    func graphql() async throws {
        try await withSandbox { _, endpoints in
            let client = TestClient()
            let url = try endpoints.reference("/graphql")
            let ok = try await client.send(
                "POST", url, body: Data(#"{"query":"query Echo { echo }","variables":{"id":7,"tags":["a"]}}"#.utf8)
            )
            #expect(ok.status == 200)
            let data = try ok.json(JSONValue.self)
            #expect(data["data"]?["echo"]?["variables"] == .object(["id": .number(7), "tags": .array([.string("a")])]))

            let failed = try await client.send("POST", url, body: Data(#"{"query":"query { fail }"}"#.utf8))
            #expect(failed.status == 200)
            let errors = try failed.json(JSONValue.self)
            #expect(errors["data"] == nil)
            guard case .array(let list) = errors["errors"], let first = list.first else {
                Issue.record("no errors array in \(failed.text)")
                return
            }
            #expect(first["message"] == .string("Simulated failure"))
            #expect(first["extensions"]?["code"] == .string("simulated"))
        }
    }

    @Test("echo reflects method, path, query, headers and body")
    func echo() async throws {
        try await withSandbox { _, endpoints in
            let reply = try await TestClient().send(
                "PUT", try endpoints.reference("/echo?x=1+1&y=%2B"), body: Data("hi".utf8), headers: ["X-Probe": "p"]
            )
            let echo = try reply.json(EchoReply.self)
            #expect(echo.method == "PUT")
            #expect(echo.path == "/echo")
            #expect(echo.query.map(\.value) == ["1+1", "+"])
            #expect(echo.headers.contains { $0.name.lowercased() == "x-probe" && $0.value == "p" })
            #expect(echo.body == "hi")
        }
    }
}

struct ItemsReply: Decodable {
    struct Item: Decodable {
        var id: Int
        var name: String
        var price: Double
    }

    var items: [Item]
}

struct EventListReply: Decodable {
    struct Event: Decodable {
        var id: String
        var name: String
    }

    var events: [Event]
}
