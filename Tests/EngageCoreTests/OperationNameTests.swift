@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageTesting
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

extension OperationName {
    fileprivate static let claimPerk: OperationName = "claim_perk"
}

@Suite("Operation names: declared once, carried by the call", .bounded)
struct OperationNameTests {
    /// A context of provider `perks` whose requests go to `transport`, and its event bus.
    private func context(transport: InMemoryTransport) throws -> (ProviderContext, EventBus) {
        let events = EventBus()
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        return (try makeProviderContext("perks", database: database, transport: transport, events: events), events)
    }

    @Test("a request sent inside perform carries the operation's name; one that names itself keeps its own")
    func requestsInheritTheOperation() async throws {
        let transport = InMemoryTransport { _ in .json(["ok": true]) }
        let (context, events) = try context(transport: transport)
        let client = try context.makeAPIClient(baseURL: URL(string: "http://127.0.0.1:9/")!)
        let names = Locked<[String]>([])
        let subscription = events.subscribe(to: OperationEvent.self) { event in names.withLock { $0.append(event.operation) } }
        defer { subscription.cancel() }

        try await context.perform(.claimPerk) {
            _ = try await client.data(.post, "/perks/1/claim")
            _ = try await client.data(.post, "/token", options: RequestOptions(operationName: "perks_refresh_token"))
        }
        _ = try await client.data(.get, "/outside")

        #expect(transport.requests.map(\.options.operationName) == ["claim_perk", "perks_refresh_token", nil])
        #expect(await waitUntil { names.value == ["claim_perk"] })
    }
}
