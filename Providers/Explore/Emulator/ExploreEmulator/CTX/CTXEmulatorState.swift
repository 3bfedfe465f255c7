@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExplore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// A card the emulator sold, with what drives its status.
struct CTXEmulatorCard: Sendable {
    var card: CTXGiftCard
    var owner: String
    var createdAt: Date
    var paidAt: Date?
    var forcedRejection = false
}

/// The CTX emulator's mutable state, behind its lock.
struct CTXEmulatorState {
    var merchants: [String: CTXEmulatorMerchant]
    var generator: SeededGenerator
    /// Outstanding login codes by lowercased e-mail: the code and when it was issued.
    var loginCodes: [String: (code: String, issuedAt: Date)] = [:]
    /// Users who verified at least once.
    var users: Set<String> = []
    /// Unused refresh tokens → their user.
    var refreshTokens: [String: String] = [:]
    var cards: [String: CTXEmulatorCard] = [:]
    var cardOrder: [String] = []
    var loginCount = 0
    var refreshCount = 0
    var purchaseCount = 0

    init(merchants: [CTXEmulatorMerchant], seed: UInt64) {
        self.merchants = Dictionary(merchants.map { ($0.merchant.id, $0) }, uniquingKeysWith: { first, _ in first })
        generator = SeededGenerator(seed: seed, stream: "ctx/state")
    }

    /// Moves the card `id` along its life at `now`: paid after `autoPayDelay` (when set), then
    /// fulfilled (or rejected) `fulfillmentDelay` after payment.
    mutating func advance(_ id: String, now: Date, configuration: CTXEmulator.Configuration) {
        guard var entry = cards[id], !entry.card.status.isFinal else { return }
        if entry.forcedRejection {
            entry.card.status = .rejected
        } else {
            if entry.paidAt == nil, let delay = configuration.autoPayDelay, now >= entry.createdAt.adding(delay) {
                entry.paidAt = entry.createdAt.adding(delay)
                entry.card.status = .paid
            }
            if let paidAt = entry.paidAt, now >= paidAt.adding(configuration.fulfillmentDelay) {
                let rejects = entry.card.merchantID.flatMap { merchants[$0]?.rejectsAfterPayment } ?? false
                if rejects {
                    entry.card.status = .rejected
                } else {
                    entry.card.status = .fulfilled
                    entry.card.cardFiatAmount = entry.card.fiatAmount
                    entry.card.secrets = makeSecrets()
                }
            }
        }
        cards[id] = entry
    }

    mutating func makeSecrets() -> GiftCardSecrets {
        GiftCardSecrets(
            number: "6006" + generator.nextDigits(12), pin: generator.nextDigits(8),
            barcodeURL: "https://spend.ctx.com/barcodes/\(generator.nextHex(byteCount: 12)).png",
            redeemURL: "https://spend.ctx.com/redeem/\(generator.nextHex(byteCount: 12))"
        )
    }
}
