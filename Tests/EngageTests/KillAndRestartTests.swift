import EngageExplore
import EngageSandbox
import EngageTesting
import ExploreEmulator
import Foundation
import ReferenceEmulator
import Testing

/// An app killed (SIGKILL: no handler runs, nothing is flushed) in the middle of its work, then launched
/// again on the same files: each launch is a child process (`engage-restart-child`) against emulators
/// that this test serves on 127.0.0.1 and holds at the right moment.
@Suite("Kill and restart", .serialized)
struct KillAndRestartTests {
    /// A temporary folder removed at the end of the test.
    private func makeFolder(_ label: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("engage-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The event ids of one `POST /events` body (`{"events":[{"id": …}, …]}`).
    private func eventIDs(_ entry: JournalEntry) throws -> Set<String> {
        struct Body: Decodable {
            struct Event: Decodable { var id: String }
            var events: [Event]
        }
        return Set(try JSONDecoder().decode(Body.self, from: entry.body).events.map(\.id))
    }

    @Test("killed while delivering analytics: after restart nothing is lost, and nothing delivered before the kill is sent again", .timeLimit(.minutes(2)))
    func killedDuringDelivery() async throws {
        let heldAtBackend = TestCounter()
        let release = TestGate()
        let emulator = ReferenceEmulator()
        let host = SandboxHost(emulators: [emulator], configuration: SandboxConfiguration(sleep: { _ in
            _ = heldAtBackend.increment()
            await release.wait()
        }))
        let baseURL = try #require(try await host.start().baseURL(for: emulator.id)).absoluteString
        let folder = try makeFolder("restart-queue")
        defer { try? FileManager.default.removeItem(at: folder) }

        // Launch 1 delivers its 10 events and ends normally.
        let first = try await ChildProcess.run(["track", folder.path, baseURL, "10"])
        #expect(first.contains("delivered 10") && first.contains("pending 0"), "\(first)")

        // Launch 2 queues 10 more; their batch reaches the backend, which holds it; the app is killed.
        host.faults.inject(FaultRule(.delay(.seconds(1)), emulatorID: emulator.id, method: "POST", path: "/events", trigger: .times(1)))
        let second = try ChildProcess(["track", folder.path, baseURL, "10"])
        #expect(await waitUntil(timeout: .seconds(60)) { heldAtBackend.count == 1 }, "the batch reached the backend: \(second.lines)")
        #expect(await waitUntil { second.lines.contains("enqueued 10") })
        await second.kill()
        // The backend now handles the batch: it stores the events, and its answer goes nowhere.
        release.open()
        #expect(await waitUntil(timeout: .seconds(30)) { emulator.uniqueEventCount == 20 })

        // Launch 3 finds the 10 events it never saw answered and delivers them again, once.
        let third = try await ChildProcess.run(["track", folder.path, baseURL, "0"])
        #expect(third.contains("delivered 10") && third.contains("pending 0"), "\(third)")

        let posts = host.journal.entries(for: emulator.id).filter { $0.method == "POST" && $0.path == "/events" }
        try #require(posts.count == 3, "one batch per launch: \(posts.count)")
        let (delivered, lost, resent) = (try eventIDs(posts[0]), try eventIDs(posts[1]), try eventIDs(posts[2]))
        #expect(delivered.count == 10 && lost.count == 10)
        #expect(delivered.isDisjoint(with: lost.union(resent)), "an event whose delivery succeeded is never sent again")
        #expect(resent == lost, "the batch whose answer was lost is sent again, whole (at least once)")
        #expect(emulator.uniqueEventCount == 20, "nothing lost")
        await host.stop()
    }

    @Test("killed while syncing the directory: the next launch sweeps the half-downloaded folder and installs the directory", .timeLimit(.minutes(2)))
    func killedDuringSync() async throws {
        let heldAtBackend = TestCounter()
        let release = TestGate()
        let feed = try ExploreFeedEmulator.withGeneratedDirectories(mainnetRows: 500)
        let host = SandboxHost(emulators: [feed], configuration: SandboxConfiguration(sleep: { _ in
            _ = heldAtBackend.increment()
            await release.wait()
        }))
        let feedURL = try #require(try await host.start().baseURL(for: feed.id)).absoluteString
        let archive = try #require(try feed.manifest(for: .mainnet)).archive
        let folder = try makeFolder("restart-sync")
        defer { try? FileManager.default.removeItem(at: folder) }
        let network = folder.appendingPathComponent("directories/mainnet")
        func leftovers() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: network.path)) ?? [])
                .filter { $0.hasPrefix("incoming-") || $0.contains(".building-") }
        }

        // Launch 1 is killed while the archive download is held at the backend.
        host.faults.inject(FaultRule(.delay(.seconds(1)), emulatorID: feed.id, method: "GET", path: "/mainnet/\(archive)", trigger: .times(1)))
        let first = try ChildProcess(["sync", folder.path, feedURL])
        #expect(await waitUntil(timeout: .seconds(60)) { heldAtBackend.count == 1 }, "the download started: \(first.lines)")
        await first.kill()
        release.open()
        #expect(!leftovers().isEmpty, "the killed sync left its download folder behind")

        // Launch 2 starts clean and installs the directory.
        let second = try await ChildProcess.run(["sync", folder.path, feedURL])
        #expect(second.contains { $0.hasPrefix("installed ") }, "\(second)")
        #expect(leftovers().isEmpty, "no orphan files: \(leftovers())")
        // Launch 3 finds it installed.
        let third = try await ChildProcess.run(["sync", folder.path, feedURL])
        #expect(third.contains { $0.hasPrefix("up-to-date ") }, "\(third)")
        await host.stop()
    }
}
