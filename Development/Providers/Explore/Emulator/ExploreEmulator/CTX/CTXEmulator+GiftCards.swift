@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird

/// `POST gift-cards` as the Dash wallet's client sends it (`PurchaseGiftCardRequest` in
/// `CTXSpendModels.swift`): every value a string, the amount with two decimals. The emulator's own type.
private struct CTXPurchaseBody: Decodable {
    var cryptoCurrency: String
    var fiatCurrency: String
    var fiatAmount: String
    var merchantId: String
}

extension CTXEmulator {
    func addGiftCardRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.get("merchants/:id") { request, context in
            try await GiftCardEmulatorRoutes.respond {
                try self.checkClient(request)
                let id = context.parameters.get("id") ?? ""
                guard let entry = self.state.withLock({ $0.merchants[id] }) else {
                    throw GiftCardEmulatorRejection.ctx(.notFound, "Merchant not found")
                }
                return GiftCardEmulatorRoutes.jsonResponse(entry.wireObject())
            }
        }
        group.post("gift-cards") { request, context in
            try await GiftCardEmulatorRoutes.respond {
                try self.checkClient(request)
                let user = try self.authenticatedUser(request, environment: environment)
                let body = try await GiftCardEmulatorRoutes.decode(
                    CTXPurchaseBody.self, from: request, context: context,
                    invalid: .ctx(.badRequest, "Expected {\"cryptoCurrency\", \"fiatCurrency\", \"fiatAmount\", \"merchantId\"}.")
                )
                let card = try self.createCard(body, user: user, now: environment.now())
                return GiftCardEmulatorRoutes.jsonResponse(card.wireObject(userEmail: user), status: .created)
            }
        }
        group.get("gift-cards/:id") { request, context in
            try await GiftCardEmulatorRoutes.respond {
                try self.checkClient(request)
                let user = try self.authenticatedUser(request, environment: environment)
                let id = context.parameters.get("id") ?? ""
                let card = self.state.withLock { state -> CTXEmulatorGiftCard? in
                    state.advance(id, now: environment.now(), configuration: self.configuration)
                    guard let entry = state.cards[id], entry.owner == user else { return nil }
                    return entry.card
                }
                guard let card else { throw GiftCardEmulatorRejection.ctx(.notFound, "Gift card not found") }
                return GiftCardEmulatorRoutes.jsonResponse(card.wireObject(userEmail: user))
            }
        }
        // One card object per transaction, as both official clients decode it (`GiftCardResponse`, not
        // a list); a transaction that paid no card of this user is a 404 (inferred: the clients only
        // treat any failure as "no card").
        group.get("gift-cards") { request, _ in
            try await GiftCardEmulatorRoutes.respond {
                try self.checkClient(request)
                let user = try self.authenticatedUser(request, environment: environment)
                let txid = request.uri.queryParameters["txid"].map(String.init) ?? ""
                let card = self.state.withLock { state -> CTXEmulatorGiftCard? in
                    guard !txid.isEmpty else { return nil }
                    for id in state.cardOrder.reversed() {
                        guard let entry = state.cards[id], entry.owner == user, entry.card.paymentID == txid else { continue }
                        state.advance(id, now: environment.now(), configuration: self.configuration)
                        return state.cards[id]?.card
                    }
                    return nil
                }
                guard let card else { throw GiftCardEmulatorRejection.ctx(.notFound, "Gift card not found") }
                return GiftCardEmulatorRoutes.jsonResponse(card.wireObject(userEmail: user))
            }
        }
    }

    /// Validates a purchase like CTX does and records an `unpaid` card.
    private func createCard(_ body: CTXPurchaseBody, user: String, now: Date) throws -> CTXEmulatorGiftCard {
        guard let amount = GiftCardEmulatorMoney.parse(body.fiatAmount), amount > 0 else {
            throw GiftCardEmulatorRejection.ctx(.badRequest, "Invalid amount", fields: ["fiatAmount": ["must be a decimal amount"]])
        }
        guard body.cryptoCurrency == "DASH" else {
            throw GiftCardEmulatorRejection.ctx(.badRequest, "Unsupported currency", fields: ["cryptoCurrency": ["must be DASH"]])
        }
        if amount > configuration.purchaseThreshold {
            throw GiftCardEmulatorRejection.ctx(.badRequest, "Invalid amount", fields: ["fiatAmount": ["above threshold"]])
        }
        return try state.withLock { state -> CTXEmulatorGiftCard in
            guard let entry = state.merchants[body.merchantId] else {
                throw GiftCardEmulatorRejection.ctx(.notFound, "Merchant not found")
            }
            guard entry.merchant.isEnabled else { throw GiftCardEmulatorRejection.ctx(.conflict, "Merchant is not available") }
            guard GiftCardEmulatorMoney.accepts(amount, entry.merchant) else {
                let listed = entry.merchant.denominationValues.map(GiftCardEmulatorMoney.plain).joined(separator: ", ")
                throw GiftCardEmulatorRejection.ctx(
                    .unprocessableContent, "Invalid amount",
                    fields: ["fiatAmount": ["not an accepted denomination (\(entry.merchant.denominationsType.rawValue): \(listed))"]]
                )
            }
            let id = state.generator.nextUUID()
            let payment = amount * Decimal(10_000 - entry.merchant.savingsBasisPoints) / 10_000
            var exactPayment = payment
            var paymentCents = Decimal()
            NSDecimalRound(&paymentCents, &exactPayment, 2, .plain)
            var exactDash = paymentCents / configuration.dashPrice
            var dash = Decimal()
            NSDecimalRound(&dash, &exactDash, 8, .up)
            let address = "X" + state.generator.nextHex(byteCount: 16)
            let card = CTXEmulatorGiftCard(
                id: id, status: "unpaid", merchantID: entry.merchant.id, merchantName: entry.merchant.name,
                paymentID: state.generator.nextHex(byteCount: 32),
                paymentURL: "dash:\(address)?amount=\(GiftCardEmulatorMoney.plain(dash))",
                cardFiatAmount: amount, paymentFiatAmount: paymentCents, fiatCurrency: body.fiatCurrency, cryptoAmount: dash,
                savingsBasisPoints: entry.merchant.savingsBasisPoints, created: now
            )
            state.cards[id] = CTXEmulatorCard(card: card, owner: user, createdAt: now)
            state.cardOrder.append(id)
            state.purchaseCount += 1
            return card
        }
    }
}
