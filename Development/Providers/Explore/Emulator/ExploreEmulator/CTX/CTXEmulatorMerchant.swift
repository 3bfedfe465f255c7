@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// A merchant the CTX emulator sells, and how it behaves. The emulator's own record, written to the
/// wire by the emulator itself (never through the client's `CTXMerchant`), so a client that reads a
/// key CTX does not send fails its tests.
public struct CTXEmulatorMerchant: Sendable, Hashable {
    /// How the merchant's denominations are meant.
    public enum DenominationsType: String, Sendable, Hashable {
        /// The listed values only (`"fixed"`).
        case fixed
        /// Any whole-cent amount from the first value to the second (`"min-max"`).
        case minMax = "min-max"
    }

    /// What CTX knows of a merchant.
    public struct Record: Sendable, Hashable {
        /// The CTX merchant id (a UUID string).
        public var id: String
        /// The display name.
        public var name: String
        /// The logo's URL.
        public var logoURL: String?
        /// Whether CTX sells its cards now.
        public var isEnabled: Bool
        /// The discount, in basis points (1 % = 100).
        public var savingsBasisPoints: Int
        /// How ``denominationValues`` are meant.
        public var denominationsType: DenominationsType
        /// Fixed values, or the minimum and the maximum.
        public var denominationValues: [Decimal]
        /// How many locations CTX lists.
        public var locationCount: Int?

        /// A merchant record.
        public init(
            id: String, name: String, logoURL: String? = nil, isEnabled: Bool = true, savingsBasisPoints: Int = 0,
            denominationsType: DenominationsType, denominationValues: [Decimal], locationCount: Int? = nil
        ) {
            self.id = id
            self.name = name
            self.logoURL = logoURL
            self.isEnabled = isEnabled
            self.savingsBasisPoints = savingsBasisPoints
            self.denominationsType = denominationsType
            self.denominationValues = denominationValues
            self.locationCount = locationCount
        }
    }

    /// What `GET merchants/{id}` answers.
    public var merchant: Record
    /// Whether it is answered as CTX's staging server spells it (`userDiscount`, `locationCount`,
    /// `denominationType`, the values under `denominationValues` as numbers) instead of production's
    /// (`savingsPercentage`, `cachedLocationCount`, `denominationsType`, `denominations` as strings).
    public var usesLegacySpelling: Bool
    /// Whether its cards are rejected once paid (instead of fulfilled).
    public var rejectsAfterPayment: Bool

    /// A merchant entry.
    public init(_ merchant: Record, usesLegacySpelling: Bool = false, rejectsAfterPayment: Bool = false) {
        self.merchant = merchant
        self.usesLegacySpelling = usesLegacySpelling
        self.rejectsAfterPayment = rejectsAfterPayment
    }

    /// A deterministic catalogue of eight merchants with UUID ids drawn from `seed`: fixed and
    /// min-max denominations, every third one in the staging spelling, one disabled, one whose cards
    /// are rejected after payment.
    ///
    /// | index | name | denominations | notes |
    /// |---|---|---|---|
    /// | 0 | Corner Grocer | 10 to 500 | 5 % discount |
    /// | 1 | Blue Fuel | fixed 25, 50, 100 | staging spelling |
    /// | 2 | Paper Lantern Books | 5 to 200 | |
    /// | 3 | Sunset Cinema | fixed 15, 30 | |
    /// | 4 | Harbor Coffee | 5 to 100 | staging spelling, rejected after payment |
    /// | 5 | Summit Outdoor | fixed 50, 100, 250 | |
    /// | 6 | Night Market | 10 to 1000 | |
    /// | 7 | Closed Shop | 10 to 100 | staging spelling, disabled |
    public static func defaultCatalogue(seed: UInt64 = SandboxConfiguration.defaultSeed) -> [CTXEmulatorMerchant] {
        var generator = SeededGenerator(seed: seed, stream: "ctx/merchants")
        let rows: [(String, DenominationsType, [Decimal], Int)] = [
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
            let merchant = Record(
                id: id, name: row.0, logoURL: "https://spend.ctx.com/logos/\(id).png", isEnabled: index != 7, savingsBasisPoints: row.3,
                denominationsType: row.1, denominationValues: row.2, locationCount: Int(generator.next() % 40) + 1
            )
            return CTXEmulatorMerchant(merchant, usesLegacySpelling: index % 3 == 1, rejectsAfterPayment: index == 4)
        }
    }

    /// The JSON object `GET merchants/{id}` answers, in the merchant's spelling. The keys and types are
    /// those of `MerchantResponse` in the Dash wallet's `CTXSpendModels.swift` (see the recorded answers
    /// in the Explore tests' `Fixtures/CTX`).
    func wireObject() -> [String: Any] {
        let record = merchant
        var object: [String: Any] = [
            "id": record.id, "name": record.name, "enabled": record.isEnabled, "logoUrl": record.logoURL ?? "",
            "mapPinUrl": "", "cardImageUrl": "", "type": "gift-card", "redeemType": "barcode", "currency": "USD",
        ]
        if usesLegacySpelling {
            object["userDiscount"] = record.savingsBasisPoints
            object["denominationType"] = record.denominationsType.rawValue
            object["denominationValues"] = record.denominationValues.map { NSDecimalNumber(decimal: $0).doubleValue }
            if let count = record.locationCount { object["locationCount"] = count }
        } else {
            object["savingsPercentage"] = record.savingsBasisPoints
            object["denominationsType"] = record.denominationsType.rawValue
            object["denominations"] = record.denominationValues.map(GiftCardEmulatorMoney.plain)
            if let count = record.locationCount { object["cachedLocationCount"] = count }
        }
        return object
    }
}

extension GiftCardEmulatorMoney {
    /// Whether `amount` is one the merchant sells: a listed value, or between the bounds.
    static func accepts(_ amount: Decimal, _ merchant: CTXEmulatorMerchant.Record) -> Bool {
        guard !merchant.denominationValues.isEmpty else { return true }
        switch merchant.denominationsType {
        case .fixed: return merchant.denominationValues.contains(amount)
        case .minMax:
            guard let low = merchant.denominationValues.min(), let high = merchant.denominationValues.max() else { return true }
            return amount >= low && amount <= high
        }
    }
}
