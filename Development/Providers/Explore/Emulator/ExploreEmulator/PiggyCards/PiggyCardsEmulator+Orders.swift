#if PiggyCards
    @_spi(EngageProvider) import EngageCore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import Hummingbird

    /// `POST orders` as the Dash wallet sends it (`PiggyCardsOrderRequest` and the types beside it):
    /// integer product ids, the denomination a JSON number, the user block with its metadata. The
    /// emulator's own types; every key is required, as the official types declare them.
    private struct PiggyCardsOrderBody: Decodable {
        struct Line: Decodable {
            var productId: Int
            var quantity: Int
            var denomination: Double
            var currency: String
        }
        struct User: Decodable {
            struct Metadata: Decodable {
                var registeredSince: String
                var country: String
                var state: String
            }
            var name: String
            var ip: String
            var metadata: Metadata
        }
        var orders: [Line]
        var recipientEmail: String
        var user: User
    }

    extension PiggyCardsEmulator {
        func addOrderRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
            group.post("orders") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    let userID = try self.authenticatedUser(request, environment: environment)
                    let body = try await GiftCardEmulatorRoutes.decode(
                        PiggyCardsOrderBody.self, from: request, context: context,
                        invalid: .piggy(
                            .badRequest, "Expected {orders: [{productId, quantity, denomination, currency}], recipientEmail, user}")
                    )
                    guard body.orders.count == 1, let line = body.orders.first else {
                        throw GiftCardEmulatorRejection.piggy(.badRequest, "Exactly one order line is supported")
                    }
                    guard body.recipientEmail.contains("@") else {
                        throw GiftCardEmulatorRejection.piggy(.badRequest, "Invalid recipientEmail")
                    }
                    let order = try self.placeOrder(line, userID: userID, now: environment.now())
                    return GiftCardEmulatorRoutes.jsonResponse([
                        "id": order.id, "payTo": order.payTo,
                        "payMessage": "Send \(GiftCardEmulatorMoney.plain(order.dashAmount)) DASH to pay order \(order.id)",
                    ])
                }
            }
            group.get("orders/:id") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    let userID = try self.authenticatedUser(request, environment: environment)
                    let id = context.parameters.get("id") ?? ""
                    let now = environment.now()
                    let order = self.state.withLock { state -> PiggyCardsEmulatorOrder? in
                        state.advance(id, now: now, configuration: self.configuration)
                        return state.orders[id].flatMap { $0.userID == userID ? $0 : nil }
                    }
                    guard let order else { throw GiftCardEmulatorRejection.piggy(.notFound, "Order not found") }
                    let name = self.catalogue.products.first { $0.id == order.productID }?.name ?? ""
                    return GiftCardEmulatorRoutes.jsonResponse([
                        "code": 200, "message": "Success", "data": order.wireObject(productName: name, now: now),
                    ])
                }
            }
        }

        /// Validates and records an order, computing its amounts in decimal arithmetic (independently of
        /// the client's integer quote): the wallet's 1.5 points come off the percent discount.
        private func placeOrder(_ line: PiggyCardsOrderBody.Line, userID: String, now: Date) throws -> PiggyCardsEmulatorOrder {
            guard let product = catalogue.products.first(where: { $0.id == line.productId }) else {
                throw GiftCardEmulatorRejection.piggy(.notFound, "Gift card \(line.productId) not found")
            }
            guard line.denomination.isFinite, let denomination = Decimal(string: "\(line.denomination)"), line.quantity >= 1,
                product.accepts(denomination), GiftCardEmulatorMoney.rounded(denomination, scale: 2) == denomination
            else {
                throw GiftCardEmulatorRejection.piggy(.badRequest, "Invalid denomination \(line.denomination) for gift card \(product.id)")
            }
            let face = denomination * Decimal(line.quantity)
            guard face <= 2_500 else {
                throw GiftCardEmulatorRejection.piggy(.badRequest, "Order amount exceeds the maximum of 2500")
            }
            let discount = GiftCardEmulatorMoney.rounded(face * product.discountPercentage / 100, scale: 2)
            let paidDiscount = GiftCardEmulatorMoney.rounded(face * max(0, product.discountPercentage - 1.5) / 100, scale: 2)
            let total = face - paidDiscount
            var dash = total / configuration.dashRate
            var dashRounded = Decimal()
            NSDecimalRound(&dashRounded, &dash, 8, .up)
            return try state.withLock { state in
                guard let left = state.stock[product.id], left >= line.quantity else {
                    throw GiftCardEmulatorRejection.outOfStock(product.id)
                }
                state.stock[product.id] = left - line.quantity
                let order = PiggyCardsEmulatorOrder(
                    id: state.generator.nextUUID(), userID: userID, productID: product.id, quantity: line.quantity,
                    faceValueMinorUnits: Self.cents(face), serviceFeeMinorUnits: Self.cents(discount - paidDiscount),
                    totalMinorUnits: Self.cents(total), dashAmount: dashRounded, address: "X" + state.generator.nextHex(byteCount: 16),
                    status: .paymentPending, cards: [], createdAt: now
                )
                state.orders[order.id] = order
                return order
            }
        }

        private static func cents(_ value: Decimal) -> Int {
            NSDecimalNumber(decimal: GiftCardEmulatorMoney.rounded(value * 100, scale: 0)).intValue
        }
    }
#endif
