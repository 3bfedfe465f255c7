import Crypto
import Foundation

/// Seals and opens small secrets with AES-256-GCM.
///
/// A sealed value is `version (1 byte) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`. The `context` is
/// authenticated but not stored: open a value with the same context it was sealed with (for stored
/// values, the namespace and key), so a sealed value copied elsewhere does not open.
///
/// ```swift
/// let sealer = try Sealer(key: secretStore.key(named: "engage.storage"))
/// let sealed = try sealer.seal(Data("secret".utf8), context: Data("warply/tokens".utf8))
/// let plain = try sealer.open(sealed, context: Data("warply/tokens".utf8))
/// ```
@_spi(EngageProvider) public struct Sealer: Sendable {
    /// The format version written as the first byte of every sealed value.
    public static let formatVersion: UInt8 = 1
    /// Bytes a sealed value adds to its plaintext: version, nonce and tag.
    public static let overhead = 1 + 12 + 16

    private let key: SymmetricKey

    /// A sealer using `key`, which must be 256 bits long.
    ///
    /// - Throws: `EngageError(.crypto)` for a key of another size.
    public init(key: SymmetricKey) throws {
        guard key.bitCount == 256 else {
            throw EngageError(.crypto, "A sealing key must be 256 bits long, not \(key.bitCount).")
        }
        self.key = key
    }

    /// A sealer using the key `keyName` from `store` (created on first use).
    public init(store: any SecretStore, keyName: String) throws {
        try self.init(key: store.key(named: keyName))
    }

    /// Encrypts and authenticates `plaintext`, binding it to `context`.
    ///
    /// - Throws: `EngageError(.crypto)` if encryption fails.
    public func seal(_ plaintext: Data, context: Data) throws -> Data {
        do {
            let box = try AES.GCM.seal(plaintext, using: key, authenticating: context)
            guard let combined = box.combined else {
                throw EngageError(.crypto, "AES-GCM produced no combined representation.")
            }
            var sealed = Data(capacity: 1 + combined.count)
            sealed.append(Self.formatVersion)
            sealed.append(combined)
            return sealed
        } catch let error as EngageError {
            throw error
        } catch {
            throw EngageError(.crypto, "A value could not be sealed.", underlyingError: error)
        }
    }

    /// Authenticates and decrypts a value made by `seal(_:context:)` with the same key and context.
    ///
    /// - Throws: `EngageError(.crypto)` if the value is truncated, of an unknown version, was tampered
    ///   with, or was sealed with another key or context.
    public func open(_ sealed: Data, context: Data) throws -> Data {
        guard sealed.count >= Self.overhead else {
            throw EngageError(.crypto, "A sealed value is truncated (\(sealed.count) bytes).")
        }
        guard sealed[sealed.startIndex] == Self.formatVersion else {
            throw EngageError(
                .crypto, "A sealed value has an unknown format version \(sealed[sealed.startIndex])."
            )
        }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed.dropFirst())
            return try AES.GCM.open(box, using: key, authenticating: context)
        } catch {
            throw EngageError(
                .crypto,
                "A sealed value could not be opened: it was altered, or sealed with another key or context.",
                recoverySuggestion: "The stored secret is unusable; sign in again or reset the stored data.",
                underlyingError: error
            )
        }
    }
}
