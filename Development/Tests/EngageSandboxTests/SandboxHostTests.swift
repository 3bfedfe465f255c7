@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import ReferenceEmulator
import EngageTestTraits
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An emulator with one route, to serve several emulators side by side.
struct PingEmulator: Emulator {
    let id: String

    func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.get("ping") { _, _ in try SandboxResponse.json(["pong": environment.emulatorID]) }
    }
}

@Suite("Sandbox host", .bounded)
struct SandboxHostTests {
    @Test("start binds an ephemeral port and reports every emulator's base URL in order")
    func startReportsEndpoints() async throws {
        let host = SandboxHost(emulators: [ReferenceEmulator(), PingEmulator(id: "ping")])
        #expect(host.endpoints == nil)
        let endpoints = try await host.start()
        #expect(endpoints.port > 0)
        #expect(host.endpoints == endpoints)
        #expect(endpoints.emulators.map(\.id) == ["reference", "ping"])
        #expect(endpoints.baseURL(for: "reference") == URL(string: "http://127.0.0.1:\(endpoints.port)/reference"))
        #expect(endpoints.baseURL(for: "ping") == URL(string: "http://127.0.0.1:\(endpoints.port)/ping"))
        #expect(endpoints.baseURL(for: "missing") == nil)

        let client = TestClient()
        let reply = try await client.get(try endpoints.url("ping", "/ping"))
        #expect(reply.status == 200)
        #expect(try reply.json([String: String].self) == ["pong": "ping"])
        await host.stop()
    }

    @Test("endpoints reached at another host keep the port and the emulators, and bracket an IPv6 address")
    func reachedAtAnotherHost() async throws {
        let host = SandboxHost(emulators: [PingEmulator(id: "alpha"), PingEmulator(id: "beta")])
        let endpoints = try await host.start()
        await host.stop()
        let phone = endpoints.reached(at: "my-mac.local")
        #expect(phone.port == endpoints.port && phone.emulators.map(\.id) == ["alpha", "beta"])
        #expect(phone.baseURL(for: "beta")?.absoluteString == "http://my-mac.local:\(endpoints.port)/beta")
        #expect(endpoints.reached(at: "fe80::1").rootURL?.absoluteString == "http://[fe80::1]:\(endpoints.port)")
    }

    @Test("stop closes the listener, is idempotent, and a stopped host cannot start again")
    func stopIsFinal() async throws {
        let host = SandboxHost(emulators: [ReferenceEmulator()])
        let endpoints = try await host.start()
        let url = try endpoints.reference("/public/items?size=100")
        #expect(try await TestClient().get(url).status == 200)

        await host.stop()
        await host.stop()
        #expect(host.endpoints == nil)
        await #expect(throws: (any Error).self) { try await TestClient().get(url) }
        await #expect(throws: SandboxError.alreadyStarted) { try await host.start() }
    }

    @Test("run serves until its task is cancelled, then shuts down")
    func runUntilCancelled() async throws {
        let host = SandboxHost(emulators: [ReferenceEmulator()])
        let (started, startedContinuation) = AsyncStream.makeStream(of: SandboxEndpoints.self)
        let serving = Task {
            try await host.run(handlingSignals: false) { endpoints in startedContinuation.yield(endpoints) }
        }
        var iterator = started.makeAsyncIterator()
        let endpoints = try #require(await iterator.next())
        let url = try endpoints.reference("/public/items?size=50")
        #expect(try await TestClient().get(url).status == 200)

        serving.cancel()
        try await serving.value
        #expect(host.endpoints == nil)
        await #expect(throws: (any Error).self) { try await TestClient().get(url) }
    }

