@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

extension WarplyCatalogue {
    /// The web page of the campaign `sessionUUID` (its `index_url`), with `{id}` for the session UUID:
    /// the form of the links to campaigns the sandbox's configuration routes to Warply.
    static let campaignPageTemplate = "https://engage-uat.dei.gr/campaigns/{id}/index.html"

    /// The web page of the campaign `sessionUUID`.
    static func campaignPage(_ sessionUUID: String) -> String {
        campaignPageTemplate.replacingOccurrences(of: "{id}", with: sessionUUID)
    }

    /// A seed campaign.
    private struct CampaignSeed {
        var key: String
        var title: WarplyLocalizedText
        var subtitle: WarplyLocalizedText
        var offerCategory: String
        var type: String
        var couponSetKey: String?
        var isCarousel = false
        var filter: String
        /// Whether `index_url` and `logo_url` are sent with escaped slashes (`https:\/\/…`).
        var escapesURLs = false
        var startDays = -10
        var endDays = 60
        var communicationCategory = "rewards"
    }

    private static let campaignSeeds = [
        CampaignSeed(
            key: "fuel", title: .init("Έκπτωση 10% στα καύσιμα", "10% off fuel"),
            subtitle: .init("Σε όλα τα πρατήρια Shell", "At every Shell station"), offerCategory: "fuel", type: "coupon",
            couponSetKey: "fuel", filter: "mobility", escapesURLs: true
        ),
        CampaignSeed(
            key: "coffee", title: .init("Δεύτερος καφές δώρο", "Second coffee on us"),
            subtitle: .init("Στα Coffee Island", "At Coffee Island"), offerCategory: "food", type: "coupon", couponSetKey: "coffee",
            filter: "food"
        ),
        CampaignSeed(
            key: "cinema", title: .init("Εισιτήριο σινεμά με 5€", "Cinema ticket for €5"),
            subtitle: .init("Στα Village Cinemas", "At Village Cinemas"), offerCategory: "entertainment", type: "coupon",
            couponSetKey: "cinema", filter: "entertainment", escapesURLs: true
        ),
        CampaignSeed(
            key: "supermarket", title: .init("Κουπόνι 10€ για σούπερ μάρκετ", "€10 supermarket voucher"),
            subtitle: .init("Με το Market Pass", "With Market Pass"), offerCategory: "supermarket",
            type: ServedCampaign.supermarketType, couponSetKey: "supermarket", filter: "supermarket"
        ),
        CampaignSeed(
            key: "telco", title: .init("Δωρεάν 5GB δεδομένα", "5GB of free mobile data"),
            subtitle: .init("Για συνδρομητές Cosmote", "For Cosmote subscribers"), offerCategory: ServedCampaign.telcoCategory,
            type: "coupon", filter: "telco", escapesURLs: true, communicationCategory: "partners"
        ),
        CampaignSeed(
            key: "ccms", title: .init("Η προσωπική σας προσφορά ρεύματος", "Your personal energy offer"),
            subtitle: .init("Ειδική τιμή kWh για 12 μήνες", "A special kWh price for 12 months"), offerCategory: "energy",
            type: ServedCampaign.ccmsType, filter: "energy", communicationCategory: "energy"
        ),
        CampaignSeed(
            key: "questionnaire", title: .init("Πείτε μας τη γνώμη σας", "Tell us what you think"),
            subtitle: .init("Κερδίστε 50 πόντους", "Earn 50 points"), offerCategory: "rewards",
            type: ServedCampaign.questionnaireType, filter: "rewards"
        ),
        CampaignSeed(
            key: "summer", title: .init("Καλοκαιρινές προσφορές", "Summer deals"),
            subtitle: .init("Οι καλύτερες εκπτώσεις της σεζόν", "The best discounts of the season"), offerCategory: "seasonal",
            type: "coupon", isCarousel: true, filter: "seasonal", escapesURLs: true, startDays: -3, endDays: 30
        ),
        CampaignSeed(
            key: "double-points", title: .init("Διπλοί πόντοι αυτόν τον μήνα", "Double points this month"),
            subtitle: .init("Σε κάθε πληρωμή λογαριασμού", "On every bill payment"), offerCategory: "rewards", type: "info",
            isCarousel: true, filter: "rewards", startDays: -1, endDays: 29
        ),
        CampaignSeed(
            key: "electronics", title: .init("Έκπτωση 15% σε ηλεκτρονικά", "15% off electronics"),
            subtitle: .init("Στα καταστήματα Public", "At Public stores"), offerCategory: "shopping", type: "coupon",
            couponSetKey: "electronics", filter: "shopping"
        ),
        CampaignSeed(
            key: "books", title: .init("Βιβλία με έκπτωση 20%", "20% off books"),
            subtitle: .init("Στον Ιανό", "At Ianos"), offerCategory: "entertainment", type: "coupon", couponSetKey: "books",
            filter: "entertainment", escapesURLs: true
        ),
        CampaignSeed(
            key: "dining", title: .init("Δείπνο για δύο με 25% έκπτωση", "Dinner for two, 25% off"),
            subtitle: .init("Στο Τσινάρι, Θεσσαλονίκη", "At Tsinari, Thessaloniki"), offerCategory: "food", type: "coupon",
            couponSetKey: "dining", filter: "food"
        ),
        CampaignSeed(
            key: "fitness", title: .init("Ένας μήνας γυμναστήριο δώρο", "A month at the gym, free"),
            subtitle: .init("Στα Holmes Place", "At Holmes Place"), offerCategory: "wellness", type: "coupon", couponSetKey: "fitness",
            filter: "wellness", startDays: -20, endDays: 10
        ),
        CampaignSeed(
            key: "energy-bill", title: .init("Πόντοι για κάθε λογαριασμό ΔΕΗ", "Points for every DEI bill"),
            subtitle: .init("10 πόντοι ανά 10€", "10 points per €10"), offerCategory: "energy", type: "info", filter: "energy",
            startDays: -90, endDays: 275, communicationCategory: "energy"
        ),
    ]

