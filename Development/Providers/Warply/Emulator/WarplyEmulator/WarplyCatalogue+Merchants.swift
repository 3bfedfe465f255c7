@_spi(EngageProvider) import EngageCore

extension WarplyCatalogue {
    /// A seed merchant category.
    private struct CategorySeed {
        var key: String
        var name: WarplyLocalizedText
    }

    /// A seed merchant.
    private struct MerchantSeed {
        var key: String
        var name: WarplyLocalizedText
        var address: WarplyLocalizedText
        var city: WarplyLocalizedText
        var region: WarplyLocalizedText
        var postalCode: String
        var telephone: String
        var website: String
        var latitude: Double
        var longitude: Double
        var categoryKeys: [String]
        var tags: [String]
        var isDefaultShown: Bool
        var parentKey: String? = nil
    }

    private static let categorySeeds = [
        CategorySeed(key: "supermarket", name: .init("Σούπερ μάρκετ", "Supermarkets")),
        CategorySeed(key: "fuel", name: .init("Καύσιμα", "Fuel")),
        CategorySeed(key: "food", name: .init("Φαγητό & καφές", "Food & coffee")),
        CategorySeed(key: "entertainment", name: .init("Ψυχαγωγία & πολιτισμός", "Entertainment & culture")),
        CategorySeed(key: "shopping", name: .init("Ηλεκτρονικά", "Electronics")),
        CategorySeed(key: "wellness", name: .init("Άθληση & ευεξία", "Fitness & wellness")),
    ]

    private static let athens = WarplyLocalizedText("Αθήνα", "Athens")
    private static let attica = WarplyLocalizedText("Αττική", "Attica")
    private static let thessaloniki = WarplyLocalizedText("Θεσσαλονίκη", "Thessaloniki")
    private static let macedonia = WarplyLocalizedText("Κεντρική Μακεδονία", "Central Macedonia")

