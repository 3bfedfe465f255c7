import EngageCore
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

/// The purchased cards of the user, each sealed (AES-GCM, bound to its namespace and key) in the
/// Explore provider's storage namespace under `giftcard.<provider>.<id>`. Nothing here is ever stored
/// in plain text or logged.
public struct GiftCardVault: Sendable {
    /// The namespace the cards are sealed in.
    public let storage: StorageNamespace
    private let clock: any EngageClock

    /// A vault in `storage` (which must have a sealer), timestamping with `clock`.
    public init(storage: StorageNamespace, clock: any EngageClock) {
        self.storage = storage
        self.clock = clock
    }

    package static let keyPrefix = "giftcard."

    /// Deletes every card of every source (when the user deletes their account); returns how many.
    @discardableResult
    public func removeAll() throws -> Int {
        let keys = try storage.keys().filter { $0.hasPrefix(Self.keyPrefix) }
        for key in keys { try storage.removeValue(forKey: key) }
        return keys.count
    }

    package static func key(provider: ExploreGiftCardProviderID, id: String) -> String {
        "\(keyPrefix)\(provider.rawValue).\(id)"
    }

    /// Seals `secrets` of the card `id` and returns what the vault holds.
    ///
    /// Storing a card again (each read of a delivered card does) keeps its first `storedAt`, so the
    /// order of ``allCards()`` never changes, and writes nothing when nothing changed.
    @discardableResult
    public func store(
        provider: ExploreGiftCardProviderID, id: String, merchantID: String? = nil, fiatAmount: Decimal? = nil, fiatCurrency: String? = nil,
        secrets: GiftCardSecrets
    ) throws -> StoredGiftCard {
        let key = Self.key(provider: provider, id: id)
        let earlier = try storage.sealedValue(StoredGiftCard.self, forKey: key)
        let card = StoredGiftCard(
            provider: provider, id: id, merchantID: merchantID, fiatAmount: fiatAmount, fiatCurrency: fiatCurrency, secrets: secrets,
            storedAt: earlier?.storedAt ?? clock.now
        )
        if card != earlier { try storage.setSealedValue(card, forKey: key) }
        return card
    }

    /// The stored card `id` of `provider`, opened, or `nil`.
    public func card(provider: ExploreGiftCardProviderID, id: String) throws -> StoredGiftCard? {
        try storage.sealedValue(StoredGiftCard.self, forKey: Self.key(provider: provider, id: id))
    }

    /// Every stored card, oldest first.
    public func allCards() throws -> [StoredGiftCard] {
        try storage.keys().filter { $0.hasPrefix(Self.keyPrefix) }
            .compactMap { try storage.sealedValue(StoredGiftCard.self, forKey: $0) }
            .sorted { ($0.storedAt, $0.id) < ($1.storedAt, $1.id) }
    }

    /// Forgets the card `id` of `provider`.
    public func remove(provider: ExploreGiftCardProviderID, id: String) throws {
        try storage.removeValue(forKey: Self.key(provider: provider, id: id))
    }
}
