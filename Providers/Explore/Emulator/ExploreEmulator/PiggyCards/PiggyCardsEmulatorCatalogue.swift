#if PiggyCards
    @_spi(EngageProvider) import EngageExplore
    import Foundation

    /// What the PiggyCards emulator sells: brands per country and their products, with stock.
    public struct PiggyCardsEmulatorCatalogue: Sendable, Hashable {
        /// A brand and the countries it is sold in.
        public struct Brand: Sendable, Hashable {
            /// The brand as `brands/{country}` lists it.
            public var brand: PiggyCardsBrand
            /// ISO country codes.
            public var countries: Set<String>
            /// A brand entry.
            public init(_ brand: PiggyCardsBrand, countries: Set<String>) {
                self.brand = brand
                self.countries = countries
            }
        }

        /// The brands.
        public var brands: [Brand]
        /// The products (`quantity` is the starting stock; 0 is out of stock).
        public var products: [PiggyCardsProduct]

        /// A catalogue.
        public init(brands: [Brand], products: [PiggyCardsProduct]) {
            self.brands = brands
            self.products = products
        }

        /// Three US brands and five products: fixed `"25"` (1001), option `"25,50,100"` at 15 % (1002),
        /// range 10–500 at 5 % (1003), option `"10,20"` (1004), and the out-of-stock fixed `"50"` (2626).
        public static let standard = PiggyCardsEmulatorCatalogue(
            brands: [
                Brand(PiggyCardsBrand(id: "11", name: "Shopmart", logo: "https://api.piggy.cards/logos/11.png"), countries: ["US", "CA"]),
                Brand(PiggyCardsBrand(id: "12", name: "Streamly"), countries: ["US"]),
                Brand(PiggyCardsBrand(id: "13", name: "Fuel Stop"), countries: ["US"]),
            ],
            products: [
                PiggyCardsProduct(
                    id: "1001", name: "Shopmart $25", priceType: .fixed, discountBasisPoints: 250, denominationValues: [25], fee: 0,
                    quantity: 100, brandID: "11"),
                PiggyCardsProduct(
                    id: "1002", name: "Shopmart", priceType: .option, discountBasisPoints: 1_500, denominationValues: [25, 50, 100],
                    quantity: 100, brandID: "11"
                ),
                PiggyCardsProduct(
                    id: "1003", name: "Streamly", priceType: .range, discountBasisPoints: 500, minDenomination: 10, maxDenomination: 500,
                    quantity: 100,
                    brandID: "12"
                ),
                PiggyCardsProduct(
                    id: "1004", name: "Streamly mini", priceType: .option, denominationValues: [10, 20], quantity: 100, brandID: "12"),
                PiggyCardsProduct(
                    id: "2626", name: "Fuel Stop $50", priceType: .fixed, discountBasisPoints: 300, denominationValues: [50], quantity: 0,
                    brandID: "13"),
            ]
        )
    }
#endif
