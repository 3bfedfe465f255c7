@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import ReferenceEmulator
import EngageTestTraits
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Fault injection", .bounded)
struct FaultInjectionTests {
    @Test("a status fault answers with its status, headers and body instead of the emulator")
    func statusFault() async throws {
        try await withSandbox { host, endpoints in
            host.faults.inject(FaultRule(.serviceUnavailable(retryAfter: 1), emulatorID: "reference", path: "/public/items"))
            host.faults.inject(
                FaultRule(.status(418, body: Data("teapot".utf8), headers: ["X-Fault": "yes"]), path: "/echo")
            )
            let client = TestClient()
            let unavailable = try await client.get(try endpoints.reference("/public/items"))
            #expect(unavailable.status == 503)
            #expect(unavailable.header("Retry-After") == "1")
            let teapot = try await client.get(try endpoints.reference("/echo"))
            #expect(teapot.status == 418)
            #expect(teapot.header("X-Fault") == "yes")
            #expect(teapot.text == "teapot")
            #expect(host.journal.entries.map(\.status) == [503, 418])
            #expect(
                host.journal.entries.map(\.fault) == [
                    .serviceUnavailable(retryAfter: 1), .status(418, body: Data("teapot".utf8), headers: ["X-Fault": "yes"]),
                ]
            )
        }
    }

    @Test("a delay fault holds the request for its duration, then the emulator answers")
    func delayFault() async throws {
        let gate = SleepGate()
        try await withSandbox(configuration: SandboxConfiguration(sleep: gate.sleep)) { host, endpoints in
            host.faults.inject(FaultRule(.delay(.milliseconds(250)), path: "/echo"))
            let slowURL = try endpoints.reference("/echo?slow=1")
            let slow = Task { try await TestClient().get(slowURL) }

            #expect(await gate.nextSleeper(timeout: .seconds(10)) == .milliseconds(250))
            // While it is held, the slow request has no journal entry and another request goes through.
            #expect(host.journal.count == 0)
            let fast = try await TestClient().get(try endpoints.reference("/public/items?size=64"))
            #expect(fast.status == 200)
            #expect(host.journal.entries.map(\.path) == ["/public/items"])

            gate.release()
            let reply = try await slow.value
            #expect(reply.status == 200)
            #expect(try reply.json(EchoReply.self).query.first?.value == "1")
            #expect(host.journal.entries.map(\.path) == ["/public/items", "/echo"])
            #expect(host.journal.entries.last?.fault == .delay(.milliseconds(250)))
        }
    }

    @Test("a malformed body fault sends 200 JSON that does not decode")
    func malformedBody() async throws {
        try await withSandbox { host, endpoints in
            host.faults.inject(FaultRule(.malformedBody, path: "/public/items"))
            let reply = try await TestClient().get(try endpoints.reference("/public/items"))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(throws: DecodingError.self) { try reply.json(JSONValue.self) }
            #expect(host.journal.entries.first?.fault == .malformedBody)
        }
    }

    @Test("a truncated body fault makes the client fail with a network error")
    func truncatedBody() async throws {
        try await withSandbox { host, endpoints in
            host.faults.inject(FaultRule(.truncatedBody, path: "/public/items"))
            let url = try endpoints.reference("/public/items?size=4096")
            await #expect(throws: (any Error).self) { try await TestClient().get(url) }

            // On the wire: the head arrives announcing the full length, fewer bytes follow, then an error.
            let seen = await TransferProbe.run(URLRequest(url: url))
            #expect(seen.status == 200)
            let announced = try #require(seen.announcedLength)
            #expect(announced > 4000)
            #expect(Int64(seen.receivedBytes) < announced)
            #expect(seen.error != nil)

            let entry = try #require(host.journal.entries.first)
            #expect(entry.fault == .truncatedBody)
            #expect(entry.status == 200)
        }
    }

    @Test("a dropped connection makes the client fail, and the emulator never saw the request")
    func dropConnection() async throws {
        let emulator = ReferenceEmulator()
        try await withSandbox([emulator]) { host, endpoints in
            host.faults.inject(FaultRule(.dropConnection, method: "POST", path: "/events"))
            let url = try endpoints.reference("/events")
            await #expect(throws: (any Error).self) {
                try await TestClient().postJSON(url, ["events": [["id": "1", "name": "n"]]])
            }
            #expect(emulator.uniqueEventCount == 0)

            // On the wire: no response head at all, just an error.
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"events":[]}"#.utf8)
            let seen = await TransferProbe.run(request)
            #expect(seen.status == nil)
            #expect(seen.receivedBytes == 0)
            #expect(seen.error != nil)
            let entry = try #require(host.journal.entries.first)
            #expect(entry.fault == .dropConnection)
            #expect(entry.status == nil)
        }
    }

    @Test("dropping after handling loses the answer but keeps the emulator's side effects")
    func dropAfterHandling() async throws {
        let emulator = ReferenceEmulator()
        try await withSandbox([emulator]) { host, endpoints in
            host.faults.inject(FaultRule(.dropConnectionAfterHandling, path: "/events", trigger: .times(1)))
            let url = try endpoints.reference("/events")
            await #expect(throws: (any Error).self) {
                try await TestClient().postJSON(url, ["events": [["id": "1", "name": "n"]]])
            }
            #expect(emulator.uniqueEventCount == 1)
            #expect(host.journal.entries.first?.status == nil)
        }
    }

    @Test(".times(n) applies to the next n matching requests, then retires")
    func timesRetires() async throws {
        try await withSandbox { host, endpoints in
            host.faults.inject(FaultRule(.status(500), path: "/public/items", trigger: .times(2)))
            let client = TestClient()
            let url = try endpoints.reference("/public/items?size=32")
            // A request that does not match leaves the count alone.
            let echo = try endpoints.reference("/echo")
            #expect(try await client.get(echo).status == 200)
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(try await client.get(url).status) }
            #expect(statuses == [500, 500, 200, 200])
            #expect(host.faults.activeRules.isEmpty)
        }
    }

    @Test("path patterns ending in * match by prefix; method and emulator narrow the match")
    func prefixMatching() async throws {
        try await withSandbox([ReferenceEmulator(), PingEmulator(id: "ping")]) { host, endpoints in
            host.faults.inject(FaultRule(.status(502), emulatorID: "reference", method: "get", path: "/public/*"))
            let client = TestClient()
            let publicItems = try endpoints.reference("/public/items")
            let echo = try endpoints.reference("/echo")
            let ping = try endpoints.url("ping", "/ping")
            #expect(try await client.get(publicItems).status == 502)
            #expect(try await client.get(echo).status == 200)
            #expect(try await client.send("POST", publicItems).status == 404)
            #expect(try await client.get(ping).status == 200)
        }
    }

    @Test("remove and removeAll stop rules from applying")
    func removal() async throws {
        try await withSandbox { host, endpoints in
            let id = host.faults.inject(FaultRule(.status(500), path: "/echo"))
            let client = TestClient()
            let url = try endpoints.reference("/echo")
            #expect(try await client.get(url).status == 500)
            host.faults.remove(id)
            #expect(try await client.get(url).status == 200)
            host.faults.inject(FaultRule(.status(500)))
            host.faults.inject(FaultRule(.status(501)))
            #expect(try await client.get(url).status == 500)
            host.faults.removeAll()
            #expect(try await client.get(url).status == 200)
        }
    }

    @Test("probability triggers are deterministic for a seed: same seed, same hits")
    func probabilityIsDeterministic() async throws {
        func hits(seed: UInt64) async throws -> [Bool] {
            try await withSandbox(configuration: SandboxConfiguration(seed: seed)) { host, endpoints in
                host.faults.inject(FaultRule(.status(503), path: "/echo", trigger: .probability(0.5)))
                let client = TestClient()
                let url = try endpoints.reference("/echo")
                var hits: [Bool] = []
                for _ in 0..<16 { hits.append(try await client.get(url).status == 503) }
                #expect(host.journal.entries.map { $0.fault != nil } == hits)
                return hits
            }
        }
        let first = try await hits(seed: 1)
        #expect(try await hits(seed: 1) == first)
        #expect(first.contains(true) && first.contains(false))
        #expect(try await hits(seed: 2) != first)
    }

    @Test("probability 0 never fires and 1 always fires")
    func probabilityBounds() {
        let injector = FaultInjector(generator: SeededGenerator(seed: 3))
        injector.inject(FaultRule(.malformedBody, path: "/never", trigger: .probability(0)))
        injector.inject(FaultRule(.dropConnection, path: "/always", trigger: .probability(1)))
        for _ in 0..<50 {
            #expect(injector.nextFault(emulatorID: "x", method: "GET", path: "/never") == nil)
            #expect(injector.nextFault(emulatorID: "x", method: "GET", path: "/always") == .dropConnection)
        }
    }
}

/// The part of `/echo`'s answer these tests read.
struct EchoReply: Decodable {
    struct Item: Decodable {
        var name: String
        var value: String
    }

    var method: String
    var path: String
    var query: [Item]
    var headers: [Item]
    var body: String
}
