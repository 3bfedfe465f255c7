import Foundation

/// A provider's id for this installation of the app (Warply's device id, Crobox's visitor id, Youll's
/// `device-id`): derived from the app's anonymous id on first use (see ``AnonymousID``), kept in the
/// provider's storage namespace, and replaced when the user resets. Every provider has its own, so two
/// backends can never join their records through it. An id the app configured is used as it is and
/// never stored; an id stored before (by an earlier version, or under the app's previous anonymous id)
/// is kept, so a backend does not see its users as new devices after an update.
///
/// Made by ``ProviderContext/installationID(storedUnder:configured:format:)``; the project's one
/// implementation of a persisted device id.
@_spi(EngageProvider) public final class InstallationID: Sendable {
    private let storage: StorageNamespace
    private let providerID: ProviderID
    private let key: String
    private let configured: String?
    private let anonymousID: AnonymousID
    private let format: @Sendable (UUID) -> String
    private let cached = Locked<String?>(nil)

    init(
        storage: StorageNamespace, providerID: ProviderID, key: String, configured: String?, anonymousID: AnonymousID,
        format: @escaping @Sendable (UUID) -> String
    ) {
        self.storage = storage
        self.providerID = providerID
        self.key = key
        self.configured = configured
        self.anonymousID = anonymousID
        self.format = format
    }

    /// The id: the configured one, else the stored one, else the one derived from the app's anonymous
    /// id, stored before it is returned. Read from storage once, then from memory.
    public func value() throws(EngageError) -> String {
        if let configured { return configured }
        do {
            return try cached.withLock { cached in
                if let cached { return cached }
                let id = try storage.value(String.self, forKey: key) ?? store(format(anonymousID.derivedID(for: providerID)))
                cached = id
                return id
            }
        } catch {
            throw EngageError.wrapping(error, providerID: providerID)
        }
    }

    /// Replaces the stored id with a new one and returns it; a configured id stays. The new id is the
    /// provider's next derivation from the app's anonymous id (after `Engage.reset()`, from the app's
    /// new id), so it differs from every id the provider had before.
    @discardableResult
    public func renew() throws(EngageError) -> String {
        if let configured { return configured }
        do {
            return try cached.withLock { cached in
                let id = try store(format(anonymousID.renewDerivedID(for: providerID)))
                cached = id
                return id
            }
        } catch {
            throw EngageError.wrapping(error, providerID: providerID)
        }
    }

    /// Forgets the id, for a provider that cleared its namespace and keeps nothing until its next use:
    /// the stored id is deleted (also one a concurrent first use stored after the namespace was
    /// cleared), and the next ``value()`` derives one the provider never had (its next generation),
    /// and stores it then. A configured id stays.
    public func forget() throws(EngageError) {
        guard configured == nil else { return }
        do {
            try cached.withLock { cached in
                _ = try anonymousID.renewDerivedID(for: providerID)
                try storage.removeValue(forKey: key)
                cached = nil
            }
        } catch {
            throw EngageError.wrapping(error, providerID: providerID)
        }
    }

    private func store(_ id: String) throws -> String {
        try storage.setValue(id, forKey: key)
        return id
    }
}

extension ProviderContext {
    /// The provider's installation id, stored under `key` in its namespace (a provider that stored one
    /// before keeps its key, so the id survives the update), `configured` when the app set one, and
    /// derived from the app's anonymous id when there is none, written by `format` (a lowercase UUID by
    /// default; Warply's and Crobox's ids are uppercase).
    public func installationID(
        storedUnder key: String = "installation_id", configured: String? = nil,
        format: @escaping @Sendable (UUID) -> String = { $0.uuidString.lowercased() }
    ) -> InstallationID {
        InstallationID(storage: storage, providerID: providerID, key: key, configured: configured, anonymousID: anonymousID, format: format)
    }
}