    private static let merchantSeeds = [
        MerchantSeed(
            key: "sklavenitis-ampelokipoi", name: .init("Σκλαβενίτης Αμπελοκήπων", "Sklavenitis Ampelokipoi"),
            address: .init("Λεωφ. Αλεξάνδρας 120", "120 Alexandras Ave"), city: athens, region: attica, postalCode: "11471",
            telephone: "+302106400100", website: "https://www.sklavenitis.gr", latitude: 37.9877, longitude: 23.7570,
            categoryKeys: ["supermarket"], tags: ["market-pass", "groceries"], isDefaultShown: true
        ),
        MerchantSeed(
            key: "ab-kolonaki", name: .init("ΑΒ Βασιλόπουλος Κολωνακίου", "AB Vassilopoulos Kolonaki"),
            address: .init("Σκουφά 60", "60 Skoufa St"), city: athens, region: attica, postalCode: "10680",
            telephone: "+302103611400", website: "https://www.ab.gr", latitude: 37.9790, longitude: 23.7410,
            categoryKeys: ["supermarket"], tags: ["market-pass", "groceries"], isDefaultShown: true
        ),
        MerchantSeed(
            key: "shell-syggrou", name: .init("Shell Συγγρού", "Shell Syggrou"),
            address: .init("Λεωφ. Συγγρού 210", "210 Syggrou Ave"), city: athens, region: attica, postalCode: "17672",
            telephone: "+302109511220", website: "https://www.shell.gr", latitude: 37.9560, longitude: 23.7190,
            categoryKeys: ["fuel"], tags: ["fuel", "24h"], isDefaultShown: false
        ),
        MerchantSeed(
            key: "coffee-syntagma", name: .init("Coffee Island Συντάγματος", "Coffee Island Syntagma"),
            address: .init("Ερμού 2", "2 Ermou St"), city: athens, region: attica, postalCode: "10563",
            telephone: "+302103230410", website: "https://www.coffeeisland.gr", latitude: 37.9755, longitude: 23.7348,
            categoryKeys: ["food"], tags: ["coffee", "takeaway"], isDefaultShown: true
        ),
        MerchantSeed(
            key: "village-renti", name: .init("Village Cinemas Ρέντη", "Village Cinemas Renti"),
            address: .init("Θηβών 228", "228 Thivon Ave"), city: athens, region: attica, postalCode: "18233",
            telephone: "+302104253600", website: "https://www.villagecinemas.gr", latitude: 37.9634, longitude: 23.6685,
            categoryKeys: ["entertainment"], tags: ["cinema"], isDefaultShown: false
        ),
        MerchantSeed(
            key: "public-syntagma", name: .init("Public Συντάγματος", "Public Syntagma"),
            address: .init("Καραγιώργη Σερβίας 1", "1 Karageorgi Servias St"), city: athens, region: attica, postalCode: "10562",
            telephone: "+302103246210", website: "https://www.public.gr", latitude: 37.9762, longitude: 23.7344,
            categoryKeys: ["shopping"], tags: ["electronics", "books"], isDefaultShown: true
        ),
        MerchantSeed(
            key: "ianos-stadiou", name: .init("Ιανός Σταδίου", "Ianos Stadiou"),
            address: .init("Σταδίου 24", "24 Stadiou St"), city: athens, region: attica, postalCode: "10564",
            telephone: "+302103217917", website: "https://www.ianos.gr", latitude: 37.9800, longitude: 23.7310,
            categoryKeys: ["entertainment"], tags: ["books", "events"], isDefaultShown: false
        ),
        MerchantSeed(
            key: "holmes-marousi", name: .init("Holmes Place Μαρουσίου", "Holmes Place Marousi"),
            address: .init("Λεωφ. Κηφισίας 90", "90 Kifisias Ave"), city: .init("Μαρούσι", "Marousi"), region: attica,
            postalCode: "15125", telephone: "+302106194100", website: "https://www.holmesplace.gr", latitude: 38.0450,
            longitude: 23.8010, categoryKeys: ["wellness"], tags: ["gym", "pool"], isDefaultShown: false
        ),
        MerchantSeed(
            key: "sklavenitis-kalamaria", name: .init("Σκλαβενίτης Καλαμαριάς", "Sklavenitis Kalamaria"),
            address: .init("Κομνηνών 40", "40 Komninon St"), city: thessaloniki, region: macedonia, postalCode: "55131",
            telephone: "+302310448800", website: "https://www.sklavenitis.gr", latitude: 40.5830, longitude: 22.9500,
            categoryKeys: ["supermarket"], tags: ["market-pass", "groceries"], isDefaultShown: false,
            parentKey: "sklavenitis-ampelokipoi"
        ),
        MerchantSeed(
            key: "coffee-aristotelous", name: .init("Coffee Island Αριστοτέλους", "Coffee Island Aristotelous"),
            address: .init("Πλατεία Αριστοτέλους 10", "10 Aristotelous Sq"), city: thessaloniki, region: macedonia,
            postalCode: "54623", telephone: "+302310230120", website: "https://www.coffeeisland.gr", latitude: 40.6325,
            longitude: 22.9410, categoryKeys: ["food"], tags: ["coffee", "takeaway"], isDefaultShown: true
        ),
        MerchantSeed(
            key: "shell-lagkada", name: .init("Shell Λαγκαδά", "Shell Lagkada"),
            address: .init("Λαγκαδά 150", "150 Lagkada St"), city: thessaloniki, region: macedonia, postalCode: "56430",
            telephone: "+302310650300", website: "https://www.shell.gr", latitude: 40.6560, longitude: 22.9200,
            categoryKeys: ["fuel"], tags: ["fuel"], isDefaultShown: false
        ),
        MerchantSeed(
            key: "tsinari-ano-poli", name: .init("Τσινάρι Άνω Πόλης", "Tsinari Ano Poli"),
            address: .init("Παπαρρηγοπούλου 2", "2 Paparrigopoulou St"), city: thessaloniki, region: macedonia,
            postalCode: "54634", telephone: "+302310284028", website: "https://www.tsinari.gr", latitude: 40.6420,
            longitude: 22.9560, categoryKeys: ["food"], tags: ["restaurant", "traditional"], isDefaultShown: false
        ),
        MerchantSeed(
            key: "public-tsimiski", name: .init("Public Τσιμισκή", "Public Tsimiski"),
            address: .init("Τσιμισκή 24", "24 Tsimiski St"), city: thessaloniki, region: macedonia, postalCode: "54624",
            telephone: "+302310377200", website: "https://www.public.gr", latitude: 40.6310, longitude: 22.9440,
            categoryKeys: ["shopping"], tags: ["electronics"], isDefaultShown: false
        ),
    ]

    static func makeCategories(_ context: SeedContext) -> [ServedLanguage: [ServedMerchantCategory]] {
        var result: [ServedLanguage: [ServedMerchantCategory]] = [:]
        for language in ServedLanguage.allCases {
            result[language] = categorySeeds.map { seed in
                ServedMerchantCategory(
                    uuid: context.identifier("category", seed.key), name: seed.name(language), adminName: seed.key,
                    image: "https://cdn.warply.emulator/categories/\(seed.key).png"
                )
            }
        }
        return result
    }

    static func makeMerchants(_ context: SeedContext) -> [ServedLanguage: [ServedMerchant]] {
        var result: [ServedLanguage: [ServedMerchant]] = [:]
        for language in ServedLanguage.allCases {
            result[language] = merchantSeeds.map { seed in
                ServedMerchant(
                    uuid: merchantUUID(seed.key, context), name: seed.name(language), address: seed.address(language),
                    city: seed.city(language), region: seed.region(language), postalCode: seed.postalCode,
                    telephone: seed.telephone, website: seed.website, email: "info@\(seed.key).warply.emulator",
                    logo: "https://cdn.warply.emulator/merchants/\(seed.key).png",
                    description: seed.name(language) + " · " + seed.city(language),
                    categories: seed.categoryKeys.map { context.identifier("category", $0) }, tags: seed.tags,
                    latitude: seed.latitude, longitude: seed.longitude, isDefaultShown: seed.isDefaultShown,
                    parentUUID: seed.parentKey.map { merchantUUID($0, context) }
                )
            }
        }
        return result
    }

    /// The UUID of the seed merchant `key`.
    static func merchantUUID(_ key: String, _ context: SeedContext) -> String {
        context.identifier("merchant", key)
    }
}
