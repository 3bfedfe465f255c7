import Crypto
import CryptoExtras
@_spi(EngageProvider) import EngageCore
import Foundation

/// WinZip's AES encryption of a zip entry (the "AE-1"/"AE-2" format that zip4j writes for the Dash
/// wallet's directory archives), built on swift-crypto: the keys come from PBKDF2-HMAC-SHA1 (1 000
/// rounds) over the password and the entry's salt; the data is AES in counter mode with a
/// little-endian counter that starts at 1; the last 10 bytes of the entry are the first 10 bytes of an
/// HMAC-SHA1 of the encrypted data. An encrypted entry's data is `salt ‖ verifier (2 bytes) ‖
/// ciphertext ‖ authentication code (10 bytes)`.
package enum WinZipAES {
    /// The key size, stored in the entry's `0x9901` extra field.
    package enum Strength: UInt8, Sendable, CaseIterable {
        /// AES-128, an 8-byte salt.
        case aes128 = 1
        /// AES-192, a 12-byte salt.
        case aes192 = 2
        /// AES-256, a 16-byte salt (what zip4j writes by default).
        case aes256 = 3

        /// The AES key's length in bytes.
        package var keyBytes: Int { 8 + 8 * Int(rawValue) }
        /// The salt's length in bytes.
        package var saltBytes: Int { 4 + 4 * Int(rawValue) }
    }

    /// The bytes after the salt that tell a right password from a wrong one.
    package static let verifierBytes = 2
    /// The bytes of the authentication code at the end of the entry.
    package static let authenticationBytes = 10

    /// The keys derived from a password and a salt.
    package struct Keys: Sendable {
        /// The AES key.
        package var encryption: SymmetricKey
        /// The HMAC-SHA1 key of the authentication code.
        package var authentication: SymmetricKey
        /// The two bytes stored after the salt.
        package var verifier: [UInt8]
    }

    /// The keys for `password` (UTF-8) and `salt`.
    package static func keys(password: String, salt: some DataProtocol, strength: Strength) throws -> Keys {
        let keyBytes = strength.keyBytes
        let derived = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8), salt: salt, using: .insecureSHA1, outputByteCount: 2 * keyBytes + verifierBytes,
            unsafeUncheckedRounds: 1000
        ).withUnsafeBytes { Array($0) }
        return Keys(
            encryption: SymmetricKey(data: derived[0..<keyBytes]),
            authentication: SymmetricKey(data: derived[keyBytes..<(2 * keyBytes)]),
            verifier: Array(derived[(2 * keyBytes)...])
        )
    }

    /// AES in WinZip's counter mode, applied to consecutive pieces of an entry's data (encrypting and
    /// decrypting are the same operation).
    package struct Cipher: Sendable {
        private let key: SymmetricKey
        /// The number of the next keystream block (the first is 1).
        private var counter: UInt64 = 1
        private var keystream = [UInt8](repeating: 0, count: 16)
        /// How much of `keystream` is used; 16 means a new block is due.
        private var used = 16

        /// A cipher at the start of an entry's data.
        package init(key: SymmetricKey) {
            self.key = key
        }

        /// XORs the next `bytes.count` bytes of keystream into `bytes`.
        package mutating func apply(to bytes: inout [UInt8]) throws {
            for index in bytes.indices {
                if used == 16 {
                    try nextBlock()
                }
                bytes[index] ^= keystream[used]
                used += 1
            }
        }

        private mutating func nextBlock() throws {
            var value = counter
            for index in 0..<16 {
                keystream[index] = index < 8 ? UInt8(truncatingIfNeeded: value) : 0
                if index < 8 { value >>= 8 }
            }
            try AES.permute(&keystream, key: key)
            counter &+= 1
            used = 0
        }
    }

    /// The authentication code of `ciphertext`'s HMAC so far, truncated as the format stores it.
    package static func authenticationCode(_ hmac: HMAC<Insecure.SHA1>) -> [UInt8] {
        Array(Array(hmac.finalize()).prefix(authenticationBytes))
    }
}