    private static let personalizedSeeds = [
        CampaignSeed(
            key: "personal-coffee", title: .init("Μόνο για εσάς: καφές -50%", "Just for you: coffee 50% off"),
            subtitle: .init("Αυτή την εβδομάδα", "This week"), offerCategory: "food", type: "coupon", couponSetKey: "coffee",
            filter: "food", startDays: -1, endDays: 6
        ),
        CampaignSeed(
            key: "personal-birthday", title: .init("Χρόνια πολλά! 100 πόντοι δώρο", "Happy birthday! 100 bonus points"),
            subtitle: .init("Από όλους εμάς", "From all of us"), offerCategory: "rewards", type: "info", filter: "rewards",
            escapesURLs: true, startDays: 0, endDays: 14
        ),
        CampaignSeed(
            key: "personal-fuel", title: .init("Επιστροφή 5€ στα καύσιμα", "€5 back on fuel"),
            subtitle: .init("Για τον επόμενο ανεφοδιασμό σας", "On your next refuel"), offerCategory: "fuel", type: "coupon",
            couponSetKey: "fuel", filter: "mobility", startDays: -2, endDays: 20
        ),
        CampaignSeed(
            key: "personal-books", title: .init("Διπλή έκπτωση στα βιβλία", "Double discount on books"),
            subtitle: .init("Επειδή σας αρέσει το διάβασμα", "Because you love reading"), offerCategory: "entertainment",
            type: "coupon", couponSetKey: "books", filter: "entertainment", startDays: -5, endDays: 25
        ),
    ]

