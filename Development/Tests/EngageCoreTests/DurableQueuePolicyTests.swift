@_spi(EngageProvider) @testable import EngageCore
import Foundation
import Logging
import EngageTestTraits
import Testing

@Suite("DurableQueue: policy and throughput", .bounded)
struct DurableQueuePolicyTests {
    @Test func defaults() {
        let policy = DurableQueuePolicy()
        #expect(policy.maxPendingEvents == 10_000)
        #expect(policy.batchSize == 50)
        #expect(policy.flushInterval == .seconds(30))
        #expect(policy.baseRetryDelay == .seconds(2))
        #expect(policy.maxRetryDelay == .seconds(300))
        #expect(policy.maxStoredBytes == 16 * 1024 * 1024)
        #expect(policy.maxRetryAfter == .seconds(86_400))
        #expect(policy.maxEventAge == .seconds(30 * 86_400))
        #expect(policy.dropPolicy == .dropOldest)
        #expect(policy.validationIssues().isEmpty)
    }

    @Test func validationNamesEveryBadField() {
        let policy = DurableQueuePolicy(
            maxPendingEvents: 0, maxStoredBytes: 1024, batchSize: 5000, flushInterval: .zero, baseRetryDelay: .seconds(10),
            maxRetryDelay: .seconds(5), maxRetryAfter: .seconds(7 * 86_400), maxEventAge: .seconds(400 * 86_400)
        )
        let error = expectEngageError(.invalidConfiguration) { try policy.validate() }
        for field in ["maxPendingEvents", "maxStoredBytes", "batchSize", "flushInterval", "maxRetryDelay", "maxRetryAfter", "maxEventAge"] {
            #expect(error?.message.contains(field) == true, "\(field) not named")
        }
        #expect(!(error?.message.contains("baseRetryDelay must") ?? true))
        expectEngageError(.invalidConfiguration) { try DurableQueuePolicy(baseRetryDelay: .zero).validate() }
    }

    @Test func retryDelayDoublesWithJitterAndCap() {
        let policy = DurableQueuePolicy(baseRetryDelay: .seconds(2), maxRetryDelay: .seconds(20))
        #expect(policy.retryDelay(afterFailures: 1, fraction: 0) == .seconds(1))
        #expect(policy.retryDelay(afterFailures: 1, fraction: 1) == .seconds(2))
        #expect(policy.retryDelay(afterFailures: 2, fraction: 1) == .seconds(4))
        #expect(policy.retryDelay(afterFailures: 3, fraction: 0.5) == .seconds(6))
        #expect(policy.retryDelay(afterFailures: 4, fraction: 1) == .seconds(16))
        #expect(policy.retryDelay(afterFailures: 5, fraction: 1) == .seconds(20))
        #expect(policy.retryDelay(afterFailures: 1000, fraction: 0.999) <= .seconds(20))
        #expect(policy.retryDelay(afterFailures: 1000, fraction: 0) == .seconds(10))
    }

    @Test func codableUsesSecondsAndDefaults() throws {
        let json = Data(#"{"maxPendingEvents": 500, "flushInterval": 15, "baseRetryDelay": 0.5, "dropPolicy": "rejectNew"}"#.utf8)
        let policy = try JSONDecoder().decode(DurableQueuePolicy.self, from: json)
        #expect(policy.maxPendingEvents == 500)
        #expect(policy.flushInterval == .seconds(15))
        #expect(policy.baseRetryDelay == .milliseconds(500))
        #expect(policy.dropPolicy == .rejectNew)
        #expect(policy.batchSize == 50)
        let encoded = try JSONEncoder().encode(policy)
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""flushInterval":15"#))
        #expect(try JSONDecoder().decode(DurableQueuePolicy.self, from: encoded) == policy)
    }

    @Test func anInvalidPolicyFallsBackToDefaultsPerField() throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(maxPendingEvents: -1, batchSize: 7))
        #expect(queue.policy.maxPendingEvents == 10_000)
        #expect(queue.policy.batchSize == 7)
    }
}
