@_spi(EngageProvider) import EngageSandbox
import Foundation
@_spi(EngageProvider) import EngageCore

extension CTXEmulator {
    /// The outstanding login code of `email` (any case), as if read from the user's inbox.
    public func loginCode(for email: String) -> String? {
        state.withLock { $0.loginCodes[email.lowercased()]?.code }
    }

    /// Marks the card paid now (the wallet's Dash payment arrived); it is fulfilled
    /// ``Configuration/fulfillmentDelay`` later. `transactionID` becomes its `paymentId` when given,
    /// for `GET gift-cards?txid=`.
    public func markPaid(cardID: String, transactionID: String? = nil) {
        let now = environmentSlot.withLock { $0?.now() } ?? Date()
        state.withLock { state in
            guard var entry = state.cards[cardID], entry.card.status == "unpaid" else { return }
            entry.paidAt = now
            entry.card.status = "paid"
            if let transactionID { entry.card.paymentID = transactionID }
            state.cards[cardID] = entry
        }
    }

    /// Makes the card `rejected` at its next read.
    public func reject(cardID: String) {
        state.withLock { $0.cards[cardID]?.forcedRejection = true }
    }

    /// The card as the backend holds it (secrets included once fulfilled), or `nil`.
    public func card(id: String) -> CTXEmulatorGiftCard? {
        state.withLock { $0.cards[id]?.card }
    }

    /// Adds `entry` to the merchants `GET merchants/{id}` and purchases know, or replaces the one with
    /// its id (``merchants`` keeps the catalogue the emulator was made with).
    public func setMerchant(_ entry: CTXEmulatorMerchant) {
        state.withLock { $0.merchants[entry.merchant.id] = entry }
    }

    /// Refuses every outstanding refresh token from now on (sessions revoked server-side).
    public func revokeRefreshTokens() {
        state.withLock { $0.refreshTokens.removeAll() }
    }

    /// How many refresh tokens were rotated.
    public var refreshCount: Int { state.withLock { $0.refreshCount } }
    /// How many e-mail verifications succeeded.
    public var loginCount: Int { state.withLock { $0.loginCount } }
    /// How many cards were created.
    public var purchaseCount: Int { state.withLock { $0.purchaseCount } }
}