    static func makeCampaigns(_ context: SeedContext, extraCount: Int) -> [ServedLanguage: [ServedCampaign]] {
        var generator = context.generator("campaign-sorting")
        let sortings = Array(1...campaignSeeds.count).shuffled(using: &generator)
        var result: [ServedLanguage: [ServedCampaign]] = [:]
        for language in ServedLanguage.allCases {
            var list = zip(campaignSeeds, sortings).enumerated().map { index, pair in
                campaign(pair.0, sorting: pair.1, index: index, language: language, context: context)
            }
            for number in 0..<extraCount {
                list.append(extraCampaign(number, language: language, context: context))
            }
            result[language] = list
        }
        return result
    }

    static func makePersonalizedCampaigns(_ context: SeedContext) -> [ServedLanguage: [ServedCampaign]] {
        var generator = context.generator("personalized-sorting")
        let sortings = Array(1...personalizedSeeds.count).map { $0 + 20 }.shuffled(using: &generator)
        var result: [ServedLanguage: [ServedCampaign]] = [:]
        for language in ServedLanguage.allCases {
            result[language] = zip(personalizedSeeds, sortings).enumerated().map { index, pair in
                campaign(pair.0, sorting: pair.1, index: index + 1, language: language, context: context)
            }
        }
        return result
    }

    private static func campaign(
        _ seed: CampaignSeed, sorting: Int, index: Int, language: ServedLanguage, context: SeedContext
    ) -> ServedCampaign {
        let uuid = context.identifier("campaign", seed.key)
        let indexURL = campaignPage(uuid)
        let logoURL = "https://cdn.warply.emulator/campaigns/\(seed.key)/logo.png"
        let banner = "https://cdn.warply.emulator/campaigns/\(seed.key)/banner.jpg"
        let format = dateFormats[index % dateFormats.count]
        return ServedCampaign(
            sessionUUID: uuid,
            indexURL: seed.escapesURLs ? escaped(indexURL) : indexURL,
            title: seed.title(language),
            subtitle: seed.subtitle(language),
            offerCategory: seed.offerCategory,
            logoURL: seed.escapesURLs ? escaped(logoURL) : logoURL,
            couponSetUUID: seed.couponSetKey.map { couponSetUUID($0, context) },
            sorting: sorting,
            type: seed.type,
            isCarousel: ServedTextFlag(seed.isCarousel),
            bannerImage: seed.isCarousel ? banner : nil,
            bannerImageMobile: seed.isCarousel ? escaped(banner) : nil,
            couponImage: seed.couponSetKey.map { "https://cdn.warply.emulator/couponsets/\($0).jpg" },
            campaignURL: "https://engage-uat.dei.gr/campaigns/\(uuid)",
            filter: seed.filter,
            startDate: context.timestamp(days: seed.startDays, hours: 9, format: format),
            endDate: context.timestamp(days: seed.endDays, hours: 23, minutes: 59, format: format),
            communicationCategory: seed.communicationCategory
        )
    }

    /// A generated campaign (``WarplyEmulator/Configuration/extraCampaignCount``), after the seed ones.
    private static func extraCampaign(_ number: Int, language: ServedLanguage, context: SeedContext) -> ServedCampaign {
        let uuid = context.identifier("extra-campaign", String(number))
        return ServedCampaign(
            sessionUUID: uuid,
            indexURL: campaignPage(uuid),
            title: language == .greek ? "Προσφορά #\(number + 1)" : "Offer #\(number + 1)",
            subtitle: language == .greek ? "Γενική προσφορά" : "General offer",
            offerCategory: "general",
            logoURL: "https://cdn.warply.emulator/campaigns/extra/\(number % 10).png",
            sorting: 100 + number,
            type: "info",
            isCarousel: false,
            filter: "general",
            startDate: context.timestamp(days: -(number % 30), hours: 8),
            endDate: context.timestamp(days: 30 + number % 60, hours: 23, minutes: 59),
            communicationCategory: "general"
        )
    }
}

extension WarplyEmulator {
    /// The form of the emulator's campaign page links (their `index_url`), with `{id}` for the
    /// campaign's session UUID: what a sandbox's configuration routes to Warply as `.campaign` links.
    public static var campaignPageTemplate: String { WarplyCatalogue.campaignPageTemplate }
}
