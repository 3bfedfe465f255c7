#if canImport(Security)
    import Crypto
    import Foundation
    import Security

    /// Keys stored as generic-password items in the Keychain (Apple platforms), one item per key name,
    /// accessible after first unlock (`kSecAttrAccessibleAfterFirstUnlock`) and never synced to iCloud
    /// Keychain.
    ///
    /// The key travels with the database it seals: both are in the app's encrypted backups (iCloud, or an
    /// encrypted computer backup) and in a transfer to a new device, so a restore opens every sealed value.
    /// Where they come apart anyway (an unencrypted backup restored to another device), the sealed values
    /// read as absent and are moved aside (see `StorageNamespace.sealedData(forKey:)`). Items made by
    /// earlier versions as `…ThisDeviceOnly` are switched to this accessibility when first read.
    ///
    /// Items use `kSecAttrService = service`, `kSecAttrAccount = <key name>`. When two callers race to
    /// create the same key, the second `SecItemAdd` reports a duplicate and both use the stored item.
    @_spi(EngageProvider) public struct KeychainSecretStore: SecretStore {
        /// The Keychain service of the items (usually the app's bundle identifier).
        public let service: String
        /// The Keychain access group of the items (`kSecAttrAccessGroup`), shared with the app's
        /// extensions; `nil` uses the app's default group.
        public let accessGroup: String?

        /// A store whose items use `service`, in `accessGroup` when given.
        public init(service: String, accessGroup: String? = nil) {
            self.service = service
            self.accessGroup = accessGroup
        }

        /// The key named `name` from the Keychain, created and stored on first use.
        public func key(named name: String) throws -> SymmetricKey {
            try SecretStores.validateName(name)
            for _ in 0..<2 {
                if let data = try readItem(named: name) {
                    migrateDeviceOnlyItem(named: name)
                    guard data.count == 32 else {
                        throw EngageError(
                            .crypto,
                            "The Keychain item '\(name)' of service '\(service)' holds \(data.count) bytes instead of 32; "
                                + "it was not used.",
                            recoverySuggestion: "Delete the item (values sealed with it will be lost)."
                        )
                    }
                    return SymmetricKey(data: data)
                }
                let key = SymmetricKey(size: .bits256)
                let data = key.withUnsafeBytes { Data($0) }
                var attributes = baseQuery(named: name)
                attributes[kSecValueData as String] = data
                attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
                let status = SecItemAdd(attributes as CFDictionary, nil)
                if status == errSecSuccess { return key }
                guard status == errSecDuplicateItem else { throw keychainError("create", name: name, status: status) }
                // Another caller created it first: read theirs.
            }
            throw EngageError(.storage, "The Keychain item '\(name)' of service '\(service)' could not be created or read.")
        }

        /// Deletes the Keychain item of `name`, if it exists; values sealed with it no longer open.
        public func deleteKey(named name: String) throws {
            try SecretStores.validateName(name)
            let status = SecItemDelete(baseQuery(named: name) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw keychainError("delete", name: name, status: status)
            }
        }

        /// Lets an item made by an earlier version (`…ThisDeviceOnly`) travel with the database in backups.
        /// Best effort: when it cannot be changed now, the key still works and the next read tries again.
        private func migrateDeviceOnlyItem(named name: String) {
            var query = baseQuery(named: name)
            query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            let update: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]
            _ = SecItemUpdate(query as CFDictionary, update as CFDictionary)
        }

        private func baseQuery(named name: String) -> [String: Any] {
            // No kSecUseDataProtectionKeychain: on macOS it needs a signed app with a keychain entitlement,
            // which command-line tools and `swift test` do not have.
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: name,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        private func readItem(named name: String) throws -> Data? {
            var query = baseQuery(named: name)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            switch status {
            case errSecSuccess:
                guard let data = result as? Data else {
                    throw EngageError(.storage, "The Keychain item '\(name)' of service '\(service)' holds no data.")
                }
                return data
            case errSecItemNotFound:
                return nil
            default:
                throw keychainError("read", name: name, status: status)
            }
        }

        private func keychainError(_ action: String, name: String, status: OSStatus) -> EngageError {
            let text = (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)"
            return EngageError(
                .storage, "The Keychain could not \(action) the key '\(name)' of service '\(service)': \(text).",
                isRetryable: status == errSecInteractionNotAllowed,
                recoverySuggestion: status == errSecInteractionNotAllowed
                    ? "The device is locked; try again after it is unlocked." : nil
            )
        }
    }
#endif
