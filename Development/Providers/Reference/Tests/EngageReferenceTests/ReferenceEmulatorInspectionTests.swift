@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import ReferenceEmulator
import EngageTestTraits
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Reference emulator: state view and reset", .bounded)
struct ReferenceEmulatorInspectionTests {
    @Test("a login and a stored event show in the state view, without the password or a token; reset forgets them")
    func inspectAndReset() async throws {
        let password = "pw-inspect-reference"
        let emulator = ReferenceEmulator(configuration: .init(password: password))
        let host = SandboxHost(emulators: [emulator])
        let baseURL = try #require(try await host.start().baseURL(for: "reference"))

        let login = try await Self.post(baseURL.appendingPathComponent("auth/token"), #"{"username":"maria","password":"\#(password)"}"#)
        #expect(login.status == 200)
        let events = try await Self.post(baseURL.appendingPathComponent("events"), #"{"events":[{"id":"evt-1","name":"opened"}]}"#)
        #expect(events.status == 200)

        let view = emulator.inspect()
        #expect(view.tables.first { $0.title == "Events" }?.rows == [["evt-1", "opened", ""]])
        #expect(view.tables.first { $0.title == "Sessions" }?.rows == [["maria", "1"]])
        #expect(view.tables.allSatisfy { table in table.rows.allSatisfy { $0.count == table.columns.count } })
        let tokens = try JSONDecoder().decode(TokenPair.self, from: Data(login.body.utf8))
        let cells = view.tables.flatMap { $0.rows.flatMap { $0 } }
        #expect(!cells.contains { $0.contains(password) || $0.contains(tokens.access_token) || $0.contains(tokens.refresh_token) })

        emulator.reset()
        let after = emulator.inspect()
        #expect(after.tables.first { $0.title == "Events" }?.rows.isEmpty == true)
        #expect(after.tables.first { $0.title == "Sessions" }?.rows.isEmpty == true)
        #expect(emulator.receivedEvents.isEmpty && emulator.loginCount == 0)
        await host.stop()
    }

    /// The token answer of `POST /auth/token`.
    private struct TokenPair: Decodable {
        var access_token: String
        var refresh_token: String
    }

    /// `POST`s `json` to `url` and returns the status and the body as text.
    private static func post(_ url: URL, _ json: String) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(json.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, String(decoding: data, as: UTF8.self))
    }
}