    @Test("emulator environments derive deterministic generators per emulator and stream")
    func environments() {
        let host = SandboxHost(emulators: [], configuration: SandboxConfiguration(seed: 9))
        var first = host.environment(for: "a").makeGenerator(stream: "users")
        var same = SandboxHost(emulators: [], configuration: SandboxConfiguration(seed: 9))
            .environment(for: "a").makeGenerator(stream: "users")
        var otherEmulator = host.environment(for: "b").makeGenerator(stream: "users")
        let value = first.next()
        #expect(same.next() == value)
        #expect(otherEmulator.next() != value)
        #expect(host.environment(for: "a").emulatorID == "a")
    }

    @Test("a second start while running is rejected")
    func secondStartRejected() async throws {
        try await withSandbox { host, _ in
            await #expect(throws: SandboxError.alreadyStarted) { try await host.start() }
        }
    }

    @Test("duplicate emulator ids are rejected by start")
    func duplicateIDs() async throws {
        let host = SandboxHost(emulators: [ReferenceEmulator(), PingEmulator(id: "reference")])
        await #expect(throws: SandboxError.duplicateEmulatorID("reference")) { try await host.start() }
        #expect(host.endpoints == nil)
    }

    @Test("emulator ids must be lowercase path segments", arguments: ["", "Reference", "a/b", "..", "sp ace"])
    func invalidIDs(id: String) async throws {
        let host = SandboxHost(emulators: [PingEmulator(id: id)])
        await #expect(throws: SandboxError.invalidEmulatorID(id)) { try await host.start() }
    }

    @Test("a port that is already taken makes start fail instead of hanging")
    func portInUse() async throws {
        try await withSandbox { _, endpoints in
            let second = SandboxHost(
                emulators: [ReferenceEmulator()], configuration: SandboxConfiguration(port: endpoints.port)
            )
            await #expect(throws: SandboxError.self) { try await second.start() }
            await second.stop()
        }
    }

    @Test("paths outside every emulator prefix are 404 and not journaled")
    func unknownPrefix() async throws {
        try await withSandbox { host, endpoints in
            let root = try #require(endpoints.rootURL)
            let reply = try await TestClient().get(root.appendingPathComponent("nobody/here"))
            #expect(reply.status == 404)
            let inside = try await TestClient().get(try endpoints.reference("/no-such-route"))
            #expect(inside.status == 404)
            #expect(host.journal.entries.map(\.path) == ["/no-such-route"])
            #expect(host.journal.entries.first?.status == 404)
        }
    }

    @Test("a body larger than the limit is answered 413 and journaled; one at the limit is accepted")
    func oversizedBody() async throws {
        try await withSandbox(configuration: SandboxConfiguration(maxBodySize: 1024)) { host, endpoints in
            let client = TestClient()
            let url = try endpoints.reference("/echo")
            let tooLarge = try await client.send("POST", url, body: Data(repeating: 0x61, count: 1025))
            #expect(tooLarge.status == 413)
            let atLimit = try await client.send("POST", url, body: Data(repeating: 0x61, count: 1024))
            #expect(atLimit.status == 200)
            #expect(host.journal.entries.map(\.status) == [413, 200])
            #expect(host.journal.entries.last?.body.count == 1024)
        }
    }

    @Test("the default body limit is 2 MiB")
    func defaultLimit() {
        #expect(SandboxConfiguration().maxBodySize == 2 * 1024 * 1024)
    }

    @Test("a streamed (chunked) body over the limit is answered 413 too")
    func oversizedStreamedBody() async throws {
        try await withSandbox(configuration: SandboxConfiguration(maxBodySize: 1024)) { host, endpoints in
            var request = URLRequest(url: try endpoints.reference("/echo"))
            request.httpMethod = "POST"
            request.httpBodyStream = InputStream(data: Data(repeating: 0x62, count: 4096))
            let client = TestClient()
            let (_, response) = try await client.session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 413)
            #expect(host.journal.entries.map(\.status) == [413])
            // No Content-Length to reject up front: the limit applied while reading the stream.
            #expect(host.journal.entries.first?.header("Content-Length") == nil)
        }
    }
}
