@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import ReferenceEmulator
import EngageTestTraits
import Testing

@Suite("Request journal", .bounded)
struct RequestJournalTests {
    @Test("records method, relative path, raw and decoded query, headers, body, status and clock time")
    func recordsRequests() async throws {
        let clock = TestClock()
        try await withSandbox(configuration: SandboxConfiguration(now: clock.provider)) { host, endpoints in
            let url = try endpoints.reference("/echo?q=a+b&plus=%2B&space=a%20b&flag&q=second&caf%C3%A9=cr%C3%A8me")
            let reply = try await TestClient().send(
                "POST", url, body: Data(#"{"hello":"world"}"#.utf8),
                headers: ["Content-Type": "application/json", "Authorization": "Bearer abc.def.ghi", "X-Trace": "t-1"]
            )
            #expect(reply.status == 200)

            let entry = try #require(host.journal.entries.first)
            #expect(host.journal.count == 1)
            #expect(entry.emulatorID == "reference")
            #expect(entry.method == "POST")
            #expect(entry.path == "/echo")
            #expect(entry.rawQuery == "q=a+b&plus=%2B&space=a%20b&flag&q=second&caf%C3%A9=cr%C3%A8me")
            #expect(entry.queryItems.map(\.name) == ["q", "plus", "space", "flag", "q", "café"])
            #expect(entry.query["q"] == "a+b")
            #expect(entry.query["plus"] == "+")
            #expect(entry.query["space"] == "a b")
            #expect(entry.query["flag"] == "")
            #expect(entry.query["café"] == "crème")
            #expect(entry.query.values("q") == ["a+b", "second"])
            #expect(entry.query["absent"] == nil)
            #expect(entry.header("authorization") == "Bearer abc.def.ghi")
            #expect(entry.header("x-trace") == "t-1")
            #expect(entry.bodyText == #"{"hello":"world"}"#)
            #expect(try entry.decodeBody([String: String].self) == ["hello": "world"])
            #expect(entry.status == 200)
            #expect(entry.fault == nil)
            #expect(entry.receivedAt == clock.now)
        }
    }

    @Test("entries can be filtered by emulator and by path (exact or prefix)")
    func filtering() async throws {
        try await withSandbox([ReferenceEmulator(), PingEmulator(id: "ping")]) { host, endpoints in
            let client = TestClient()
            _ = try await client.get(try endpoints.reference("/public/items?size=10"))
            _ = try await client.get(try endpoints.url("ping", "/ping"))
            _ = try await client.get(try endpoints.reference("/echo"))
            #expect(host.journal.entries(for: "ping").map(\.path) == ["/ping"])
            #expect(host.journal.entries(for: "reference").map(\.path) == ["/public/items", "/echo"])
            #expect(host.journal.entries(matching: "/echo").count == 1)
            #expect(host.journal.entries(matching: "/p*").map(\.path) == ["/public/items", "/ping"])
            #expect(host.journal.entries.map(\.sequence) == [1, 2, 3])
            host.journal.clear()
            #expect(host.journal.count == 0)
            #expect(host.journal.entries.isEmpty)
        }
    }

    @Test("waitForEntries returns once an asynchronous delivery arrives")
    func waitsForDelivery() async throws {
        try await withSandbox { host, endpoints in
            let url = try endpoints.reference("/events")
            let delivery = Task {
                try await TestClient().postJSON(url, ["events": [["id": "e1", "name": "opened"]]])
            }
            let entries = try await host.journal.waitForEntries(count: 1, emulatorID: "reference", timeout: .seconds(10))
            #expect(entries.map(\.path) == ["/events"])
            #expect(try await delivery.value.status == 200)
        }
    }

    @Test("waitForEntries returns at once when enough entries are there, and times out otherwise")
    func waitImmediateAndTimeout() async throws {
        let journal = RequestJournal()
        journal.record(Self.entry(emulatorID: "a"))
        let ready = try await journal.waitForEntries(count: 1, timeout: .seconds(10))
        #expect(ready.count == 1)
        await #expect(throws: SandboxError.journalTimeout(expected: 1, actual: 0)) {
            try await journal.waitForEntries(count: 1, emulatorID: "b", timeout: .milliseconds(20))
        }
    }

