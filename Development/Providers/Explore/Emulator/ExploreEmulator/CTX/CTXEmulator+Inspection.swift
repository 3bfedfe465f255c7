@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

extension CTXEmulator: InspectableEmulator {
    /// Three tables: `Accounts` (each e-mail that verified or holds a login code, never the code or a
    /// token), `Gift card orders` (newest first: id, owner, merchant, amount, status as last stored, when
    /// created and paid, and the card number and PIN by their last four) and `Counters`. A card's status
    /// moves on when a client reads it, so an order past its delays still shows its last stored status.
    public func inspect() -> EmulatorStateView {
        state.withLock { state -> EmulatorStateView in
            var cardsByOwner: [String: Int] = [:]
            for entry in state.cards.values { cardsByOwner[entry.owner, default: 0] += 1 }
            var refreshTokensByUser: [String: Int] = [:]
            for user in state.refreshTokens.values { refreshTokensByUser[user, default: 0] += 1 }
            let emails = state.users.union(state.loginCodes.keys).sorted()
            let accounts = emails.prefix(EmulatorStateView.rowLimit).map { email -> [String] in
                [
                    email, state.users.contains(email) ? "yes" : "no",
                    state.loginCodes[email].map { $0.issuedAt.formatted(.iso8601) } ?? "", String(refreshTokensByUser[email] ?? 0),
                    String(cardsByOwner[email] ?? 0),
                ]
            }
            let orders = state.cardOrder.suffix(EmulatorStateView.rowLimit).reversed().compactMap { id -> [String]? in
                guard let entry = state.cards[id] else { return nil }
                let card = entry.card
                return [
                    card.id, entry.owner, card.merchantName, GiftCardEmulatorMoney.cents(card.cardFiatAmount), card.fiatCurrency,
                    entry.forcedRejection && !card.isFinal ? "\(card.status) (rejection pending)" : card.status,
                    entry.createdAt.formatted(.iso8601), entry.paidAt.map { $0.formatted(.iso8601) } ?? "",
                    EmulatorStateView.lastFour(card.number ?? ""), EmulatorStateView.lastFour(card.pin ?? ""),
                ]
            }
            return EmulatorStateView(tables: [
                .init(
                    title: "Accounts", columns: ["email", "verified", "login code issued at", "unused refresh tokens", "gift cards"],
                    rows: accounts
                ),
                .init(
                    title: "Gift card orders",
                    columns: ["id", "owner", "merchant", "amount", "currency", "status", "created at", "paid at", "number", "PIN"],
                    rows: orders
                ),
                .init(
                    title: "Counters", columns: ["counter", "value"],
                    rows: [
                        ["logins", String(state.loginCount)], ["token refreshes", String(state.refreshCount)],
                        ["purchases", String(state.purchaseCount)],
                    ]),
            ])
        }
    }

    /// Back to a fresh start: no accounts, login codes, refresh tokens or cards, counters at zero. The
    /// merchant catalogue stays, and codes, ids and card secrets issued afterwards are the same as after
    /// a fresh start with the same seed.
    public func reset() {
        state.withLock { $0 = CTXEmulatorState(merchants: merchants, seed: seed) }
    }
}
