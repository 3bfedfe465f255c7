#if PiggyCards
    @_spi(EngageProvider) import EngageCore
    @_spi(EngageProvider) import EngageExplore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import Hummingbird

    extension PiggyCardsEmulator {
        func addOrderRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
            group.post("orders") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    let userID = try self.authenticatedUser(request, environment: environment)
                    let body = try await GiftCardEmulatorRoutes.decode(
                        PiggyCardsWire.OrderRequest.self, from: request, context: context,
                        invalid: .piggy(.badRequest, "Invalid order body")
                    )
                    guard body.orders.count == 1, let line = body.orders.first else {
                        throw GiftCardEmulatorRejection.piggy(.badRequest, "Exactly one order line is supported")
                    }
                    let order = try self.placeOrder(line, userID: userID, now: environment.now())
                    let payMessage = "dash:\(order.payTo)?amount=\(GiftCardMoney.plainString(order.order.dashAmount))&label=PiggyCards"
                    return try SandboxResponse.json(
                        PiggyCardsWire.OrderAnswer(id: order.order.id, payTo: order.payTo, payMessage: payMessage))
                }
            }
            group.get("orders/:id") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    let userID = try self.authenticatedUser(request, environment: environment)
                    let id = context.parameters.get("id") ?? ""
                    let order = self.state.withLock { state -> PiggyCardsEmulatorOrder? in
                        state.advance(id, now: environment.now(), configuration: self.configuration)
                        return state.orders[id].flatMap { $0.userID == userID ? $0 : nil }
                    }
                    guard let order else { throw GiftCardEmulatorRejection.piggy(.notFound, "Order not found") }
                    return try SandboxResponse.json(
                        PiggyCardsWire.OrderStatusAnswer(id: order.id, status: order.status.rawValue, cards: order.cards))
                }
            }
        }

        /// Validates and records an order, computing its amounts in decimal arithmetic (independently of
        /// the client's integer quote).
        private func placeOrder(
            _ line: PiggyCardsWire.OrderLine, userID: String, now: Date
        ) throws -> (order: PiggyCardsEmulatorOrder, payTo: String) {
            guard let product = catalogue.products.first(where: { $0.id == line.productId }) else {
                throw GiftCardEmulatorRejection.piggy(.notFound, "Gift card \(line.productId) not found")
            }
            guard let denomination = GiftCardMoney.parse(line.denomination), line.quantity >= 1,
                let denominations = product.denominations, denominations.violation(of: denomination) == nil
            else {
                throw GiftCardEmulatorRejection.piggy(
                    .badRequest, "Invalid denomination \(line.denomination.prefix(20)) for gift card \(product.id)")
            }
            let face = denomination * Decimal(line.quantity)
            guard face <= PiggyCardsWire.maxOrderAmount else {
                throw GiftCardEmulatorRejection.piggy(.badRequest, "Order amount exceeds the maximum of 2500")
            }
            // The price the Dash wallet shows: its 1.5 points come off the discount (never below none).
            let discount = Self.rounded(face * Decimal(product.discountBasisPoints) / 10_000, scale: 2)
            let paidDiscount = Self.rounded(face * Decimal(max(0, product.discountBasisPoints - 150)) / 10_000, scale: 2)
            let fee = discount - paidDiscount
            let total = face - paidDiscount
            var dash = total / configuration.dashRate
            var dashRounded = Decimal()
            NSDecimalRound(&dashRounded, &dash, 8, .up)
            return try state.withLock { state in
                guard let left = state.stock[product.id], left >= line.quantity else {
                    throw GiftCardEmulatorRejection.piggy(.internalServerError, "Gift card \(product.id) is out of stock")
                }
                state.stock[product.id] = left - line.quantity
                let order = PiggyCardsEmulatorOrder(
                    id: state.generator.nextUUID(), userID: userID, productID: product.id, quantity: line.quantity,
                    faceValueMinorUnits: Self.cents(face), serviceFeeMinorUnits: Self.cents(fee), totalMinorUnits: Self.cents(total),
                    dashAmount: dashRounded, status: .paymentPending, cards: [], createdAt: now
                )
                state.orders[order.id] = order
                return (order, "X" + state.generator.nextHex(byteCount: 16))
            }
        }

        private static func rounded(_ value: Decimal, scale: Int) -> Decimal {
            var input = value
            var output = Decimal()
            NSDecimalRound(&output, &input, scale, .plain)
            return output
        }

        private static func cents(_ value: Decimal) -> Int {
            NSDecimalNumber(decimal: rounded(value * 100, scale: 0)).intValue
        }
    }
#endif
