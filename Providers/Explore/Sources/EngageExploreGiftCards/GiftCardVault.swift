@_spi(EngageProvider) import EngageCore
import Foundation

/// A purchased gift card as the vault keeps it: which provider sold it, for what, and its secrets.
public struct StoredGiftCard: Codable, Sendable, Hashable, CustomStringConvertible {
    /// Who sold the card.
    public var provider: ExploreGiftCardProviderID
    /// The provider's id of the card (CTX) or order (PiggyCards).
    public var id: String
    /// The merchant (CTX merchant id, or PiggyCards product id), if known.
    public var merchantID: String?
    /// The face value, if known.
    public var fiatAmount: Decimal?
    /// The currency of `fiatAmount`, if known.
    public var fiatCurrency: String?
    /// The card's secrets (number, PIN, claim code…).
    public var secrets: GiftCardSecrets
    /// When the vault stored it (injected clock).
    public var storedAt: Date

    /// A stored card.
    public init(
        provider: ExploreGiftCardProviderID, id: String, merchantID: String? = nil, fiatAmount: Decimal? = nil, fiatCurrency: String? = nil,
        secrets: GiftCardSecrets, storedAt: Date
    ) {
        self.provider = provider
        self.id = id
        self.merchantID = merchantID
        self.fiatAmount = fiatAmount
        self.fiatCurrency = fiatCurrency
        self.secrets = secrets
        self.storedAt = storedAt
    }

    /// The card without its secrets' values.
    public var description: String {
        "StoredGiftCard(provider: \(provider.rawValue), id: \(id), merchantID: \(merchantID ?? "nil"), secrets: \(secrets))"
    }
}

/// A purchased card whose sealed secrets no longer open on this device: the database came back from a
/// backup or another device without the key that sealed it (the key never leaves the device), or the
/// stored bytes were altered. Only the card's id survives, which is what its source needs to fetch the
/// card again (``GiftCardVault`` keeps it until the card is stored again or the vault is emptied).
public struct LostGiftCard: Codable, Sendable, Hashable {
    /// Who sold the card.
    public var provider: ExploreGiftCardProviderID
    /// The vault's id of the card (CTX card id; PiggyCards order id, `-<n>` for the n-th card of an
    /// order of several).
    public var id: String
    /// When the vault found that the card no longer opens (injected clock).
    public var lostAt: Date

    /// A lost card (the vault records them).
    package init(provider: ExploreGiftCardProviderID, id: String, lostAt: Date) {
        self.provider = provider
        self.id = id
        self.lostAt = lostAt
    }
}

/// The purchased cards of the user, each sealed (AES-GCM, bound to its namespace and key) in the
/// Explore provider's storage namespace under `giftcard.<provider>.<id>`. Nothing here is ever stored
/// in plain text or logged.
///
/// A card whose seal no longer opens (see ``LostGiftCard``) reads as absent, never as an error for the
/// others: the vault moves it aside, keeps its id under `giftcard-lost.<provider>.<id>`, publishes
/// `gift_card_unreadable` once, and lists it in ``lostCards()`` until it is stored again.
public struct GiftCardVault: Sendable {
    /// The namespace the cards are sealed in.
    @_spi(EngageProvider) public let storage: StorageNamespace
    private let clock: any EngageClock
    private let events: EventBus?

    /// A vault in `storage` (which must have a sealer), timestamping with `clock`; a card found
    /// unreadable is announced on `events`.
    @_spi(EngageProvider) public init(storage: StorageNamespace, clock: any EngageClock, events: EventBus? = nil) {
        self.storage = storage
        self.clock = clock
        self.events = events
    }

    package static let keyPrefix = "giftcard."
    package static let lostKeyPrefix = "giftcard-lost."
    /// Where the vault's epoch is kept (plain: it is a counter, not a secret).
    package static let epochKey = "giftcard-epoch"
    /// Serialises the vault's writes in the process: a card checked against the epoch is written before
    /// an emptying can start, or not at all.
    private static let writes = Locked(())

    /// The vault's epoch: a number ``removeAll()`` increases, kept in storage so that every vault over
    /// the same namespace sees it. An operation reads it before it asks a source for a card and stores
    /// the answer with ``store(provider:id:merchantID:fiatAmount:fiatCurrency:secrets:epoch:)``, so that a
    /// card answered after the user was forgotten is never sealed for the next user. For gift-card
    /// sources; apps never need it.
    @_spi(EngageProvider) public func epoch() throws -> Int {
        try storage.value(Int.self, forKey: Self.epochKey) ?? 0
    }

    /// Deletes every card of every source, and the record of lost ones (when the user deletes their
    /// account), and starts a new epoch; returns how many cards were stored.
    @discardableResult
    public func removeAll() throws -> Int {
        try Self.writes.withLock { _ in
            try storage.setValue(try epoch() &+ 1, forKey: Self.epochKey)
            let keys = try storage.keys()
            let cards = keys.filter { $0.hasPrefix(Self.keyPrefix) }
            for key in cards + keys.filter({ $0.hasPrefix(Self.lostKeyPrefix) }) { try storage.removeValue(forKey: key) }
            return cards.count
        }
    }

    package static func key(provider: ExploreGiftCardProviderID, id: String) -> String {
        "\(keyPrefix)\(provider.rawValue).\(id)"
    }

    package static func lostKey(provider: ExploreGiftCardProviderID, id: String) -> String {
        "\(lostKeyPrefix)\(provider.rawValue).\(id)"
    }

