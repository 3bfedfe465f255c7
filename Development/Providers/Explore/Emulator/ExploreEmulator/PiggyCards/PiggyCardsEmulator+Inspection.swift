#if PiggyCards
    @_spi(EngageProvider) import EngageCore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation

    extension PiggyCardsEmulator: InspectableEmulator {
        /// Four tables: `Accounts` (e-mail, user id, whether the one-time password was verified; never
        /// the password or the OTP), `Orders` (newest first, with the amounts the emulator computed and
        /// the status as last stored), `Delivered cards` (claim codes and PINs by their last four) and
        /// `Stock` (what is left of each product). An order's status moves on when a client reads it.
        public func inspect() -> EmulatorStateView {
            state.withLock { state -> EmulatorStateView in
                var ordersByUser: [String: Int] = [:]
                for order in state.orders.values { ordersByUser[order.userID, default: 0] += 1 }
                let emailByUserID = Dictionary(state.users.values.map { ($0.userID, $0.email) }, uniquingKeysWith: { first, _ in first })
                let accounts = state.users.values.sorted { $0.email < $1.email }.prefix(EmulatorStateView.rowLimit).map {
                    user -> [String] in
                    [user.email, user.userID, user.password == nil ? "no" : "yes", String(ordersByUser[user.userID] ?? 0)]
                }
                let orders = Array(
                    state.orders.values.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }.prefix(EmulatorStateView.rowLimit))
                let orderRows = orders.map { order -> [String] in
                    [
                        order.id, emailByUserID[order.userID] ?? order.userID, Self.productName(order.productID, in: state.catalogue),
                        String(order.quantity), Self.amount(order.faceValueMinorUnits), Self.amount(order.serviceFeeMinorUnits),
                        Self.amount(order.totalMinorUnits), GiftCardEmulatorMoney.plain(order.dashAmount), order.status.rawValue,
                        order.createdAt.formatted(.iso8601),
                        order.paidAt.map { $0.formatted(.iso8601) } ?? "",
                    ]
                }
                var cardRows: [[String]] = []
                for order in orders {
                    for card in order.cards where cardRows.count < EmulatorStateView.rowLimit {
                        cardRows.append([
                            order.id, EmulatorStateView.lastFour(card.claimCode ?? ""), EmulatorStateView.lastFour(card.claimPin ?? ""),
                            card.claimLink == nil ? "no" : "yes",
                        ])
                    }
                }
                let stock = state.catalogue.products.prefix(EmulatorStateView.rowLimit).map { product -> [String] in
                    [String(product.id), product.name, state.stock[product.id].map { String($0) } ?? ""]
                }
                return EmulatorStateView(tables: [
                    .init(title: "Accounts", columns: ["email", "user id", "verified", "orders"], rows: accounts),
                    .init(
                        title: "Orders",
                        columns: [
                            "id", "user", "product", "quantity", "face value", "fee", "total", "DASH", "status", "created at", "paid at",
                        ],
                        rows: orderRows
                    ),
                    .init(title: "Delivered cards", columns: ["order", "claim code", "PIN", "claim link"], rows: cardRows),
                    .init(title: "Stock", columns: ["product", "name", "left"], rows: stock),
                ])
            }
        }

        /// Back to a fresh start: no accounts or orders, the catalogue's starting stock, the login count
        /// at zero. Ids, passwords and card secrets issued afterwards are the same as after a fresh start
        /// with the same seed.
        public func reset() {
            state.withLock { $0 = PiggyCardsEmulatorState(catalogue: catalogue, seed: seed) }
        }

        /// The name of the catalogue's product `id`, or the id when it is not in the catalogue.
        private static func productName(_ id: Int, in catalogue: PiggyCardsEmulatorCatalogue) -> String {
            catalogue.products.first { $0.id == id }?.name ?? String(id)
        }

        /// `minorUnits` cents with two decimals.
        private static func amount(_ minorUnits: Int) -> String {
            GiftCardEmulatorMoney.cents(Decimal(minorUnits) / 100)
        }
    }
#endif
