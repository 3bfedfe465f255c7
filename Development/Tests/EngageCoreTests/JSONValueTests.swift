@_spi(EngageProvider) @testable import EngageCore
import Foundation
import EngageTestTraits
import Testing

@Suite("JSONValue", .bounded)
struct JSONValueTests {
    @Test("integers survive exactly, beyond 2^53")
    func exactIntegers() throws {
        let text = #"{"big":9007199254740993,"max":9223372036854775807,"min":-9223372036854775808,"small":3}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value["big"] == .integer(9_007_199_254_740_993))
        #expect(value["max"] == .integer(Int64.max))
        #expect(value["min"] == .integer(Int64.min))
        #expect(value["small"] == 3)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == text)
        #expect(value["big"]?.int64Value == 9_007_199_254_740_993)
    }

    @Test("other numbers stay doubles; accessors bridge the two")
    func otherNumbers() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"[1.5, 1e300, 99999999999999999999, true, "7"]"#.utf8))
        #expect(value == [1.5, 1e300, .number(1e20), true, "7"])
        #expect(JSONValue.integer(7) == .number(7))
        #expect(Set<JSONValue>([.integer(7), .number(7)]).count == 1)
        #expect(JSONValue.integer(9_007_199_254_740_993) != .number(9_007_199_254_740_992))
        #expect(JSONValue.integer(9_007_199_254_740_992) == .number(9_007_199_254_740_992))
        #expect(JSONValue.number(2).int64Value == 2)
        #expect(JSONValue.integer(2).doubleValue == 2)
        #expect(JSONValue.string("2").int64Value == nil)
        struct Settings: Decodable { var timeout: Double; var count: Int64 }
        let settings = try JSONValue.object(["timeout": 12, "count": .integer(9_007_199_254_740_993)]).decode(Settings.self)
        #expect(settings.timeout == 12)
        #expect(settings.count == 9_007_199_254_740_993)
    }
}

@Suite("BootstrapOnce", .bounded)
struct BootstrapOnceTests {
    @Test("reserve, fulfil and abandon: one winner, the loser fails at once")
    func reservation() throws {
        let once = BootstrapOnce<Int>(name: "Test.shared")
        try once.reserve()
        #expect(try throwsCode(.alreadyConfigured) { try once.reserve() })
        #expect(try throwsCode(.notConfigured) { _ = try once.get() })
        #expect(once.valueIfBootstrapped == nil)
        once.abandon()
        try once.reserve()
        once.fulfil(7)
        #expect(try once.get() == 7)
        #expect(try throwsCode(.alreadyConfigured) { try once.bootstrap(8) })
        once.abandon()  // nothing to abandon: the value stays
        #expect(try once.get() == 7)
    }

    @Test("concurrent reservations have exactly one winner")
    func concurrentReservations() async {
        let once = BootstrapOnce<Int>(name: "Test.shared")
        let winners = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<64 { group.addTask { (try? once.reserve()) != nil } }
            var count = 0
            for await won in group where won { count += 1 }
            return count
        }
        #expect(winners == 1)
    }
}
