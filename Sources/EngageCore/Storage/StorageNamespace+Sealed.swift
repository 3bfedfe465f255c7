import Foundation

extension StorageNamespace {
    /// The sealed value stored under `key`, opened, or `nil`.
    ///
    /// - Throws: `EngageError(.invalidConfiguration)` without a sealer; `.storage` if the stored value is
    ///   plain; `.crypto` if it does not open (tampered, another key, or copied from another key).
    public func sealedData(forKey key: String) throws -> Data? {
        try validateKey(key)
        let sealer = try requireSealer(for: key)
        guard let row = try readRow(forKey: key) else { return nil }
        guard row.isSealed else {
            throw EngageError(
                .storage,
                "The value for key '\(key)' in namespace '\(name)' is not sealed; read it with data(forKey:)."
            )
        }
        return try sealer.open(row.value, context: sealingContext(forKey: key))
    }

    /// Seals `data` and stores it under `key`, replacing any value.
    ///
    /// The seal is bound to this namespace and key: the stored bytes do not open anywhere else.
    public func setSealedData(_ data: Data, forKey key: String) throws {
        try validateKey(key)
        let sealer = try requireSealer(for: key)
        let sealed = try sealer.seal(data, context: sealingContext(forKey: key))
        try writeRow(sealed, isSealed: true, forKey: key)
    }

    /// The `Codable` value stored sealed as JSON under `key`, or `nil`.
    public func sealedValue<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let data = try sealedData(forKey: key) else { return nil }
        return try Self.decode(type, from: data, key: key)
    }

    /// Encodes `value` as JSON, seals it and stores it under `key`.
    public func setSealedValue<T: Encodable>(_ value: T, forKey key: String) throws {
        try setSealedData(Self.encode(value, key: key), forKey: key)
    }

    /// The authenticated context of a sealed key-value entry: `"engage.kv" NUL namespace NUL key`.
    func sealingContext(forKey key: String) -> Data {
        var context = Data("engage.kv".utf8)
        context.append(0)
        context.append(contentsOf: name.utf8)
        context.append(0)
        context.append(contentsOf: key.utf8)
        return context
    }

    private func requireSealer(for key: String) throws -> Sealer {
        guard let sealer else {
            throw EngageError(
                .invalidConfiguration,
                "Storage namespace '\(name)' has no sealer, so the sealed value for key '\(key)' cannot be used.",
                recoverySuggestion: "Open the namespace with a Sealer built from the secret store."
            )
        }
        return sealer
    }
}
