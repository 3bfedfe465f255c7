import Crypto
import Foundation

/// The app's anonymous id for this installation, and the ids derived from it for each provider.
///
/// The app's id (`Engage.anonymousID`, a lowercase UUID) is random, made on first use, kept in the
/// core's storage namespace and replaced by `Engage.reset()`. It is the app's own: its support screens
/// and its analytics. No provider receives it. A provider that needs an id before a login (Crobox's
/// visitor, Warply's and Youll's devices) receives ``derivedID(for:)``: the first 16 bytes of
/// HMAC-SHA256 keyed with the app's id over `"<provider id>:<generation>"`, shaped as a version 4
/// UUID. So one reset renews every provider's id, while no two backends receive the same value and
/// none can compute another's, or the app's, from its own.
///
/// A provider that forgets its visitor on its own (Crobox's `reset()` alone) gets a new id through
/// ``renewDerivedID(for:)``, which moves that provider to its next generation; the app's id stays.
///
/// Providers reach it through ``ProviderContext/installationID(storedUnder:configured:format:)``,
/// which stores the derived id in the provider's namespace, so an id stored before this existed, or
/// before the app's id changed without a reset, is kept.
@_spi(EngageProvider) public final class AnonymousID: Sendable {
    /// What is stored under ``key``: the app's id and each provider's generation (0 when absent).
    struct State: Codable, Equatable {
        var id: String
        var generations: [String: Int] = [:]
    }

    static let key = "anonymous_id"
    private let storage: StorageNamespace?
    private let make: @Sendable () -> String
    /// `nil` until first read from storage.
    private let state = Locked<State?>(nil)

    /// The id kept in `storage` (the core namespace), or in memory only when `storage` is `nil`; `make`
    /// makes a new app id (a lowercase random UUID unless a test injects one).
    public init(storage: StorageNamespace?, make: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }) {
        self.storage = storage
        self.make = make
    }

    /// The app's id, made and stored on first use.
    ///
    /// - Throws: `.storage` when the stored id cannot be read or a new one cannot be stored.
    public func value() throws(EngageError) -> String {
        try withState { _ in false }.id
    }

    /// Replaces the app's id with a new one (every provider back to generation 0) and returns it. The
    /// new id is in use even when storing it fails.
    ///
    /// - Throws: `.storage` when the new id cannot be stored: the next launch would read the old one.
    @discardableResult
    public func renew() throws(EngageError) -> String {
        try withState { state in
            state = State(id: make())
            return true
        }.id
    }

    /// The id `provider` receives, derived from the app's id and the provider's generation.
    ///
    /// - Throws: `.storage` when the app's id cannot be read or made.
    public func derivedID(for provider: ProviderID) throws(EngageError) -> UUID {
        let state = try withState { _ in false }
        return Self.derive(appID: state.id, provider: provider, generation: state.generations[provider.rawValue] ?? 0)
    }

    /// Moves `provider` to its next generation and returns its new derived id, for a provider that
    /// forgets its visitor while the app's id stays.
    ///
    /// - Throws: `.storage` when the new generation cannot be stored.
    public func renewDerivedID(for provider: ProviderID) throws(EngageError) -> UUID {
        let state = try withState { state in
            state.generations[provider.rawValue, default: 0] += 1
            return true
        }
        return Self.derive(appID: state.id, provider: provider, generation: state.generations[provider.rawValue] ?? 0)
    }

    /// HMAC-SHA256 of `"<provider>:<generation>"` keyed with the app's id, its first 16 bytes with the
    /// version 4 and RFC 4122 variant bits set (a backend that checks a UUID's version accepts it).
    static func derive(appID: String, provider: ProviderID, generation: Int) -> UUID {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(provider.rawValue):\(generation)".utf8), using: SymmetricKey(data: Data(appID.utf8)))
        var bytes = Array(mac.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// Runs `change` on the state (loaded, or made and stored, first; a stored state that does not
    /// decode is replaced) under the lock; stores the state when `change` says it changed it. The state
    /// in memory is updated even when storing fails.
    private func withState(_ change: (inout State) -> Bool) throws(EngageError) -> State {
        let result: Result<State, EngageError> = state.withLock { cached in
            var current: State
            var changed: Bool
            if let cached {
                current = cached
                changed = false
            } else {
                do {
                    if let stored = try storage?.value(State.self, forKey: Self.key) {
                        current = stored
                        changed = false
                    } else {
                        current = State(id: make())
                        changed = true
                    }
                } catch let error as EngageError where error.code == .decoding {
                    // A damaged value: an id is not worth more than a new one.
                    current = State(id: make())
                    changed = true
                } catch {
                    return .failure(EngageError(.storage, "The anonymous id cannot be read.", underlyingError: error))
                }
            }
            if change(&current) { changed = true }
            cached = current
            guard changed, let storage else { return .success(current) }
            do {
                try storage.setValue(current, forKey: Self.key)
                return .success(current)
            } catch {
                return .failure(
                    EngageError(.storage, "The anonymous id could not be stored; it applies until the app quits.", underlyingError: error))
            }
        }
        return try result.get()
    }
}
