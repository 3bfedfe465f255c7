import Foundation

/// What the directory knows about one merchant row, packed in 16 bits so that a query tests a row
/// with a couple of mask operations.
struct ExploreRowFlags: OptionSet, Sendable, Hashable {
    let rawValue: UInt16

    static let dash = Self(rawValue: 1 << 0)
    static let giftCard = Self(rawValue: 1 << 1)
    static let online = Self(rawValue: 1 << 2)
    static let physical = Self(rawValue: 1 << 3)
    static let ctx = Self(rawValue: 1 << 4)
    static let piggyCards = Self(rawValue: 1 << 5)
    static let fixed = Self(rawValue: 1 << 6)
    static let minMax = Self(rawValue: 1 << 7)
    /// The merchant's gift cards come from PiggyCards alone.
    static let piggyCardsOnly = Self(rawValue: 1 << 8)
    /// The row has valid coordinates.
    static let located = Self(rawValue: 1 << 9)

    init(rawValue: UInt16) { self.rawValue = rawValue }

    init(_ method: ExplorePaymentMethod) {
        switch method {
        case .dash: self = .dash
        case .giftCard: self = .giftCard
        }
    }

    init(_ type: ExploreMerchantType) {
        switch type {
        case .online: self = .online
        case .physical: self = .physical
        case .both: self = [.online, .physical]
        }
    }

    init(_ denominations: ExploreDenominationsType) {
        switch denominations {
        case .fixed: self = .fixed
        case .minMax: self = .minMax
        }
    }

    /// The flag of a gift-card source; none for a source the directory does not know (its filter
    /// matches no row).
    init(_ provider: ExploreGiftCardProviderID) {
        switch provider {
        case .ctx: self = .ctx
        case .piggyCards: self = .piggyCards
        default: self = []
        }
    }
}