    /// Seals `secrets` of the card `id` and returns what the vault holds.
    ///
    /// Storing a card again (each read of a delivered card does) keeps its first `storedAt`, so the
    /// order of ``allCards()`` never changes, and writes nothing when nothing changed. Storing a lost
    /// card recovers it.
    @discardableResult
    public func store(
        provider: ExploreGiftCardProviderID, id: String, merchantID: String? = nil, fiatAmount: Decimal? = nil, fiatCurrency: String? = nil,
        secrets: GiftCardSecrets
    ) throws -> StoredGiftCard {
        try Self.writes.withLock { _ in
            try write(
                provider: provider, id: id, merchantID: merchantID, fiatAmount: fiatAmount, fiatCurrency: fiatCurrency, secrets: secrets)
        }
    }

    /// Seals `secrets` of the card `id` only if the vault is still in `epoch` (read with ``epoch()``
    /// before the card was asked for).
    ///
    /// - Throws: `.cancelled` when the vault was emptied since (the user was forgotten while the card
    ///   was on its way): nothing is stored.
    @_spi(EngageProvider) @discardableResult
    public func store(
        provider: ExploreGiftCardProviderID, id: String, merchantID: String? = nil, fiatAmount: Decimal? = nil, fiatCurrency: String? = nil,
        secrets: GiftCardSecrets, epoch: Int
    ) throws -> StoredGiftCard {
        try Self.writes.withLock { _ in
            guard try self.epoch() == epoch else {
                throw EngageError(
                    .cancelled, "The gift cards were deleted (the user was forgotten) while this card was on its way: it was not stored.",
                    providerID: .explore)
            }
            return try write(
                provider: provider, id: id, merchantID: merchantID, fiatAmount: fiatAmount, fiatCurrency: fiatCurrency, secrets: secrets)
        }
    }

    private func write(
        provider: ExploreGiftCardProviderID, id: String, merchantID: String?, fiatAmount: Decimal?, fiatCurrency: String?,
        secrets: GiftCardSecrets
    ) throws -> StoredGiftCard {
        let key = Self.key(provider: provider, id: id)
        let earlier = try open(key: key, provider: provider, id: id)
        let card = StoredGiftCard(
            provider: provider, id: id, merchantID: merchantID, fiatAmount: fiatAmount, fiatCurrency: fiatCurrency, secrets: secrets,
            storedAt: earlier?.storedAt ?? clock.now
        )
        if card != earlier { try storage.setSealedValue(card, forKey: key) }
        if earlier == nil { try storage.removeValue(forKey: Self.lostKey(provider: provider, id: id)) }
        return card
    }

    /// The stored card `id` of `provider`, opened, or `nil` (also when it no longer opens).
    public func card(provider: ExploreGiftCardProviderID, id: String) throws -> StoredGiftCard? {
        try open(key: Self.key(provider: provider, id: id), provider: provider, id: id)
    }

    /// Every stored card that opens, oldest first.
    public func allCards() throws -> [StoredGiftCard] {
        try storage.keys().compactMap { key -> StoredGiftCard? in
            guard let (provider, id) = Self.parse(key: key, prefix: Self.keyPrefix) else { return nil }
            return try open(key: key, provider: provider, id: id)
        }
        .sorted { ($0.storedAt, $0.id) < ($1.storedAt, $1.id) }
    }

    /// The cards whose secrets no longer open, oldest loss first, after checking every stored card.
    /// Their sources can fetch them again (`ExploreProvider.recoverLostGiftCards()`).
    public func lostCards() throws -> [LostGiftCard] {
        _ = try allCards()
        return try storage.keys().filter { $0.hasPrefix(Self.lostKeyPrefix) }
            .compactMap { try storage.value(LostGiftCard.self, forKey: $0) }
            .sorted { ($0.lostAt, $0.id) < ($1.lostAt, $1.id) }
    }

    /// Forgets the card `id` of `provider`, and any record of it being lost.
    public func remove(provider: ExploreGiftCardProviderID, id: String) throws {
        try storage.removeValue(forKey: Self.key(provider: provider, id: id))
        try storage.removeValue(forKey: Self.lostKey(provider: provider, id: id))
    }

    /// Opens the card under `key`; one that no longer opens is recorded as lost (in the same
    /// transaction that moves it aside) and reads as `nil`.
    private func open(key: String, provider: ExploreGiftCardProviderID, id: String) throws -> StoredGiftCard? {
        let lossRecord: () throws -> (key: String, value: Data) = {
            let lostKey = Self.lostKey(provider: provider, id: id)
            return (lostKey, try StorageNamespace.encode(LostGiftCard(provider: provider, id: id, lostAt: clock.now), key: lostKey))
        }
        switch try storage.readSealed(forKey: key, lossRecord: lossRecord) {
        case let .opened(data):
            return try StorageNamespace.decode(StoredGiftCard.self, from: data, key: key)
        case .absent:
            return nil
        case .unreadable:
            events?.publish(
                NamedEvent("gift_card_unreadable", providerID: .explore, attributes: ["source": provider.rawValue, "card": id]))
            return nil
        }
    }

    /// `giftcard.<provider>.<id>` → (provider, id); provider ids have no dot.
    private static func parse(key: String, prefix: String) -> (ExploreGiftCardProviderID, String)? {
        guard key.hasPrefix(prefix) else { return nil }
        let rest = key.dropFirst(prefix.count)
        guard let dot = rest.firstIndex(of: "."), dot != rest.startIndex else { return nil }
        let id = rest[rest.index(after: dot)...]
        guard !id.isEmpty else { return nil }
        return (ExploreGiftCardProviderID(rawValue: String(rest[..<dot])), String(id))
    }
}
