@_spi(EngageProvider) import EngageCore
import Foundation

extension WarplyCatalogue {
    /// A seed coupon set.
    struct CouponSetSeed {
        var key: String
        var name: WarplyLocalizedText
        var description: WarplyLocalizedText
        var discount: String
        var discountType: String
        var finalPrice: Decimal?
        var couponSetType: String
        var merchantKey: String
        var points: Int
        var expiresInDays: Int
        /// Whether the set starts sold out (availability 0).
        var isSoldOut = false
    }

    /// The coupon-set type of supermarket vouchers.
    static let supermarketCouponSetType = "supermarket"

    static let couponSetSeeds = [
        CouponSetSeed(
            key: "fuel", name: .init("Κουπόνι καυσίμων -10%", "Fuel coupon, 10% off"),
            description: .init("10% έκπτωση σε κάθε ανεφοδιασμό έως 50€.", "10% off any refuel up to €50."),
            discount: "10", discountType: "percentage", couponSetType: "coupon", merchantKey: "shell-syggrou", points: 200,
            expiresInDays: 45
        ),
        CouponSetSeed(
            key: "coffee", name: .init("Δεύτερος καφές δώρο", "Second coffee free"),
            description: .init("Αγοράστε έναν καφέ και πάρτε τον δεύτερο δώρο.", "Buy one coffee, get the second free."),
            discount: "100", discountType: "percentage", couponSetType: "coupon", merchantKey: "coffee-syntagma", points: 50,
            expiresInDays: 20
        ),
        CouponSetSeed(
            key: "cinema", name: .init("Εισιτήριο σινεμά με 5€", "Cinema ticket for €5"),
            description: .init("Ένα εισιτήριο για οποιαδήποτε ταινία με μόνο 5€.", "One ticket to any film for just €5."),
            discount: "5", discountType: "final_price", finalPrice: Decimal(5), couponSetType: "coupon", merchantKey: "village-renti",
            points: 150, expiresInDays: 60
        ),
        CouponSetSeed(
            key: "supermarket", name: .init("Κουπόνι 10€ για σούπερ μάρκετ", "€10 supermarket voucher"),
            description: .init("10€ έκπτωση σε αγορές άνω των 40€.", "€10 off purchases over €40."),
            discount: "10", discountType: "value", couponSetType: supermarketCouponSetType, merchantKey: "sklavenitis-ampelokipoi",
            points: 300, expiresInDays: 30
        ),
        CouponSetSeed(
            key: "electronics", name: .init("Έκπτωση 15% σε ηλεκτρονικά", "15% off electronics"),
            description: .init("15% έκπτωση σε τηλεοράσεις και laptop.", "15% off televisions and laptops."),
            discount: "15", discountType: "percentage", couponSetType: "coupon", merchantKey: "public-syntagma", points: 500,
            expiresInDays: 90, isSoldOut: true
        ),
        CouponSetSeed(
            key: "books", name: .init("Βιβλία με έκπτωση 20%", "20% off books"),
            description: .init("20% έκπτωση σε όλα τα ελληνικά βιβλία.", "20% off every Greek-language book."),
            discount: "20", discountType: "percentage", couponSetType: "coupon", merchantKey: "ianos-stadiou", points: 100,
            expiresInDays: 120
        ),
        CouponSetSeed(
            key: "dining", name: .init("Δείπνο για δύο -25%", "Dinner for two, 25% off"),
            description: .init("25% έκπτωση στο δείπνο για δύο άτομα.", "25% off dinner for two."),
            discount: "25", discountType: "percentage", couponSetType: "coupon", merchantKey: "tsinari-ano-poli", points: 250,
            expiresInDays: 40
        ),
        CouponSetSeed(
            key: "fitness", name: .init("Ένας μήνας γυμναστήριο δώρο", "A month at the gym, free"),
            description: .init("Ένας μήνας συνδρομή με πρόσβαση σε όλα τα τμήματα.", "One month's membership with every class."),
            discount: "100", discountType: "percentage", couponSetType: "coupon", merchantKey: "holmes-marousi", points: 400,
            expiresInDays: 75
        ),
    ]

    /// The UUID of the seed coupon set `key`.
    static func couponSetUUID(_ key: String, _ context: SeedContext) -> String {
        context.identifier("couponset", key)
    }

    static func makeCouponSets(_ context: SeedContext) -> (sets: [ServedLanguage: [ServedCouponSet]], availability: [String: Int]) {
        var sets: [ServedLanguage: [ServedCouponSet]] = [:]
        for language in ServedLanguage.allCases {
            sets[language] = couponSetSeeds.map { seed in
                ServedCouponSet(
                    uuid: couponSetUUID(seed.key, context), name: seed.name(language), description: seed.description(language),
                    imagePreview: "https://cdn.warply.emulator/couponsets/\(seed.key).jpg",
                    expiration: context.timestamp(days: seed.expiresInDays, hours: 23, minutes: 59, format: expirationFormat),
                    discount: seed.discount, discountType: seed.discountType, finalPrice: seed.finalPrice,
                    couponSetType: seed.couponSetType, merchantUUID: merchantUUID(seed.merchantKey, context),
                    terms: language == .greek ? "Ισχύει μία φορά ανά πελάτη." : "Valid once per customer.",
                    shopAvailability: language == .greek ? "Σε επιλεγμένα καταστήματα" : "At selected shops",
                    isActive: true, points: seed.points, isVisible: true
                )
            }
        }
        var generator = context.generator("availability")
        var availability: [String: Int] = [:]
        for seed in couponSetSeeds {
            let count = Int.random(in: 5...40, using: &generator)
            availability[couponSetUUID(seed.key, context)] = seed.isSoldOut ? 0 : count
        }
        return (sets, availability)
    }
}
