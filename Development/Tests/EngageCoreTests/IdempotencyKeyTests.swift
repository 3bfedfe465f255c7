@testable import EngageCore
import Foundation
import EngageTestTraits
import Testing

@Suite("Idempotency keys", .bounded)
struct IdempotencyKeyTests {
    @Test("a key is a version 4 UUID written as UUID.uuidString writes it, and 10 000 keys are distinct")
    func versionFourUUIDs() throws {
        let keys = IdempotencyKey.make(count: 10_000) + [IdempotencyKey.make()]
        for key in keys {
            let uuid = try #require(UUID(uuidString: key), "\(key)")
            #expect(uuid.uuidString == key)
            let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4, "version 4: \(key)")
            #expect(bytes[8] >> 6 == 0b10, "RFC 4122 variant: \(key)")
        }
        #expect(Set(keys).count == keys.count)
    }
}
