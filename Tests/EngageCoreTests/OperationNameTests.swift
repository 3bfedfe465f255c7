@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageTesting
import Foundation
import HTTPTypes
import Logging
import Testing

extension OperationName {
    fileprivate static let claimPerk: OperationName = "claim_perk"
}

@Suite("Operation names: declared once, carried by the call")
struct OperationNameTests {
    /// A context of provider `perks` whose requests go to `transport`, and its event bus.
    private func context(transport: InMemoryTransport) throws -> (ProviderContext, EventBus) {
        let clock = FakeClock()
        let database = try EngageDatabase(location: .inMemory, clock: clock)
        let secretStore = InMemorySecretStore()
        let sealer = try Sealer(store: secretStore, keyName: "operation-name-tests")
        let random = SeededRandomSource(seed: 1)
        let logger = Logger(label: "operation-name-tests")
        let events = EventBus()
        let context = ProviderContext(
            descriptor: ProviderDescriptor(id: "perks", displayName: "Perks", version: "1.0.0"),
            configuration: .preset(.testing, appID: "org.engagekit.operation-name-tests"), logger: logger, clock: clock, random: random,
            transport: transport, storage: try database.namespace("perks", sealer: sealer), database: database,
            secretStore: secretStore, sealer: sealer, events: events,
            analytics: DurableQueue(database: database, clock: clock, random: random, logger: logger)
        )
        return (context, events)
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
