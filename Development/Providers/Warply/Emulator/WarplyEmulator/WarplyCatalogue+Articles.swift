@_spi(EngageProvider) import EngageCore

extension WarplyCatalogue {
    /// A seed article.
    private struct ArticleSeed {
        var key: String
        var title: WarplyLocalizedText
        var subtitle: WarplyLocalizedText
        var body: WarplyLocalizedText
        var categories: [String]
        var tags: [String]
        var publishedDaysAgo: Int
    }

    private static let articleSeeds = [
        ArticleSeed(
            key: "new-programme", title: .init("Νέο πρόγραμμα επιβράβευσης", "A new rewards programme"),
            subtitle: .init("Περισσότεροι πόντοι, περισσότερα δώρα", "More points, more gifts"),
            body: .init("<p>Κερδίστε πόντους σε κάθε πληρωμή.</p>", "<p>Earn points with every payment.</p>"),
            categories: ["news"], tags: ["rewards"], publishedDaysAgo: 2
        ),
        ArticleSeed(
            key: "save-electricity", title: .init("5 τρόποι να εξοικονομήσετε ρεύμα", "5 ways to save electricity"),
            subtitle: .init("Μικρές αλλαγές, μεγάλη διαφορά", "Small changes, a big difference"),
            body: .init("<p>Κλείστε τις συσκευές σε αναμονή.</p>", "<p>Switch off devices on standby.</p>"),
            categories: ["tips", "energy"], tags: ["energy", "savings"], publishedDaysAgo: 9
        ),
        ArticleSeed(
            key: "double-points-supermarkets", title: .init("Διπλοί πόντοι στα σούπερ μάρκετ", "Double points at supermarkets"),
            subtitle: .init("Μέχρι το τέλος του μήνα", "Until the end of the month"),
            body: .init("<p>Δείξτε το Market Pass στο ταμείο.</p>", "<p>Show your Market Pass at the till.</p>"),
            categories: ["news"], tags: ["market-pass"], publishedDaysAgo: 1
        ),
        ArticleSeed(
            key: "market-pass-howto", title: .init("Πώς λειτουργεί το Market Pass", "How Market Pass works"),
            subtitle: .init("Όλα όσα πρέπει να ξέρετε", "Everything you need to know"),
            body: .init("<p>Συλλέξτε εκπτώσεις σε κάθε αγορά.</p>", "<p>Collect discounts with every purchase.</p>"),
            categories: ["tips"], tags: ["market-pass", "howto"], publishedDaysAgo: 30
        ),
        ArticleSeed(
            key: "solar-roof", title: .init("Φωτοβολταϊκά στη στέγη σας", "Solar panels on your roof"),
            subtitle: .init("Παράγετε το δικό σας ρεύμα", "Make your own electricity"),
            body: .init("<p>Μάθετε για το πρόγραμμα net metering.</p>", "<p>Learn about net metering.</p>"),
            categories: ["energy"], tags: ["solar"], publishedDaysAgo: 14
        ),
        ArticleSeed(
            key: "contest-winners", title: .init("Οι νικητές του διαγωνισμού", "The contest winners"),
            subtitle: .init("Συγχαρητήρια σε όλους!", "Congratulations to everyone!"),
            body: .init("<p>Δείτε ποιοι κέρδισαν ταξίδι στη Σαντορίνη.</p>", "<p>See who won a trip to Santorini.</p>"),
            categories: ["news"], tags: ["contest"], publishedDaysAgo: 5
        ),
    ]

    static func makeArticles(_ context: SeedContext) -> [ServedLanguage: [ServedArticle]] {
        var result: [ServedLanguage: [ServedArticle]] = [:]
        for language in ServedLanguage.allCases {
            result[language] = articleSeeds.map { seed in
                ServedArticle(
                    uuid: context.identifier("article", seed.key), title: seed.title(language), subtitle: seed.subtitle(language),
                    body: seed.body(language), imageURL: escaped("https://cdn.warply.emulator/articles/\(seed.key).jpg"),
                    url: "https://www.dei.gr/\(language.rawValue)/articles/\(seed.key)", categories: seed.categories, tags: seed.tags,
                    publishedAt: context.timestamp(days: -seed.publishedDaysAgo, hours: 9), language: language.rawValue
                )
            }
        }
        return result
    }
}
