@_spi(EngageProvider) import EngageExplore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension CTXEmulator {
    func addGiftCardRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.get("merchants/:id") { request, context in
            try await GiftCardEmulatorRoutes.respond {
                try self.checkClient(request)
                let id = context.parameters.get("id") ?? ""
                guard let entry = self.state.withLock({ $0.merchants[id] }) else {
                    throw GiftCardEmulatorRejection.ctx(.notFound, "Merchant not found")
                }
                if entry.usesLegacySpelling { return try SandboxResponse.json(CTXLegacyMerchantWire(merchant: entry.merchant)) }
                return try SandboxResponse.json(entry.merchant)
            }
        }
        group.post("gift-cards") { request, context in
            try await GiftCardEmulatorRoutes.respond {
                try self.checkClient(request)
                let user = try self.authenticatedUser(request, environment: environment)
                let body = try await GiftCardEmulatorRoutes.decode(
                    CTXWire.PurchaseRequest.self, from: request, context: context,
                    invalid: .ctx(.badRequest, "Expected {\"cryptoCurrency\", \"fiatCurrency\", \"fiatAmount\", \"merchantId\"}.")
                )
                let card = try self.createCard(body, user: user, now: environment.now())
                return try SandboxResponse.json(card, status: .created)
            }
        }
        group.get("gift-cards/:id") { request, context in
            try await GiftCardEmulatorRoutes.respond {
                try self.checkClient(request)
                let user = try self.authenticatedUser(request, environment: environment)
                let id = context.parameters.get("id") ?? ""
                let card = self.state.withLock { state -> CTXGiftCard? in
                    state.advance(id, now: environment.now(), configuration: self.configuration)
                    guard let entry = state.cards[id], entry.owner == user else { return nil }
                    return entry.card
                }
                guard let card else { throw GiftCardEmulatorRejection.ctx(.notFound, "Gift card not found") }
                return try SandboxResponse.json(card)
            }
        }
        group.get("gift-cards") { request, _ in
            try await GiftCardEmulatorRoutes.respond {
                try self.checkClient(request)
                let user = try self.authenticatedUser(request, environment: environment)
                let txid = request.uri.queryParameters["txid"].map(String.init) ?? ""
                let cards = self.state.withLock { state -> [CTXGiftCard] in
                    state.cardOrder.compactMap { id in
                        state.advance(id, now: environment.now(), configuration: self.configuration)
                        guard let entry = state.cards[id], entry.owner == user, entry.card.paymentID == txid, !txid.isEmpty else {
                            return nil
                        }
                        return entry.card
                    }
                }
                return try SandboxResponse.json(cards)
            }
        }
    }

    /// Validates a purchase like CTX does and records an `unpaid` card.
    private func createCard(_ body: CTXWire.PurchaseRequest, user: String, now: Date) throws -> CTXGiftCard {
        guard let amount = GiftCardMoney.parse(body.fiatAmount), amount > 0, GiftCardMoney.minorUnits(of: amount) != nil else {
            throw GiftCardEmulatorRejection.ctx(.badRequest, "Invalid amount", fields: ["fiatAmount": ["must be a decimal amount"]])
        }
        guard body.cryptoCurrency == "DASH" else {
            throw GiftCardEmulatorRejection.ctx(.badRequest, "Unsupported currency", fields: ["cryptoCurrency": ["must be DASH"]])
        }
        if amount > configuration.purchaseThreshold {
            throw GiftCardEmulatorRejection.ctx(.badRequest, "Invalid amount", fields: ["fiatAmount": ["above threshold"]])
        }
        return try state.withLock { state -> CTXGiftCard in
            guard let entry = state.merchants[body.merchantId] else {
                throw GiftCardEmulatorRejection.ctx(.notFound, "Merchant not found")
            }
            guard entry.merchant.isEnabled else { throw GiftCardEmulatorRejection.ctx(.conflict, "Merchant is not available") }
            if let denominations = entry.merchant.denominations, denominations.violation(of: amount) != nil {
                throw GiftCardEmulatorRejection.ctx(
                    .unprocessableContent, "Invalid amount", fields: ["fiatAmount": ["not an accepted denomination (\(denominations))"]]
                )
            }
            let id = state.generator.nextUUID()
            let dash = amount * Decimal(10_000 - entry.merchant.savingsBasisPoints) / 10_000 / configuration.dashPrice
            var rounded = Decimal()
            var exact = dash
            NSDecimalRound(&rounded, &exact, 8, .up)
            let address = "X" + state.generator.nextHex(byteCount: 16)
            let card = CTXGiftCard(
                id: id, status: .unpaid, merchantID: entry.merchant.id, paymentID: state.generator.nextHex(byteCount: 32),
                paymentURLs: ["DASH.DASH": "dash:\(address)?amount=\(GiftCardMoney.plainString(rounded))"], fiatAmount: amount,
                fiatCurrency: body.fiatCurrency, cryptoAmount: rounded
            )
            state.cards[id] = CTXEmulatorCard(card: card, owner: user, createdAt: now)
            state.cardOrder.append(id)
            state.purchaseCount += 1
            return card
        }
    }
}
