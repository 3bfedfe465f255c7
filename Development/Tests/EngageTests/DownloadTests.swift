@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
@_spi(EngageProvider) @testable import EngageCore
import EngageTestTraits
import Testing

/// `APIClient.download`: bodies streamed to a file over a real socket, with progress, limits and
/// errors; and the in-memory path for transports that do not stream.
@Suite("Downloads to a file", .bounded)
struct DownloadTests {
    private func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("engage-download-\(UUID().uuidString)")
    }

    @Test("a large body streams to the file with growing progress, byte for byte the in-memory body")
    func streamsWithProgress() async throws {
        let sandbox = try await SandboxFixture()
        let client = APIClient(baseURL: sandbox.baseURL, transport: URLSessionTransport(), providerID: "reference", maxResponseBytes: 4096)
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let reports = Locked<[TransferProgress]>([])
        let (response, bytes) = try await client.download(
            .get, "/public/items", query: [("size", "300000")], to: file, options: RequestOptions(maxResponseBytes: 1 << 20)
        ) { progress in reports.withLock { $0.append(progress) } }
        let inMemory = try await client.data(
            .get, "/public/items", query: [("size", "300000")], options: RequestOptions(maxResponseBytes: 1 << 20))
        #expect(response.isSuccess && response.body.isEmpty)
        #expect(try Data(contentsOf: file) == inMemory)
        #expect(bytes == Int64(inMemory.count))
        let received = reports.withLock { $0.map(\.receivedBytes) }
        #expect(received.count > 1, "one report per chunk")
        #expect(received == received.sorted() && received.last == bytes)
        await sandbox.stop()
    }

    @Test("a body over the limit, and an error status, fail with clear errors and leave no file")
    func failuresLeaveNoFile() async throws {
        let sandbox = try await SandboxFixture()
        let client = APIClient(baseURL: sandbox.baseURL, transport: URLSessionTransport(), providerID: "reference")
        let file = temporaryFile()
        let tooLarge = await #expect(throws: EngageError.self) {
            try await client.download(
                .get, "/public/items", query: [("size", "200000")], to: file, options: RequestOptions(maxResponseBytes: 10_000))
        }
        #expect(tooLarge?.code == .responseTooLarge)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        sandbox.host.faults.inject(
            FaultRule(
                .status(503, body: Data(#"{"message":"feed offline"}"#.utf8)), emulatorID: "reference", method: "GET",
                path: "/public/items",
                trigger: .times(1)
            ))
        let unavailable = await #expect(throws: EngageError.self) {
            try await client.download(.get, "/public/items", to: file, options: RequestOptions(allowsRetry: false))
        }
        #expect(unavailable?.httpStatus == 503)
        #expect(unavailable?.message.contains("feed offline") == true)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        await sandbox.stop()
    }

    @Test("a transport that does not stream still fills the file and reports once")
    func inMemoryTransport() async throws {
        let body = Data((0..<10_000).map { UInt8($0 % 251) })
        let client = APIClient(
            baseURL: try #require(URL(string: "https://feed.example")), transport: InMemoryTransport { _ in .body(body) },
            providerID: "reference"
        )
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let reports = Locked<[TransferProgress]>([])
        let (_, bytes) = try await client.download(.get, "/archive.zip", to: file) { progress in reports.withLock { $0.append(progress) } }
        #expect(bytes == 10_000)
        #expect(try Data(contentsOf: file) == body)
        #expect(reports.withLock { $0 } == [TransferProgress(receivedBytes: 10_000, expectedBytes: 10_000)])
        #expect(reports.withLock { $0.first?.fractionCompleted } == 1)
    }
}
