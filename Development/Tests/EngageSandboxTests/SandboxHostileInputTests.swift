@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

/// The sandbox's public `Codable` values (fault rules and journal entries travel as JSON between a
/// sandbox tool and its scripts): hostile JSON decodes to a value or an error, never a trap.
@Suite("Hostile input: sandbox Codable values", .bounded)
struct SandboxHostileInputTests {
    @Test("fault rules, triggers, rule ids and journal entries decode hostile JSON to a value or an error")
    func sandboxValues() throws {
        let rules = [
            FaultRule(
                .status(503, body: Data("{}".utf8), headers: ["Retry-After": "1"]), emulatorID: "warply", method: "POST", path: "/x/*",
                trigger: .times(2)),
            FaultRule(.delay(.milliseconds(250)), trigger: .probability(0.25)),
            FaultRule(.dropConnectionAfterHandling, path: "/events", trigger: .always),
        ]
        for (index, rule) in rules.enumerated() {
            #expect(try HostileJSON.problems(decoding: rule, seed: UInt64(200 + index)).isEmpty)
        }
        #expect(try HostileJSON.problems(decoding: Fault.truncatedBody, seed: 210).isEmpty)
        #expect(try HostileJSON.problems(decoding: FaultTrigger.times(3), seed: 211).isEmpty)
        let id = try JSONDecoder().decode(FaultRuleID.self, from: Data(#"{"rawValue": 7}"#.utf8))
        #expect(try HostileJSON.problems(decoding: id, seed: 212).isEmpty)
        let entry = JournalEntry(
            sequence: 4, emulatorID: "reference", method: "POST", path: "/events", rawQuery: "a=1&b=%20",
            queryItems: [QueryItem(name: "a", value: "1"), QueryItem(name: "b", value: " ")],
            headers: [HeaderField(name: "Content-Type", value: "application/json")], body: Data(#"{"events":[]}"#.utf8),
            receivedAt: Date(timeIntervalSince1970: 1_700_000_000), status: 200, fault: .delay(.seconds(1))
        )
        #expect(try HostileJSON.problems(decoding: entry, seed: 213).isEmpty)
        #expect(try HostileJSON.problems(decoding: QueryItem(name: "q", value: "x"), seed: 214).isEmpty)
        #expect(try HostileJSON.problems(decoding: HeaderField(name: "Accept", value: "*/*"), seed: 215).isEmpty)
    }
}
