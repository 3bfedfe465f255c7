@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

/// The operations of a test provider, declared once.
private enum PerksOperation: String, ProviderOperation {
    case claim = "claim_perk"
    case list = "list_perks"
    case refreshToken = "perks_refresh_token"

    var isRepeatable: Bool { self == .list }
}

@Suite("Operations: declared once, carried by the call", .bounded)
struct OperationNameTests {
    /// A context of provider `perks` whose requests go to `transport`, and its event bus.
    private func context(transport: InMemoryTransport) throws -> (ProviderContext, EventBus) {
        let events = EventBus()
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        return (try makeProviderContext("perks", database: database, transport: transport, events: events), events)
    }

    @Test("a request sent inside perform carries the operation; one that names itself keeps its own")
    func requestsInheritTheOperation() async throws {
        let transport = InMemoryTransport { _ in .json(["ok": true]) }
        let (context, events) = try context(transport: transport)
        let client = try context.makeAPIClient(baseURL: URL(string: "http://127.0.0.1:9/")!)
        let names = Locked<[String]>([])
        let subscription = events.subscribe(to: OperationEvent.self) { event in names.withLock { $0.append(event.operation) } }
        defer { subscription.cancel() }

        try await context.perform(PerksOperation.claim) {
            _ = try await client.data(.post, "/perks/1/claim")
            _ = try await client.data(.post, "/token", options: RequestOptions(operation: PerksOperation.refreshToken))
        }
        _ = try await client.data(.get, "/outside")

        #expect(transport.requests.map(\.options.operationName?.rawValue) == ["claim_perk", "perks_refresh_token", nil])
        #expect(transport.requests.map { $0.options.operation as? PerksOperation } == [.claim, .refreshToken, nil])
        #expect(await waitUntil { names.value == ["claim_perk"] })
    }

    @Test("a repeatable operation's POSTs may be resent; a request naming a non-repeatable operation inside it may not")
    func resendSafetyComesFromTheOperation() async throws {
        let transport = InMemoryTransport { _ in .json(["ok": true]) }
        let (context, _) = try context(transport: transport)
        let client = try context.makeAPIClient(baseURL: URL(string: "http://127.0.0.1:9/")!)

        try await context.perform(PerksOperation.list) {
            _ = try await client.data(.post, "/perks/search")
            _ = try await client.data(.post, "/token", options: RequestOptions(operation: PerksOperation.refreshToken))
        }
        try await context.perform(PerksOperation.claim) {
            _ = try await client.data(.post, "/perks/1/claim")
            // A request may still say it is safe to repeat (the server deduplicates it).
            _ = try await client.data(.post, "/perks/1/claim", options: RequestOptions(isRepeatable: true))
        }
        #expect(transport.requests.map(\.isSafeToRepeat) == [true, false, false, true])
    }
}
