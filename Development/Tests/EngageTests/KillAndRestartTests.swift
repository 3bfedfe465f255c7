@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import ReferenceEmulator
import EngageTestTraits
import Testing

/// An app killed (SIGKILL: no handler runs, nothing is flushed) in the middle of its work, then launched
/// again on the same files: each launch is a child process (`engage-restart-child`) against emulators
/// that this test serves on 127.0.0.1 and holds at the right moment.
@Suite("Kill and restart", .serialized, .bounded)
struct KillAndRestartTests {
    /// A temporary folder removed at the end of the test (with the key folder beside it, `<folder>.keys`,
    /// where the SDK keeps its key on Linux).
    private func removeFolder(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.removeItem(atPath: folder.path + ".keys")
    }

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

    @Test(
        "killed while delivering analytics: after restart nothing is lost, and nothing delivered before the kill is sent again",
        .bounded(deadline: .seconds(120)))
    func killedDuringDelivery() async throws {
        let heldAtBackend = TestCounter()
        let release = TestGate()
        let emulator = ReferenceEmulator()
        let host = SandboxHost(
            emulators: [emulator],
            configuration: SandboxConfiguration(sleep: { _ in
                _ = heldAtBackend.increment()
                await release.wait()
            }))
        let baseURL = try #require(try await host.start().baseURL(for: emulator.id)).absoluteString
        let folder = try makeFolder("restart-queue")
        defer { removeFolder(folder) }

        // Launch 1 delivers its 10 events and ends normally.
        let first = try await ChildProcess.run(["track", folder.path, baseURL, "10"])
        #expect(first.contains("delivered 10") && first.contains("pending 0"), "\(first)")

        // Launch 2 queues 10 more; their batch reaches the backend, which holds it; the app is killed.
        host.faults.inject(FaultRule(.delay(.seconds(1)), emulatorID: emulator.id, method: "POST", path: "/events", trigger: .times(1)))
        let second = try ChildProcess(["track", folder.path, baseURL, "10"])
        #expect(await waitUntil { heldAtBackend.count == 1 }, "the batch reached the backend: \(second.lines)")
        #expect(await waitUntil { second.lines.contains("enqueued 10") })
        #expect(await second.kill() == .signalled(SIGKILL))
        // The backend now handles the batch: it stores the events, and its answer goes nowhere.
        release.open()
        #expect(await waitUntil { emulator.uniqueEventCount == 20 })

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

    @Test(
        "killed while syncing the directory: the next launch sweeps the half-downloaded folder and installs the directory",
        .bounded(deadline: .seconds(120)))
    func killedDuringSync() async throws {
        let heldAtBackend = TestCounter()
        let release = TestGate()
        let feed = try ExploreFeedEmulator.withGeneratedDirectories(mainnetRows: 500)
        let host = SandboxHost(
            emulators: [feed],
            configuration: SandboxConfiguration(sleep: { _ in
                _ = heldAtBackend.increment()
                await release.wait()
            }))
        let feedURL = try #require(try await host.start().baseURL(for: feed.id)).absoluteString
        let archive = try #require(try feed.manifest(for: .mainnet)).archive
        let folder = try makeFolder("restart-sync")
        defer { removeFolder(folder) }
        let network = folder.appendingPathComponent("directories/mainnet")
        func leftovers() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: network.path)) ?? [])
                .filter { $0.hasPrefix("incoming-") || $0.contains(".building-") }
        }

        // Launch 1 is killed while the archive download is held at the backend.
        host.faults.inject(
            FaultRule(.delay(.seconds(1)), emulatorID: feed.id, method: "GET", path: "/mainnet/\(archive)", trigger: .times(1)))
        let first = try ChildProcess(["sync", folder.path, feedURL])
        #expect(await waitUntil { heldAtBackend.count == 1 }, "the download started: \(first.lines)")
        #expect(await first.kill() == .signalled(SIGKILL))
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

    /// Fifty launches, each killed at a seeded point of a flush or of a token rotation, on one storage
    /// folder: every event a launch reported stored reaches the backend (at least once; the backend
    /// deduplicates by id), and no launch after the first login finds itself logged out. The backend
    /// accepts a refresh token once more within a minute of its use (rotation with a reuse interval,
    /// as Auth0 and Okta do): a kill after the server rotated but before the new pair was saved is
    /// survivable only that way, and documented so.
    @Test("50 seeded kills during flushes and token rotations: nothing lost, never logged out", .bounded(deadline: .seconds(300)))
    func seededKills() async throws {
        let emulator = ReferenceEmulator(configuration: .init(refreshTokenReuseInterval: .seconds(60)))
        let host = SandboxHost(emulators: [emulator])
        let baseURL = try #require(try await host.start().baseURL(for: emulator.id)).absoluteString
        let folder = try makeFolder("restart-soak")
        defer { removeFolder(folder) }
        let random = SeededRandomSource(seed: 2026)
        var stored: Set<String> = []
        var loggedIn = false
        var phases: [String: Int] = [:]
        for run in 0..<50 {
            // Where to kill: in the refresh or the flush of round 0 or 1, after 0 to 7 ms.
            let round = Int(random.nextFraction() * 2)
            let phase = random.nextFraction() < 0.5 ? "refreshing" : "flushing"
            let delay = Int(random.nextFraction() * 8)
            let child = try ChildProcess(["session", folder.path, baseURL, "r\(run)", "3"])
            let reached = await waitUntil {
                child.lines.filter { $0 == phase }.count > round || child.lines.contains { $0.hasPrefix("pending") }
            }
            #expect(reached, "run \(run) never reached \(phase) \(round): \(child.lines)")
            try await Task.sleep(for: .milliseconds(delay))
            // A launch that reached its end ("pending …") before the signal may have exited on its own.
            let termination = await child.kill()
            #expect(termination == .signalled(SIGKILL) || child.lines.contains { $0.hasPrefix("pending") }, "run \(run): \(termination)")
            let lines = child.lines
            phases[phase, default: 0] += 1
            if lines.contains("logged in") {
                #expect(!loggedIn, "run \(run) was logged out: \(lines.prefix(3))")
            }
            if lines.contains("logged in") || lines.contains("session kept") { loggedIn = true }
            stored.formUnion(lines.compactMap { $0.hasPrefix("enqueued ") ? String($0.dropFirst("enqueued ".count)) : nil })
        }
        // A last launch, not killed, delivers whatever is left.
        let last = try await ChildProcess.run(["session", folder.path, baseURL, "last", "0"])
        #expect(last.contains("session kept"), "\(last)")
        #expect(last.contains("pending 0"), "\(last)")
        let received = Set(emulator.receivedEvents.map(\.name))
        #expect(stored.subtracting(received).isEmpty, "lost: \(stored.subtracting(received).sorted().prefix(10))")
        #expect(stored.count >= 250, "each launch stored its first round at least: \(stored.count)")
        #expect(phases.count == 2)
        await host.stop()
    }
}
