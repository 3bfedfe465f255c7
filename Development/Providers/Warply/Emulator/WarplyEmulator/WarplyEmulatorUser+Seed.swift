@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

extension WarplyEmulatorUser {
    /// A first name with its name day (`MM-dd`).
    private struct FirstName {
        var name: String
        var nameDay: String
    }

    private static let maleNames = [
        FirstName(name: "Γιώργος", nameDay: "04-23"), FirstName(name: "Νίκος", nameDay: "12-06"),
        FirstName(name: "Κώστας", nameDay: "05-21"), FirstName(name: "Δημήτρης", nameDay: "10-26"),
        FirstName(name: "Γιάννης", nameDay: "01-07"), FirstName(name: "Παναγιώτης", nameDay: "08-15"),
        FirstName(name: "Αλέξανδρος", nameDay: "08-30"), FirstName(name: "Βασίλης", nameDay: "01-01"),
    ]
    private static let femaleNames = [
        FirstName(name: "Μαρία", nameDay: "08-15"), FirstName(name: "Ελένη", nameDay: "05-21"),
        FirstName(name: "Κατερίνα", nameDay: "11-25"), FirstName(name: "Βασιλική", nameDay: "01-01"),
        FirstName(name: "Σοφία", nameDay: "09-17"), FirstName(name: "Αναστασία", nameDay: "12-22"),
        FirstName(name: "Δέσποινα", nameDay: "08-15"), FirstName(name: "Ιωάννα", nameDay: "01-07"),
    ]
    /// Surnames as (masculine, feminine).
    private static let surnames = [
        ("Παπαδόπουλος", "Παπαδοπούλου"), ("Γεωργίου", "Γεωργίου"), ("Οικονόμου", "Οικονόμου"), ("Νικολάου", "Νικολάου"),
        ("Καραγιάννης", "Καραγιάννη"), ("Βλάχος", "Βλάχου"), ("Αντωνίου", "Αντωνίου"), ("Μακρής", "Μακρή"),
        ("Κωνσταντίνου", "Κωνσταντίνου"), ("Παπαγεωργίου", "Παπαγεωργίου"), ("Αλεξίου", "Αλεξίου"), ("Σταθόπουλος", "Σταθοπούλου"),
    ]

    /// A coupon the user starts with: its set, and when it expires or was redeemed (days from the anchor).
    private struct CouponPlan {
        var couponSetKey: String
        var days: Int
        var isRedeemed: Bool
    }

    /// Active coupons with different expirations and redeemed ones (two from supermarkets) with
    /// different redemption dates, deliberately unsorted.
    private static let couponPlans = [
        CouponPlan(couponSetKey: "cinema", days: 40, isRedeemed: false),
        CouponPlan(couponSetKey: "supermarket", days: -2, isRedeemed: true),
        CouponPlan(couponSetKey: "coffee", days: 3, isRedeemed: false),
        CouponPlan(couponSetKey: "books", days: -12, isRedeemed: true),
        CouponPlan(couponSetKey: "fuel", days: 15, isRedeemed: false),
        CouponPlan(couponSetKey: "supermarket", days: -35, isRedeemed: true),
        CouponPlan(couponSetKey: "supermarket", days: 25, isRedeemed: false),
        CouponPlan(couponSetKey: "dining", days: -60, isRedeemed: true),
    ]

    /// A transaction the user starts with.
    private struct TransactionPlan {
        var merchantKey: String
        var daysAgo: Int
        var description: String
        var productCode: String
    }

    private static let transactionPlans = [
        TransactionPlan(merchantKey: "sklavenitis-ampelokipoi", daysAgo: 3, description: "Αγορές σούπερ μάρκετ", productCode: "SM-100"),
        TransactionPlan(merchantKey: "shell-syggrou", daysAgo: 27, description: "Αμόλυβδη 95", productCode: "FUEL-95"),
        TransactionPlan(merchantKey: "coffee-syntagma", daysAgo: 1, description: "Freddo espresso", productCode: "COF-12"),
        TransactionPlan(merchantKey: "public-syntagma", daysAgo: 14, description: "Ακουστικά", productCode: "EL-431"),
        TransactionPlan(merchantKey: "sklavenitis-kalamaria", daysAgo: 45, description: "Αγορές σούπερ μάρκετ", productCode: "SM-100"),
        TransactionPlan(merchantKey: "village-renti", daysAgo: 8, description: "Εισιτήρια κινηματογράφου", productCode: "CIN-2"),
    ]

    /// A points entry the user starts with.
    private struct PointsPlan {
        var points: Int
        var daysAgo: Int
        var source: String
        var description: String
    }

    private static let pointsPlans = [
        PointsPlan(points: 120, daysAgo: 3, source: "bill", description: "Πληρωμή λογαριασμού ΔΕΗ"),
        PointsPlan(points: -200, daysAgo: 20, source: "coupon", description: "Κουπόνι καυσίμων -10%"),
        PointsPlan(points: 50, daysAgo: 1, source: "questionnaire", description: "Συμμετοχή σε ερωτηματολόγιο"),
        PointsPlan(points: 300, daysAgo: 90, source: "welcome", description: "Μπόνους καλωσορίσματος"),
        PointsPlan(points: 85, daysAgo: 7, source: "market_pass", description: "Αγορές με Market Pass"),
        PointsPlan(points: -150, daysAgo: 40, source: "coupon", description: "Εισιτήριο σινεμά με 5€"),
    ]

