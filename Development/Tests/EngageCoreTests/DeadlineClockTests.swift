@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import Foundation
import HTTPTypes
import Testing

/// A call's deadline, the time an attempt has left and the durations a call reports are read from the
/// injected clock (its `uptime`), like the sleeps between attempts: with a fake clock, the fake time
/// decides, never the machine's.
@Suite("Deadlines: measured on the injected clock", .bounded)
struct DeadlineClockTests {
    /// A 503 asking for a retry after 2 s, sent after the transport held the call for `elapsed` on
    /// `clock`; a 200 for any attempt after the first. Records what each attempt had left.
    private static func transport(clock: FakeClock, elapsed: Duration, remaining: Locked<[Duration?]>) -> InMemoryTransport {
        InMemoryTransport { request in
            let attempt = remaining.withLock { seen in
                seen.append(request.options.remaining)
                return seen.count
            }
            guard attempt == 1 else { return .status(.ok) }
            clock.advance(by: elapsed)
            var head = HTTPResponse(status: .serviceUnavailable)
            head.headerFields[HTTPField.Name("Retry-After")!] = "2"
            return HTTPResponseMessage(head: head)
        }
    }

    private static func client(clock: FakeClock, transport: InMemoryTransport) throws -> APIClient {
        let database = try EngageDatabase(location: .inMemory, clock: clock)
        let context = try makeProviderContext("deadlines", database: database, transport: transport, clock: clock)
        return try context.makeAPIClient(baseURL: URL(string: "http://127.0.0.1:9/")!, retry: RetryPolicy(maxAttempts: 3))
    }

    /// Sends a GET with a 10 s deadline; when the client sleeps before a retry, the clock is moved on
    /// past the sleep, so a retry that should not happen shows as a second attempt rather than a hang.
    /// (InMemoryTransport does not enforce timeouts, so the timeout middleware races each attempt
    /// against a sleep of its own.)
    private static func send(_ client: APIClient, clock: FakeClock) async -> Result<Data, EngageError> {
        let call = Task { () -> Result<Data, EngageError> in
            do {
                return .success(try await client.data(.get, "/items", options: RequestOptions(deadline: .seconds(10))))
            } catch {
                return .failure(EngageError.wrapping(error))
            }
        }
        // The first sleep is the timeout racing the first attempt; a second one while the first has
        // ended is the wait before a retry.
        let wakeRetry = Task {
            guard await waitUntil({ clock.totalSleepCount >= 2 && clock.sleeperCount >= 1 }) else { return }
            clock.advance(by: .seconds(2))
        }
        let result = await call.value
        wakeRetry.cancel()
        return result
    }

    @Test("no retry whose wait would end past the deadline on the fake clock: 9 s spent, 2 s asked, 10 s allowed")
    func retryWithinTheFakeDeadline() async throws {
        let clock = FakeClock()
        let remaining = Locked<[Duration?]>([])
        let client = try Self.client(clock: clock, transport: Self.transport(clock: clock, elapsed: .seconds(9), remaining: remaining))
        let result = await Self.send(client, clock: clock)
        guard case .failure(let error) = result else {
            Issue.record("the call was retried past its deadline and succeeded")
            return
        }
        #expect(error.httpStatus == 503)
        #expect(remaining.value.count == 1, "one attempt only")
    }

    @Test("a retry inside the deadline is made, and each attempt is told what the call has left on the fake clock")
    func remainingOnTheFakeClock() async throws {
        let clock = FakeClock()
        let remaining = Locked<[Duration?]>([])
        let client = try Self.client(clock: clock, transport: Self.transport(clock: clock, elapsed: .seconds(3), remaining: remaining))
        let result = await Self.send(client, clock: clock)
        #expect((try? result.get()) != nil)
        // 10 s at the first attempt; 3 s in the transport and the 2 s wait later, 5 s.
        #expect(remaining.value == [.seconds(10), .seconds(5)])
    }

    @Test("an operation's reported duration is the fake time it took")
    func operationDurationOnTheFakeClock() async throws {
        let clock = FakeClock()
        let database = try EngageDatabase(location: .inMemory, clock: clock)
        let events = EventBus()
        let context = try makeProviderContext("deadlines", database: database, events: events, clock: clock)
        let durations = Locked<[Duration]>([])
        let subscription = events.subscribe(to: OperationEvent.self) { event in durations.withLock { $0.append(event.duration) } }
        try await context.perform(SlowOperation()) { clock.advance(by: .seconds(42)) }
        #expect(await waitUntil { !durations.value.isEmpty })
        #expect(durations.value == [.seconds(42)])
        _ = subscription
    }

    private struct SlowOperation: ProviderOperation {
        var name: OperationName { OperationName(rawValue: "slow") }
    }
}
