@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

/// Only an answer that judges an event may drop it: a transport failure, a server that is down, a rate
/// limit or a refused credential says nothing about the event, however often it happens.
@Suite("DurableQueue: nothing lost to transient failures", .bounded)
struct DurableQueueNothingLostTests {
    @Test("offline for a day: transient failures never drop an event, and order holds when the network returns")
    func transientFailuresNeverDrop() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let drops = DropRecorder()
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(batchSize: 2), clock: clock, drops: drops)
        let online = Locked(false)
        let failures: [EngageError] = [
            retryableFailure, EngageError(.timeout, "Timed out.", isRetryable: true), EngageError.http(status: 503),
            EngageError.http(status: 429), EngageError.http(status: 500),
        ]
        let deliverer = RecordingDeliverer { call, _ in
            if !online.value { throw failures[call % failures.count] }
        }
        try await queue.register(destination: "crobox", deliverer: deliverer)
        try await queue.enqueue(contentsOf: (1...5).map { payload("e\($0)") }, destination: "crobox")
        for _ in 0..<48 {
            await queue.flush()
            clock.advance(by: 1_800)
        }
        #expect(deliverer.callCount >= 20)
        #expect(drops.all.isEmpty)
        #expect(try await queue.pendingCount() == 5)

        online.withLock { $0 = true }
        clock.advance(by: 3_600)
        let report = await queue.flush()
        #expect(report.delivered == 5)
        #expect(report.dropped == 0)
        let delivered = deliverer.payloads.suffix(3).flatMap { $0 }
        #expect(delivered == ["e1", "e2", "e3", "e4", "e5"])
    }

    @Test("a refused credential (401, 403) keeps the events for after the next login")
    func refusedCredentialsKeepEvents() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let drops = DropRecorder()
        let queue = makeQueue(database: database, clock: clock, drops: drops)
        let deliverer = RecordingDeliverer { call, _ in
            if call == 0 { throw EngageError.http(status: 401) }
            if call == 1 { throw EngageError.http(status: 403) }
            if call == 2 { throw EngageError(.sessionExpired, "The session ended.") }
        }
        try await queue.register(destination: "crobox", deliverer: deliverer)
        try await queue.enqueue(payload("a"), destination: "crobox")
        for _ in 0..<4 {
            await queue.flush()
            clock.advance(by: 600)
        }
        #expect(drops.all.isEmpty)
        #expect(deliverer.payloads == [["a"], ["a"], ["a"], ["a"]])
        #expect(try await queue.pendingCount() == 0)
    }

    @Test("a rejected batch is still dropped and reported")
    func rejectionStillDrops() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let drops = DropRecorder()
        let queue = makeQueue(database: database, drops: drops)
        try await queue.register(destination: "crobox", deliverer: RecordingDeliverer { _, _ in throw EngageError.http(status: 422) })
        try await queue.enqueue(payload("bad"), destination: "crobox")
        #expect(await queue.flush().dropped == 1)
        #expect(drops.all.map(\.reason) == [.rejected])
    }

    @Test("503 Retry-After: 3600: no request to that destination before the time, across a relaunch")
    func retryAfterIsHonouredAcrossARelaunch() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = FakeClock()
        let transport = InMemoryTransport()
        let down = Locked(true)
        transport.route(.post, "/events") { _ in
            let status: HTTPResponse.Status = down.value ? .serviceUnavailable : .noContent
            return HTTPResponseMessage.status(status, headers: down.value ? [.retryAfter: "3600"] : [:])
        }
        let client = APIClient(baseURL: URL(string: "https://events.example")!, transport: transport)
        struct Deliverer: QueueDelivering {
            let client: APIClient
            func deliver(_ batch: [QueuedEvent]) async throws {
                _ = try await client.data(.post, "/events", body: .data(batch.map(\.payload).reduce(Data(), +), contentType: "text/plain"))
            }
        }
        do {
            let database = try EngageDatabase(location: .directory(directory.path))
            let queue = makeQueue(database: database, clock: clock)
            try await queue.register(destination: "crobox", deliverer: Deliverer(client: client))
            try await queue.enqueue(payload("a"), destination: "crobox")
            await queue.flush()
            #expect(transport.requests(to: "/events").count == 1)
            for _ in 0..<5 {
                clock.advance(by: 600)
                await queue.flush()
            }
            #expect(transport.requests(to: "/events").count == 1)
            try database.close()
        }
        // The app is relaunched ten minutes before the server's time.
        let database = try EngageDatabase(location: .directory(directory.path))
        let queue = makeQueue(database: database, clock: clock)
        try await queue.register(destination: "crobox", deliverer: Deliverer(client: client))
        await queue.flush()
        #expect(transport.requests(to: "/events").count == 1)
        down.withLock { $0 = false }
        clock.advance(by: 600)
        #expect(await queue.flush().delivered == 1)
        #expect(transport.requests(to: "/events").count == 2)
    }
}
