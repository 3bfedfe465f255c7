@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExplore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// A merchant the CTX emulator sells, and how it behaves.
public struct CTXEmulatorMerchant: Sendable, Hashable {
    /// What `GET merchants/{id}` answers.
    public var merchant: CTXMerchant
    /// Whether it is answered in the legacy spelling (`userDiscount`, `denominationType`,
    /// `locationCount`, numbers as strings) instead of the current one.
    public var usesLegacySpelling: Bool
    /// Whether its cards are rejected once paid (instead of fulfilled).
    public var rejectsAfterPayment: Bool

    /// A merchant entry.
    public init(_ merchant: CTXMerchant, usesLegacySpelling: Bool = false, rejectsAfterPayment: Bool = false) {
        self.merchant = merchant
        self.usesLegacySpelling = usesLegacySpelling
        self.rejectsAfterPayment = rejectsAfterPayment
    }

    /// A deterministic catalogue of eight merchants with UUID ids drawn from `seed`: fixed and
    /// min-max denominations, every third one in the legacy spelling, one disabled, one whose cards
    /// are rejected after payment.
    ///
    /// | index | name | denominations | notes |
    /// |---|---|---|---|
    /// | 0 | Corner Grocer | 10 to 500 | 5 % discount |
    /// | 1 | Blue Fuel | fixed 25, 50, 100 | legacy spelling |
    /// | 2 | Paper Lantern Books | 5 to 200 | |
    /// | 3 | Sunset Cinema | fixed 15, 30 | legacy spelling |
    /// | 4 | Harbor Coffee | 5 to 100 | rejected after payment |
    /// | 5 | Summit Outdoor | fixed 50, 100, 250 | |
    /// | 6 | Night Market | 10 to 1000 | legacy spelling |
    /// | 7 | Closed Shop | 10 to 100 | disabled |
    public static func defaultCatalogue(seed: UInt64 = SandboxConfiguration.defaultSeed) -> [CTXEmulatorMerchant] {
        var generator = SeededGenerator(seed: seed, stream: "ctx/merchants")
        let rows: [(String, ExploreDenominationsType, [Decimal], Int)] = [
            ("Corner Grocer", .minMax, [10, 500], 500),
            ("Blue Fuel", .fixed, [25, 50, 100], 300),
            ("Paper Lantern Books", .minMax, [5, 200], 750),
            ("Sunset Cinema", .fixed, [15, 30], 1_000),
            ("Harbor Coffee", .minMax, [5, 100], 250),
            ("Summit Outdoor", .fixed, [50, 100, 250], 400),
            ("Night Market", .minMax, [10, 1_000], -150),
            ("Closed Shop", .minMax, [10, 100], 0),
        ]
        return rows.enumerated().map { index, row in
            let id = generator.nextUUID()
            let merchant = CTXMerchant(
                id: id, name: row.0, logoURL: "https://spend.ctx.com/logos/\(id).png", isEnabled: index != 7, savingsBasisPoints: row.3,
                denominationsType: row.1, denominationValues: row.2, locationCount: Int(generator.next() % 40) + 1
            )
            return CTXEmulatorMerchant(merchant, usesLegacySpelling: index % 3 == 1, rejectsAfterPayment: index == 4)
        }
    }
}

/// The legacy spelling of a merchant: `userDiscount`, `denominationType`, `locationCount`, every
/// number written as a string.
struct CTXLegacyMerchantWire: Encodable {
    let merchant: CTXMerchant

    enum CodingKeys: String, CodingKey {
        case id, name, logoUrl, enabled, userDiscount, denominationType, denominations, locationCount
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(merchant.id, forKey: .id)
        try container.encode(merchant.name, forKey: .name)
        try container.encodeIfPresent(merchant.logoURL, forKey: .logoUrl)
        try container.encode(merchant.isEnabled, forKey: .enabled)
        try container.encode(String(merchant.savingsBasisPoints), forKey: .userDiscount)
        try container.encodeIfPresent(merchant.denominationsType?.rawValue, forKey: .denominationType)
        try container.encode(merchant.denominationValues.map(GiftCardMoney.plainString), forKey: .denominations)
        try container.encodeIfPresent(merchant.locationCount.map(String.init), forKey: .locationCount)
    }
}
