import Crypto
@_spi(EngageProvider) @testable import EngageCore
import Foundation
import EngageTestTraits
import Testing

@Suite("Sealing", .bounded)
struct SealingTests {
    let sealer: Sealer
    let context = Data("engage.kv\u{0}warply\u{0}tokens".utf8)
    let plaintext = Data(#"{"accessToken":"abc.def.ghi"}"#.utf8)

    init() throws {
        sealer = try Sealer(key: SymmetricKey(size: .bits256))
    }

    @Test func roundTrip() throws {
        let sealed = try sealer.seal(plaintext, context: context)
        #expect(sealed.count == plaintext.count + Sealer.overhead)
        #expect(sealed.first == Sealer.formatVersion)
        #expect(sealed.range(of: plaintext) == nil)
        #expect(try sealer.open(sealed, context: context) == plaintext)
    }

    @Test func emptyPlaintextRoundTrips() throws {
        let sealed = try sealer.seal(Data(), context: context)
        #expect(try sealer.open(sealed, context: context) == Data())
    }

    @Test func eachSealUsesAFreshNonce() throws {
        let first = try sealer.seal(plaintext, context: context)
        let second = try sealer.seal(plaintext, context: context)
        #expect(first != second)
        #expect(first[1..<13] != second[1..<13])
    }

    @Test(
        "A flipped bit anywhere is detected",
        arguments: [
            ("version", 0),
            ("nonce", 1), ("nonce", 12),
            ("ciphertext", 13), ("ciphertext", 20),
            ("tag", -16), ("tag", -1),
        ])
    func tamperingIsDetected(region: String, offset: Int) throws {
        var sealed = try sealer.seal(plaintext, context: context)
        let index = offset >= 0 ? offset : sealed.count + offset
        sealed[index] ^= 0x01
        expectEngageError(.crypto) { _ = try sealer.open(sealed, context: context) }
    }

    @Test func wrongContextIsRejected() throws {
        let sealed = try sealer.seal(plaintext, context: context)
        let other = Data("engage.kv\u{0}warply\u{0}other".utf8)
        expectEngageError(.crypto) { _ = try sealer.open(sealed, context: other) }
        expectEngageError(.crypto) { _ = try sealer.open(sealed, context: Data()) }
    }

    @Test func wrongKeyIsRejected() throws {
        let sealed = try sealer.seal(plaintext, context: context)
        let other = try Sealer(key: SymmetricKey(size: .bits256))
        expectEngageError(.crypto) { _ = try other.open(sealed, context: context) }
    }

    @Test("Truncated input is rejected", arguments: [0, 1, 13, Sealer.overhead - 1, -1])
    func truncatedInputIsRejected(length: Int) throws {
        let sealed = try sealer.seal(plaintext, context: context)
        let truncated = sealed.prefix(length >= 0 ? length : sealed.count + length)
        expectEngageError(.crypto) { _ = try sealer.open(Data(truncated), context: context) }
    }

    @Test func openAcceptsASliceWithNonZeroStartIndex() throws {
        let sealed = try sealer.seal(plaintext, context: context)
        let padded = Data([0xAA, 0xBB]) + sealed
        #expect(try sealer.open(padded.dropFirst(2), context: context) == plaintext)
    }

    @Test func keysOtherThan256BitsAreRefused() {
        expectEngageError(.crypto) { _ = try Sealer(key: SymmetricKey(size: .bits128)) }
        expectEngageError(.crypto) { _ = try StaticSecretStore(key: SymmetricKey(size: .bits192)) }
    }

    @Test func sealerFromSecretStoreUsesTheStoredKey() throws {
        let store = InMemorySecretStore()
        let first = try Sealer(store: store, keyName: "engage.storage")
        let second = try Sealer(store: store, keyName: "engage.storage")
        let sealed = try first.seal(plaintext, context: context)
        #expect(try second.open(sealed, context: context) == plaintext)
        let otherName = try Sealer(store: store, keyName: "other")
        expectEngageError(.crypto) { _ = try otherName.open(sealed, context: context) }
    }
}
