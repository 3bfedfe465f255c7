@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import Foundation
import HTTPTypes
import Testing

@Suite("Retry-After: an HTTP date is read against the injected clock", .bounded)
struct RetryAfterClockTests {
    @Test("a 429 whose Retry-After is a date 2 minutes after the clock's now waits 2 minutes, whatever the device's time")
    func retryAfterDateUsesTheInjectedClock() async throws {
        // makeProviderContext's clock is a FakeClock at its fixed instant (2023-11-14T22:13:20Z).
        let now = FakeClock().now
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let later = formatter.string(from: now.addingTimeInterval(120))
        let transport = InMemoryTransport { _ in
            var head = HTTPResponse(status: .tooManyRequests)
            head.headerFields[HTTPField.Name("Retry-After")!] = later
            return HTTPResponseMessage(head: head)
        }
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        let context = try makeProviderContext("limits", database: database, transport: transport)
        let client = try context.makeAPIClient(baseURL: URL(string: "http://127.0.0.1:9/")!, retry: RetryPolicy.none)
        let error = await #expect(throws: EngageError.self) { _ = try await client.data(.post, "/events") }
        #expect(error?.retryAfter == .seconds(120))
    }
}
