#if PiggyCards
    @_spi(EngageProvider) import EngageCore
    @_spi(EngageProvider) import EngageExplore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation

    /// An order the PiggyCards emulator holds, with the amounts it computed itself.
    public struct PiggyCardsEmulatorOrder: Sendable, Hashable {
        /// The order id.
        public var id: String
        /// The ordering user.
        public var userID: String
        /// The product.
        public var productID: String
        /// How many cards.
        public var quantity: Int
        /// Face value of the order, cents.
        public var faceValueMinorUnits: Int
        /// The 1.5 % service fee, cents.
        public var serviceFeeMinorUnits: Int
        /// What the user pays, cents.
        public var totalMinorUnits: Int
        /// The Dash amount asked in `payMessage`.
        public var dashAmount: Decimal
        /// Its status.
        public var status: PiggyCardsOrderStatus
        /// Delivered cards (once `Complete`).
        package var cards: [PiggyCardsWire.Card]
        var createdAt: Date
        var paidAt: Date?
    }

    /// A PiggyCards user.
    struct PiggyCardsEmulatorUser: Sendable {
        var userID: String
        var email: String
        var otp: String
        var password: String?
    }

    /// The PiggyCards emulator's mutable state, behind its lock.
    struct PiggyCardsEmulatorState {
        var catalogue: PiggyCardsEmulatorCatalogue
        var stock: [String: Int]
        var generator: SeededGenerator
        var users: [String: PiggyCardsEmulatorUser] = [:]
        var orders: [String: PiggyCardsEmulatorOrder] = [:]
        var loginCount = 0

        init(catalogue: PiggyCardsEmulatorCatalogue, seed: UInt64) {
            self.catalogue = catalogue
            stock = Dictionary(catalogue.products.map { ($0.id, $0.quantity ?? 1_000) }, uniquingKeysWith: { first, _ in first })
            generator = SeededGenerator(seed: seed, stream: "piggycards/state")
        }

        /// Moves the order along at `now`: `Processing` once paid, `Complete` `fulfillmentDelay` after payment.
        mutating func advance(_ id: String, now: Date, configuration: PiggyCardsEmulator.Configuration) {
            guard var order = orders[id], let paidAt = order.paidAt, !order.status.isFinal else { return }
            if now >= paidAt.adding(configuration.fulfillmentDelay) {
                order.status = .complete
                order.cards = (0..<order.quantity).map { _ in
                    PiggyCardsWire.Card(
                        claimCode: "PC-" + generator.nextHex(byteCount: 8).uppercased(), claimPin: generator.nextDigits(8),
                        barcodeLink: "https://api.piggy.cards/barcodes/\(generator.nextHex(byteCount: 12)).png"
                    )
                }
            } else if now >= paidAt.adding(configuration.processingDelay) {
                order.status = .processing
            }
            orders[id] = order
        }
    }
#endif