    /// The user of `email` (lowercased), derived only from the seed, the email and the catalogue.
    static func seeded(email: String, catalogue: WarplyCatalogue, environment: EmulatorEnvironment) -> WarplyEmulatorUser {
        let context = WarplyCatalogue.SeedContext(environment: environment, anchor: catalogue.anchor)
        var generator = environment.makeGenerator(stream: "user/\(email)")
        return WarplyEmulatorUser(
            profile: profile(email: email, context: context, generator: &generator),
            coupons: coupons(context: context, generator: &generator),
            transactions: transactions(context: context, catalogue: catalogue, generator: &generator),
            pointsHistory: pointsHistory(context: context, generator: &generator),
            personalizedCampaignUUIDs: Array(
                (catalogue.personalizedCampaigns[.greek] ?? []).map(\.sessionUUID).shuffled(using: &generator).prefix(2)
            ),
            marketPassBarcode: "99" + digits(11, using: &generator),
            newOffers: Int.random(in: 1...5, using: &generator)
        )
    }

    private static func profile(email: String, context: WarplyCatalogue.SeedContext, generator: inout SeededGenerator) -> ServedProfile {
        let isFemale = Bool.random(using: &generator)
        let first = (isFemale ? femaleNames : maleNames).randomElement(using: &generator) ?? FirstName(name: "Μαρία", nameDay: "08-15")
        let surname = surnames.randomElement(using: &generator) ?? ("Παπαδόπουλος", "Παπαδοπούλου")
        let lastName = isFemale ? surname.1 : surname.0
        let points = Int.random(in: 800...3_000, using: &generator)
        let birthday = context.timestamp(days: -Int.random(in: 7_000...22_000, using: &generator), format: "yyyy-MM-dd")
        return ServedProfile(
            userID: generator.nextHex(byteCount: 16),
            email: email,
            firstName: first.name,
            lastName: lastName,
            displayName: "\(first.name) \(lastName.prefix(1)).",
            birthday: birthday,
            gender: isFemale ? "female" : "male",
            msisdn: "+3069" + digits(8, using: &generator),
            loyaltyID: "DEI" + digits(10, using: &generator),
            points: points,
            tier: points < 1_200 ? "bronze" : points < 2_200 ? "silver" : "gold",
            nameDay: first.nameDay,
            isSubscribed: Bool.random(using: &generator),
            language: ServedLanguage.greek.rawValue
        )
    }

    private static func coupons(context: WarplyCatalogue.SeedContext, generator: inout SeededGenerator) -> [WarplyEmulatorCoupon] {
        couponPlans.enumerated().map { index, plan in
            let format = WarplyCatalogue.dateFormats[index % WarplyCatalogue.dateFormats.count]
            let expirationDays = plan.isRedeemed ? plan.days + 30 : plan.days
            return WarplyEmulatorCoupon(
                id: generator.nextHex(byteCount: 8),
                couponSetUUID: WarplyCatalogue.couponSetUUID(plan.couponSetKey, context),
                code: couponCode(prefix: plan.couponSetKey, generator: &generator),
                barcode: digits(13, using: &generator),
                status: plan.isRedeemed ? ServedCoupon.redeemedStatus : ServedCoupon.activeStatus,
                expiration: context.timestamp(days: expirationDays, hours: 23, minutes: 59, format: format),
                redeemedDate: plan.isRedeemed
                    ? context.timestamp(days: plan.days, hours: 10 + index, minutes: 5 * index, format: format) : nil
            )
        }
    }

    private static func transactions(
        context: WarplyCatalogue.SeedContext, catalogue: WarplyCatalogue, generator: inout SeededGenerator
    ) -> [ServedTransaction] {
        transactionPlans.enumerated().map { index, plan in
            let merchantUUID = WarplyCatalogue.merchantUUID(plan.merchantKey, context)
            let cents = Int.random(in: 350...18_000, using: &generator)
            let format = WarplyCatalogue.dateFormats[index % WarplyCatalogue.dateFormats.count]
            return ServedTransaction(
                transactionID: generator.nextHex(byteCount: 8),
                date: context.timestamp(days: -plan.daysAgo, hours: 9 + index, minutes: 7 * index, format: format),
                merchantName: catalogue.merchant(uuid: merchantUUID, language: .greek)?.name,
                merchantUUID: merchantUUID,
                amount: Decimal(cents) / 100,
                points: cents / 100,
                productCode: plan.productCode,
                productDescription: plan.description,
                quantity: Int.random(in: 1...3, using: &generator)
            )
        }
    }

    private static func pointsHistory(context: WarplyCatalogue.SeedContext, generator: inout SeededGenerator) -> [ServedPointsEntry] {
        pointsPlans.enumerated().map { index, plan in
            let format = WarplyCatalogue.dateFormats[index % WarplyCatalogue.dateFormats.count]
            return ServedPointsEntry(
                id: generator.nextHex(byteCount: 8),
                date: context.timestamp(days: -plan.daysAgo, hours: 12, minutes: index * 4, format: format),
                points: plan.points,
                source: plan.source,
                description: plan.description,
                expiration: plan.points > 0 ? context.timestamp(days: 365 - plan.daysAgo, hours: 23, minutes: 59) : nil
            )
        }
    }

    /// `count` decimal digits.
    static func digits(_ count: Int, using generator: inout SeededGenerator) -> String {
        String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }

    /// A coupon code such as `FUEL-7Q2X9K`: the set's key and six characters without look-alikes.
    static func couponCode(prefix: String, generator: inout SeededGenerator) -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        let suffix = String((0..<6).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        return prefix.uppercased() + "-" + suffix
    }
}
