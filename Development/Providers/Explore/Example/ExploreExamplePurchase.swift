@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageExplore
import ExploreEmulator
import Foundation

/// Buys a CTX gift card end to end at the nearest directory merchant CTX sells: e-mail sign-in, the
/// merchant's denominations, a purchase for a valid amount, payment (the emulator stands in for the
/// wallet), delivery polling, and the sealed vault. Card secrets are never printed.
struct ExploreExamplePurchase {
    let explore: ExploreProvider
    let backend: ExploreExampleBackend
    let output: ExampleOutput

    func run(center: GeoPoint, preferred: [ExploreMerchant]) async throws {
        output.section("Buy a CTX gift card")
        let sold = Set(backend.ctx.merchants.map(\.merchant.id))
        let shown = preferred.first { merchant in
            merchant.giftCardOffers.contains { $0.provider == .ctx && sold.contains($0.sourceID ?? merchant.merchantID) }
        }
        let candidate: ExploreMerchant? = if let shown { shown } else { try await nearestCTXMerchant(center: center, sold: sold) }
        guard let merchant = candidate, let offer = merchant.giftCardOffers.first(where: { $0.provider == .ctx }) else {
            output.line("No merchant near the centre sells CTX gift cards.")
            return
        }
        let email = "explorer@example.com"
        let ctx = try explore.giftCardSource(CTXGiftCards.self)
        try await ctx.requestCode(email: email)
        guard let code = backend.ctx.loginCode(for: email) else {
            throw ExploreExampleError(message: "The CTX emulator sent no login code.")
        }
        try await ctx.verify(email: email, code: code)
        output.line("Signed in to CTX")
        let ctxMerchant = try await ctx.merchant(id: offer.sourceID ?? merchant.merchantID)
        let smallest: Decimal? =
            switch ctxMerchant.denominations {
            case let .fixed(values)?: values.min()
            case let .range(minimum, _)?: minimum
            case nil: nil
            }
        guard let amount = smallest else {
            output.line("\(ctxMerchant.name) has no denominations.")
            return
        }
        let card = try await ctx.buyGiftCard(merchantID: ctxMerchant.id, fiatAmount: amount)
        output.line("Ordered a \(amount) USD card at \(ctxMerchant.name) (\(card.status)); paying…")
        let delivered = try await ctx.waitForGiftCard(id: card.id, polling: GiftCardPolling(interval: .milliseconds(250), maxPolls: 40))
        let stored = try await explore.storedGiftCards()
        output.line(
            "Card \(delivered.status): number and PIN sealed in the vault (\(stored.count) card\(stored.count == 1 ? "" : "s") stored)")
    }

    private func nearestCTXMerchant(center: GeoPoint, sold: Set<String>) async throws -> ExploreMerchant? {
        let page = try await explore.merchants(
            ExploreMerchantQuery(giftCardProviders: [.ctx], center: center, sort: .distance, page: PageRequest(limit: 50)))
        return page.items.first { merchant in
            merchant.giftCardOffers.contains { $0.provider == .ctx && sold.contains($0.sourceID ?? merchant.merchantID) }
        }
    }
}
