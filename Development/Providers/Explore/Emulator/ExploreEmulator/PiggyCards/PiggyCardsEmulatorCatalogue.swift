#if PiggyCards
    import Foundation

    /// What the PiggyCards emulator sells: brands per country and their gift cards, with stock. Its own
    /// types, written to the wire by the emulator itself in the shapes of the Dash wallet's
    /// `PiggyCardsModels.swift` (see the recorded answers in the Explore tests' `Fixtures/PiggyCards`).
    public struct PiggyCardsEmulatorCatalogue: Sendable, Hashable {
        /// A brand and the countries it is sold in.
        public struct Brand: Sendable, Hashable {
            /// The brand id (a string on the wire).
            public var id: String
            /// The display name.
            public var name: String
            /// ISO country codes.
            public var countries: Set<String>
            /// A brand entry.
            public init(id: String, name: String, countries: Set<String>) {
                self.id = id
                self.name = name
                self.countries = countries
            }
        }

        /// A gift card (`GET giftcards/{country}` lists them), with PiggyCards' fields.
        public struct Product: Sendable, Hashable {
            /// The integer id (`productId` of orders).
            public var id: Int
            /// The display name.
            public var name: String
            /// `fixed`, `range` or `option`.
            public var priceType: String
            /// The discount in percent (15 is 15 %).
            public var discountPercentage: Decimal
            /// `"25"` (fixed), `"25,50,100"` (option), `""` (range).
            public var denomination: String
            /// The bounds of a range card (for the others, the smallest and largest listed value).
            public var minDenomination: Decimal
            /// The upper bound.
            public var maxDenomination: Decimal
            /// The starting stock (0 is out of stock).
            public var quantity: Int
            /// The brand (an integer on this wire, a string in the brand list).
            public var brandID: Int
            /// The card currency.
            public var currency = "USD"
            /// The listed fee (informational).
            public var fee = 0

            /// A product.
            public init(
                id: Int, name: String, priceType: String, discountPercentage: Decimal, denomination: String = "",
                minDenomination: Decimal = 0, maxDenomination: Decimal = 0, quantity: Int, brandID: Int
            ) {
                self.id = id
                self.name = name
                self.priceType = priceType
                self.discountPercentage = discountPercentage
                self.denomination = denomination
                self.minDenomination = minDenomination
                self.maxDenomination = maxDenomination
                self.quantity = quantity
                self.brandID = brandID
            }

            /// Whether a card of `amount` can be ordered: a listed value of a fixed or option card, or
            /// within a range card's bounds.
            func accepts(_ amount: Decimal) -> Bool {
                guard amount > 0 else { return false }
                if priceType == "range" { return amount >= minDenomination && amount <= maxDenomination }
                let listed = denomination.split(separator: ",").compactMap {
                    GiftCardEmulatorMoney.parse($0.trimmingCharacters(in: .whitespaces))
                }
                return listed.contains(amount)
            }

            /// A JSON number (whole numbers are written without a fraction).
            static func number(_ value: Decimal) -> Any {
                let double = NSDecimalNumber(decimal: value).doubleValue
                return double.rounded() == double && abs(double) < 1e15 ? Int(double) as Any : double as Any
            }

            /// The JSON object of `GET giftcards/{country}` (`PiggyCardsGiftcard`: integer ids, fee and
            /// quantity; numbers for the discount and bounds; the denomination a string).
            func wireObject(quantity: Int) -> [String: Any] {
                [
                    "id": id, "name": name, "description": "\(name) gift card.", "image": "https://api.piggy.cards/images/\(id).png",
                    "price_type": priceType, "currency": currency, "discount_percentage": Self.number(discountPercentage),
                    "min_denomination": Self.number(minDenomination), "max_denomination": Self.number(maxDenomination),
                    "denomination": denomination, "fee": fee,
                    "quantity": quantity, "brand_id": brandID,
                ]
            }
        }

        /// The brands.
        public var brands: [Brand]
        /// The products.
        public var products: [Product]

        /// A catalogue.
        public init(brands: [Brand], products: [Product]) {
            self.brands = brands
            self.products = products
        }

        /// Three US brands and five cards: fixed `"25"` at 2.5 % (1001), option `"25,50,100"` at 15 %
        /// (1002), range 10–500 at 5 % (1003), option `"10,20"` without a discount (1004), and the
        /// out-of-stock fixed `"50"` (2626).
        public static let standard = PiggyCardsEmulatorCatalogue(
            brands: [
                Brand(id: "11", name: "Shopmart", countries: ["US", "CA"]),
                Brand(id: "12", name: "Streamly", countries: ["US"]),
                Brand(id: "13", name: "Fuel Stop", countries: ["US"]),
            ],
            products: [
                Product(
                    id: 1001, name: "Shopmart $25", priceType: "fixed", discountPercentage: 2.5, denomination: "25",
                    minDenomination: 25, maxDenomination: 25, quantity: 100, brandID: 11),
                Product(
                    id: 1002, name: "Shopmart", priceType: "option", discountPercentage: 15, denomination: "25,50,100", minDenomination: 25,
                    maxDenomination: 100, quantity: 100, brandID: 11),
                Product(
                    id: 1003, name: "Streamly", priceType: "range", discountPercentage: 5, minDenomination: 10, maxDenomination: 500,
                    quantity: 100, brandID: 12),
                Product(
                    id: 1004, name: "Streamly mini", priceType: "option", discountPercentage: 0, denomination: "10,20", minDenomination: 10,
                    maxDenomination: 20, quantity: 100, brandID: 12),
                Product(
                    id: 2626, name: "Fuel Stop $50", priceType: "fixed", discountPercentage: 3, denomination: "50", minDenomination: 50,
                    maxDenomination: 50, quantity: 0, brandID: 13),
            ]
        )
    }
#endif
