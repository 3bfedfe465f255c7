#if PiggyCards
    @_spi(EngageProvider) import EngageCore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation

    /// An order the PiggyCards emulator holds, with the amounts it computed itself.
    public struct PiggyCardsEmulatorOrder: Sendable, Hashable {
        /// Where an order is: PiggyCards' status strings (`PiggyCardsOrderStatus` in the Dash wallet's
        /// `PiggyCardsModels.swift`).
        public enum Status: String, Sendable, Hashable {
            /// Created; waiting for the Dash payment.
            case paymentPending = "Payment pending"
            /// Paid.
            case paid = "Paid"
            /// Being issued.
            case processing = "Processing"
            /// Delivered.
            case complete = "Complete"
            /// Cancelled.
            case cancelled = "Cancelled"

            /// Whether the order will not change any more.
            var isFinal: Bool { self == .complete || self == .cancelled }
        }

        /// A delivered card: a claim code and PIN with a barcode link, or a claim link.
        public struct Card: Sendable, Hashable {
            /// The claim code (none for a card claimed by link).
            public var claimCode: String?
            /// The claim PIN.
            public var claimPin: String?
            /// The barcode image link.
            public var barcodeLink: String?
            /// The link that redeems the card on the brand's site.
            public var claimLink: String?
        }

        /// The order id.
        public var id: String
        /// The ordering user.
        public var userID: String
        /// The product.
        public var productID: Int
        /// How many cards.
        public var quantity: Int
        /// Face value of the order, cents.
        public var faceValueMinorUnits: Int
        /// The 1.5-point service fee, cents.
        public var serviceFeeMinorUnits: Int
        /// What the user pays, cents.
        public var totalMinorUnits: Int
        /// The Dash amount asked in `payTo`.
        public var dashAmount: Decimal
        /// The Dash address to pay.
        public var address: String
        /// Its status.
        public var status: Status
        /// Delivered cards (once `Complete`).
        public var cards: [Card]
        var createdAt: Date
        var paidAt: Date?

        /// The payment URI, `dash:<address>?amount=<DASH>`.
        var payTo: String { "dash:\(address)?amount=\(GiftCardEmulatorMoney.plain(dashAmount))" }

        /// The JSON object of `GET orders/{id}`'s `data` (`PiggyCardsOrderData`), the cards as
        /// `PiggyCardsOrderGiftCard`s.
        func wireObject(productName: String, now: Date) -> [String: Any] {
            var object: [String: Any] = [
                "orderId": id, "payTo": payTo, "status": status.rawValue,
                "cards": cards.map { card -> [String: Any] in
                    [
                        "name": productName, "claimCode": card.claimCode ?? "", "claimPin": card.claimPin ?? "",
                        "barcodeLink": card.barcodeLink ?? "", "cardStatus": "active", "claimLink": card.claimLink ?? "",
                        "answer": NSNull(),
                    ]
                },
            ]
            object["deliveryTime"] = paidAt.map { $0.formatted(.iso8601) } ?? NSNull()
            return object
        }
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
        var stock: [Int: Int]
        var generator: SeededGenerator
        var users: [String: PiggyCardsEmulatorUser] = [:]
        var orders: [String: PiggyCardsEmulatorOrder] = [:]
        var loginCount = 0

        init(catalogue: PiggyCardsEmulatorCatalogue, seed: UInt64) {
            self.catalogue = catalogue
            stock = Dictionary(catalogue.products.map { ($0.id, $0.quantity) }, uniquingKeysWith: { first, _ in first })
            generator = SeededGenerator(seed: seed, stream: "piggycards/state")
        }

        /// Moves the order along at `now`: `Processing` once paid, `Complete` `fulfillmentDelay` after
        /// payment. The cards of a range product are claimed by link; the others have a claim code, PIN
        /// and barcode.
        mutating func advance(_ id: String, now: Date, configuration: PiggyCardsEmulator.Configuration) {
            if var order = orders[id], order.status == .paymentPending, let delay = configuration.autoPayDelay,
                now >= order.createdAt.adding(delay)
            {
                order.status = .paid
                order.paidAt = order.createdAt.adding(delay)
                orders[id] = order
            }
            guard var order = orders[id], let paidAt = order.paidAt, !order.status.isFinal else { return }
            if now >= paidAt.adding(configuration.fulfillmentDelay) {
                order.status = .complete
                let byLink = catalogue.products.first { $0.id == order.productID }?.priceType == "range"
                order.cards = (0..<order.quantity).map { _ in
                    if byLink {
                        return PiggyCardsEmulatorOrder.Card(claimLink: "https://claim.piggy.cards/\(generator.nextHex(byteCount: 12))")
                    }
                    let code = "PC-" + generator.nextHex(byteCount: 8).uppercased()
                    return PiggyCardsEmulatorOrder.Card(
                        claimCode: code, claimPin: generator.nextDigits(8),
                        barcodeLink: "https://api.piggy.cards/barcode?text=\(code)&format=CODE_128"
                    )
                }
            } else if now >= paidAt.adding(configuration.processingDelay) {
                order.status = .processing
            }
            orders[id] = order
        }
    }
#endif