    @Test("waitForEntries is woken by record, counting only the requested emulator")
    func waitCountsPerEmulator() async throws {
        let journal = RequestJournal()
        let waiter = Task { try await journal.waitForEntries(count: 2, emulatorID: "b", timeout: .seconds(30)) }
        journal.record(Self.entry(emulatorID: "b"))
        journal.record(Self.entry(emulatorID: "a"))
        journal.record(Self.entry(emulatorID: "b"))
        let entries = try await waiter.value
        #expect(entries.map(\.emulatorID) == ["b", "b"])
        #expect(entries.map(\.sequence) == [1, 3])
    }

    @Test("a cancelled waiter throws CancellationError")
    func waitCancellation() async throws {
        let journal = RequestJournal()
        let waiter = Task { try await journal.waitForEntries(count: 1, timeout: .seconds(30)) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test("the journal keeps only the most recent entries up to its capacity")
    func bounded() {
        let journal = RequestJournal(capacity: 3)
        for index in 1...10 { journal.record(Self.entry(emulatorID: "e\(index)")) }
        #expect(journal.count == 3)
        #expect(journal.entries.map(\.emulatorID) == ["e8", "e9", "e10"])
        #expect(journal.entries.map(\.sequence) == [8, 9, 10])
    }

    @Test("redactedDescription hides credentials but keeps the rest")
    func redaction() {
        var entry = Self.entry(emulatorID: "reference")
        entry.headers = [
            HeaderField(name: "Authorization", value: "Bearer secret-token"),
            HeaderField(name: "Cookie", value: "session=1"),
            HeaderField(name: "Accept", value: "application/json"),
        ]
        let text = entry.redactedDescription
        #expect(!text.contains("secret-token"))
        #expect(!text.contains("session=1"))
        #expect(text.contains("Authorization: <redacted>"))
        #expect(text.contains("Accept: application/json"))
        #expect(text.contains("GET /items?size=1 -> 200"))
        #expect("\(entry)" == text)
    }

    @Test("entries round-trip through Codable")
    func codable() throws {
        var entry = Self.entry(emulatorID: "reference")
        entry.fault = .status(503, headers: ["Retry-After": "1"])
        let data = try JSONEncoder().encode(entry)
        #expect(try JSONDecoder().decode(JournalEntry.self, from: data) == entry)
    }

    static func entry(emulatorID: String) -> JournalEntry {
        JournalEntry(
            sequence: 0, emulatorID: emulatorID, method: "GET", path: "/items", rawQuery: "size=1",
            queryItems: [QueryItem(name: "size", value: "1")], headers: [], body: Data(),
            receivedAt: Date(timeIntervalSince1970: 0), status: 200, fault: nil
        )
    }
}

@Suite("Query string decoding", .bounded)
struct QueryStringTests {
    @Test("RFC 3986 rules: + is literal, %2B is plus, %20 is space, invalid escapes stay verbatim")
    func decoding() {
        #expect(
            QueryString.decode("a=1+2&b=1%2B2&c=x%20y&&d&=e&f=%ZZ&g=a=b")
                == [
                    QueryItem(name: "a", value: "1+2"), QueryItem(name: "b", value: "1+2"),
                    QueryItem(name: "c", value: "x y"), QueryItem(name: "d", value: ""),
                    QueryItem(name: "", value: "e"), QueryItem(name: "f", value: "%ZZ"),
                    QueryItem(name: "g", value: "a=b"),
                ]
        )
        #expect(QueryString.decode("").isEmpty)
        #expect(QueryString.percentDecode("%") == "%")
        #expect(QueryString.percentDecode("%e2%82%ac") == "€")
    }
}
