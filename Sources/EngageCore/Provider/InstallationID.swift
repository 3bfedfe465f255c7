import Foundation

/// A provider's id for this installation of the app (Warply's device id, Crobox's visitor id, Youll's
/// `device-id`): random, made on first use, kept in the provider's storage namespace, and replaced when
/// the user resets. Every provider has its own, so two backends can never join their records through
/// it. An id the app configured is used as it is and never stored.
///
/// Made by ``ProviderContext/installationID(storedUnder:configured:make:)``; the project's one
/// implementation of a persisted device id.
@_spi(EngageProvider) public final class InstallationID: Sendable {
    private let storage: StorageNamespace
    private let providerID: ProviderID
    private let key: String
    private let configured: String?
    private let make: @Sendable () -> String
    private let cached = Locked<String?>(nil)

    init(storage: StorageNamespace, providerID: ProviderID, key: String, configured: String?, make: @escaping @Sendable () -> String) {
        self.storage = storage
        self.providerID = providerID
        self.key = key
        self.configured = configured
        self.make = make
    }

    /// The id: the configured one, else the stored one, else a new one, stored before it is returned.
    /// Read from storage once, then from memory.
    public func value() throws(EngageError) -> String {
        if let configured { return configured }
        do {
            return try cached.withLock { cached in
                if let cached { return cached }
                let id = try storage.value(String.self, forKey: key) ?? store(make())
                cached = id
                return id
            }
        } catch {
            throw EngageError.wrapping(error, providerID: providerID)
        }
    }

    /// Replaces the stored id with a new one and returns it; a configured id stays.
    @discardableResult
    public func renew() throws(EngageError) -> String {
        if let configured { return configured }
        do {
            return try cached.withLock { cached in
                let id = try store(make())
                cached = id
                return id
            }
        } catch {
            throw EngageError.wrapping(error, providerID: providerID)
        }
    }

    /// Forgets the id in memory, for a provider that cleared its storage: the next ``value()`` reads it
    /// again, or makes a new one.
    public func forgetCached() {
        cached.withLock { $0 = nil }
    }

    private func store(_ id: String) throws -> String {
        try storage.setValue(id, forKey: key)
        return id
    }
}

extension ProviderContext {
    /// The provider's installation id, stored under `key` in its namespace (a provider that stored one
    /// before keeps its key, so the id survives the update), `configured` when the app set one, and
    /// made by `make` (a lowercase UUID by default) when there is none.
    public func installationID(
        storedUnder key: String = "installation_id", configured: String? = nil,
        make: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) -> InstallationID {
        InstallationID(storage: storage, providerID: providerID, key: key, configured: configured, make: make)
    }
}
