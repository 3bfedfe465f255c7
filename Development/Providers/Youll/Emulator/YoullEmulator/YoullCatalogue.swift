@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// The emulator's seeded content: English texts with Greek and German translations. Everything but
/// the like counts and member numbers is fixed; those come from the host's seed, so a run is
/// reproducible.
struct YoullCatalogue: Sendable {
    struct Text: Sendable {
        var en: String
        var el: String
        var de: String

        func translations(_ lang: String?, body: Text? = nil) -> [ServedTranslation] {
            switch lang?.lowercased() {
            case "el": [ServedTranslation(lang: "el", title: el, body: body?.el)]
            case "de": [ServedTranslation(lang: "de", title: de, body: body?.de)]
            default: []
            }
        }
    }

    struct Content: Sendable {
        var id: String
        var title: Text
        var body: Text
        var kind: String
        var categoryID: String
        var durationSeconds: Int?
        var isLocked: Bool
        var baseLikes: Int
        var tags: [String]
        var publishedAt: String
    }

    struct Category: Sendable {
        var id: String
        var title: Text
        var subcategories: [(id: String, title: Text)]
    }

    struct Section: Sendable {
        var id: String
        var feed: String
        var kind: String
        var title: Text
        var dismissible: Bool
        var contentIDs: [String]
        var categoryIDs: [String]
    }

    struct Journey: Sendable {
        var id: String
        var title: Text
        var description: Text
        var isLinear: Bool
        var contentIDs: [String]
    }

    struct Event: Sendable {
        var id: String
        var title: Text
        var description: Text
        var startsAt: String
        var endsAt: String
        var location: String
        var capacity: Int?
        var baseAttendees: Int
    }

    struct Meal: Sendable {
        var id: String
        var title: Text
        var day: Int
        var kind: String
        var calories: Int
    }

    var contents: [Content]
    var categories: [Category]
    var sections: [Section]
    var journeys: [Journey]
    var workouts: [(slice: String, sliceTitle: String, workout: ServedWorkout)]
    var events: [Event]
    var meals: [Meal]
    var quizzes: [ServedQuiz]
    var tags: [ServedExploreTag]
    var searchFilters: [ServedSearchFilter]
    var settings: [String: [ServedSetting]]
    var socialProof: ServedSocialProof
    /// The paywalls by placement, and the super paywall.
    var paywalls: [String: ServedPaywallConfig]
    var superPaywall: ServedPaywallConfig
    var facilitators: [ServedFacilitator]
    var promoOffers: [ServedPromoOffer]
    var badges: [ServedBadge]
    /// Badges a user can earn (`POST /users/me/badges`) besides the ones every user has: id, title, image.
    var earnableBadges: [(id: String, title: String, imageUrl: String?)]

    init(seed: UInt64) {
        var generator = SeededGenerator(seed: seed, stream: "youll/catalogue")
        let categories = [
            Category(
                id: "cat-mind", title: Text(en: "Mindfulness", el: "Ενσυνειδητότητα", de: "Achtsamkeit"),
                subcategories: [
                    ("sub-breath", Text(en: "Breathing", el: "Αναπνοή", de: "Atmung")),
                    ("sub-sleep", Text(en: "Sleep", el: "Ύπνος", de: "Schlaf")),
                ]),
            Category(
                id: "cat-move", title: Text(en: "Movement", el: "Κίνηση", de: "Bewegung"),
                subcategories: [
                    ("sub-yoga", Text(en: "Yoga", el: "Γιόγκα", de: "Yoga")),
                    ("sub-strength", Text(en: "Strength", el: "Δύναμη", de: "Kraft")),
                ]),
            Category(
                id: "cat-food", title: Text(en: "Nutrition", el: "Διατροφή", de: "Ernährung"),
                subcategories: [
                    ("sub-recipes", Text(en: "Recipes", el: "Συνταγές", de: "Rezepte"))
                ]),
            Category(
                id: "cat-learn", title: Text(en: "Learning", el: "Μάθηση", de: "Lernen"),
                subcategories: [
                    ("sub-habits", Text(en: "Habits", el: "Συνήθειες", de: "Gewohnheiten"))
                ]),
        ]
        let topics: [(Text, String, String, [String])] = [
            (Text(en: "Morning breath", el: "Πρωινή αναπνοή", de: "Morgenatmung"), "audio", "cat-mind", ["breathing", "morning"]),
            (Text(en: "Box breathing", el: "Αναπνοή κουτιού", de: "Box-Atmung"), "audio", "cat-mind", ["breathing", "focus"]),
            (Text(en: "Wind down for sleep", el: "Χαλάρωση για ύπνο", de: "Zur Ruhe kommen"), "audio", "cat-mind", ["sleep", "evening"]),
            (Text(en: "Body scan", el: "Σάρωση σώματος", de: "Körperreise"), "audio", "cat-mind", ["sleep", "focus"]),
            (Text(en: "Sun salutation", el: "Χαιρετισμός στον ήλιο", de: "Sonnengruß"), "video", "cat-move", ["yoga", "morning"]),
            (Text(en: "Desk stretches", el: "Διατάσεις γραφείου", de: "Dehnen am Schreibtisch"), "video", "cat-move", ["yoga", "work"]),
            (Text(en: "Core in ten minutes", el: "Κορμός σε δέκα λεπτά", de: "Rumpf in zehn Minuten"), "workout", "cat-move", ["strength"]),
            (Text(en: "Full-body strength", el: "Δύναμη για όλο το σώμα", de: "Ganzkörperkraft"), "workout", "cat-move", ["strength"]),
            (
                Text(en: "Green breakfast bowl", el: "Πράσινο μπολ πρωινού", de: "Grüne Frühstücksschale"), "recipe", "cat-food",
                ["recipes", "morning"]
            ),
            (Text(en: "Lentil soup", el: "Φακές σούπα", de: "Linsensuppe"), "recipe", "cat-food", ["recipes", "evening"]),
            (
                Text(en: "Why habits stick", el: "Γιατί μένουν οι συνήθειες", de: "Warum Gewohnheiten bleiben"), "article", "cat-learn",
                ["habits"]
            ),
            (Text(en: "Tiny steps", el: "Μικρά βήματα", de: "Kleine Schritte"), "article", "cat-learn", ["habits", "focus"]),
        ]
        var contents: [Content] = []
        // Four series of each topic: 48 items, enough for a home feed of about 20 KB.
        for series in 1...4 {
            for (index, topic) in topics.enumerated() {
                let number = (series - 1) * topics.count + index + 1
                let (title, kind, category, tags) = topic
                let suffix = series == 1 ? "" : " \(series)"
                contents.append(
                    Content(
                        id: String(format: "c-%03d", number),
                        title: Text(en: title.en + suffix, el: title.el + suffix, de: title.de + suffix),
                        body: Text(
                            en: "A \(kind) session about \(title.en.lowercased()), for every level.",
                            el: "Μια συνεδρία για \(title.el.lowercased()), για κάθε επίπεδο.",
                            de: "Eine Einheit über \(title.de.lowercased()), für jedes Niveau."
                        ),
                        kind: kind, categoryID: category,
                        durationSeconds: kind == "article" || kind == "recipe" ? nil : 300 + 60 * ((number * 7) % 20),
                        isLocked: number % 5 == 0, baseLikes: Int(generator.next() % 900) + 12, tags: tags,
                        publishedAt: String(format: "2026-%02d-%02dT08:00:00Z", 1 + number % 11, 1 + number % 27)
                    ))
            }
        }
        let ids = contents.map(\.id)
        self.contents = contents
        self.categories = categories
        sections = [
            Section(
                id: "home-hero", feed: "home", kind: "hero", title: Text(en: "Today", el: "Σήμερα", de: "Heute"), dismissible: false,
                contentIDs: [ids[0]], categoryIDs: []),
            Section(
                id: "home-continue", feed: "home", kind: "continue_watching", title: Text(en: "Continue", el: "Συνέχεια", de: "Weiter"),
                dismissible: true, contentIDs: Array(ids[1...4]), categoryIDs: []),
            Section(
                id: "home-popular", feed: "home", kind: "carousel", title: Text(en: "Popular", el: "Δημοφιλή", de: "Beliebt"),
                dismissible: true, contentIDs: Array(ids[5...28]), categoryIDs: []),
            Section(
                id: "home-poll", feed: "home", kind: "poll",
                title: Text(en: "How do you feel?", el: "Πώς νιώθεις;", de: "Wie fühlst du dich?"), dismissible: true, contentIDs: [],
                categoryIDs: []),
            Section(
                id: "home-categories", feed: "home", kind: "categories", title: Text(en: "Explore", el: "Εξερεύνηση", de: "Entdecken"),
                dismissible: false, contentIDs: [], categoryIDs: categories.map(\.id)),
            Section(
                id: "home-new", feed: "home", kind: "grid", title: Text(en: "New", el: "Νέα", de: "Neu"), dismissible: true,
                contentIDs: Array(ids[29...40]), categoryIDs: []),
            Section(
                id: "explore-all", feed: "explore", kind: "grid", title: Text(en: "Everything", el: "Όλα", de: "Alles"), dismissible: false,
                contentIDs: Array(ids[0...23]), categoryIDs: []),
            Section(
                id: "explore-categories", feed: "explore", kind: "categories",
                title: Text(en: "Categories", el: "Κατηγορίες", de: "Kategorien"), dismissible: false, contentIDs: [],
                categoryIDs: categories.map(\.id)),
            Section(
                id: "search-suggested", feed: "search", kind: "carousel", title: Text(en: "Suggested", el: "Προτάσεις", de: "Vorschläge"),
                dismissible: false, contentIDs: Array(ids[2...7]), categoryIDs: []),
        ]
        journeys = [
            Journey(
                id: "j-calm", title: Text(en: "Seven calm days", el: "Επτά ήρεμες μέρες", de: "Sieben ruhige Tage"),
                description: Text(en: "One breath practice a day.", el: "Μία άσκηση αναπνοής τη μέρα.", de: "Eine Atemübung pro Tag."),
                isLinear: true, contentIDs: [ids[0], ids[1], ids[2], ids[3], ids[12], ids[13], ids[14]]),
            Journey(
                id: "j-strong", title: Text(en: "Stronger in a month", el: "Πιο δυνατός σε ένα μήνα", de: "Stärker in einem Monat"),
                description: Text(
                    en: "Strength three times a week.", el: "Δύναμη τρεις φορές την εβδομάδα.", de: "Kraft dreimal pro Woche."),
                isLinear: true, contentIDs: [ids[6], ids[7], ids[18], ids[19]]),
            Journey(
                id: "j-sleep", title: Text(en: "Sleep library", el: "Βιβλιοθήκη ύπνου", de: "Schlafbibliothek"),
                description: Text(en: "Pick any night.", el: "Διάλεξε όποια νύχτα θες.", de: "Wähle eine beliebige Nacht."),
                isLinear: false, contentIDs: [ids[2], ids[3], ids[14], ids[15]]),
        ]
        workouts = (1...6).map { day in
            (
                slice: day <= 3 ? "act-week1" : "act-week2", sliceTitle: day <= 3 ? "Week 1" : "Week 2",
                workout: ServedWorkout(
                    id: "w-\(day)", title: "Day \(day) strength", day: day, completed: false, contentId: ids[6 + (day % 2)],
                    feedbackRating: nil)
            )
        }
        events = [
            Event(
                id: "e-breath", title: Text(en: "Live breathwork", el: "Ζωντανή αναπνοή", de: "Live-Atemarbeit"),
                description: Text(
                    en: "Breathe together for thirty minutes.", el: "Αναπνέουμε μαζί για τριάντα λεπτά.",
                    de: "Dreißig Minuten gemeinsam atmen."),
                startsAt: "2026-12-02T18:00:00Z", endsAt: "2026-12-02T18:30:00Z", location: "online", capacity: nil,
                baseAttendees: Int(generator.next() % 200) + 20),
            Event(
                id: "e-yoga", title: Text(en: "Park yoga", el: "Γιόγκα στο πάρκο", de: "Yoga im Park"),
                description: Text(en: "Bring a mat.", el: "Φέρε στρώμα.", de: "Bring eine Matte mit."),
                startsAt: "2026-12-06T09:00:00Z", endsAt: "2026-12-06T10:00:00Z", location: "Athens, Pedion tou Areos", capacity: 40,
                baseAttendees: 12),
            Event(
                id: "e-cook", title: Text(en: "Cook-along: soups", el: "Μαγειρεύουμε μαζί: σούπες", de: "Gemeinsam kochen: Suppen"),
                description: Text(en: "Three winter soups.", el: "Τρεις χειμωνιάτικες σούπες.", de: "Drei Wintersuppen."),
                startsAt: "2026-12-10T17:00:00Z", endsAt: "2026-12-10T18:00:00Z", location: "online", capacity: 100, baseAttendees: 37),
        ]
        meals = [
            Meal(
                id: "m-1", title: Text(en: "Oats with berries", el: "Βρώμη με μούρα", de: "Haferflocken mit Beeren"), day: 1,
                kind: "breakfast", calories: 380),
            Meal(id: "m-2", title: Text(en: "Lentil soup", el: "Φακές σούπα", de: "Linsensuppe"), day: 1, kind: "lunch", calories: 520),
            Meal(
                id: "m-3", title: Text(en: "Baked salmon", el: "Σολομός στο φούρνο", de: "Ofenlachs"), day: 1, kind: "dinner", calories: 610
            ),
            Meal(
                id: "m-4", title: Text(en: "Greek yoghurt", el: "Γιαούρτι", de: "Griechischer Joghurt"), day: 2, kind: "snack",
                calories: 150),
        ]
        quizzes = [
            ServedQuiz(
                id: "q-sleep", title: "How do you sleep?",
                questions: [
                    ServedQuizQuestion(
                        id: "q-sleep-1", text: "How many hours do you sleep?",
                        options: [
                            ServedQuizOption(id: "lt6", text: "Under 6"), ServedQuizOption(id: "6to8", text: "6 to 8"),
                            ServedQuizOption(id: "gt8", text: "Over 8"),
                        ], savedOptionId: nil),
                    ServedQuizQuestion(
                        id: "q-sleep-2", text: "Do you wake up rested?",
                        options: [
                            ServedQuizOption(id: "yes", text: "Yes"), ServedQuizOption(id: "no", text: "No"),
                        ], savedOptionId: nil),
                ], completed: false)
        ]
        tags = [
            ServedExploreTag(id: "t-morning", name: "morning", itemCount: 0), ServedExploreTag(id: "t-sleep", name: "sleep", itemCount: 0),
            ServedExploreTag(id: "t-focus", name: "focus", itemCount: 0),
            ServedExploreTag(id: "t-strength", name: "strength", itemCount: 0),
        ].map { tag in
            var tag = tag
            tag.itemCount = contents.filter { $0.tags.contains(tag.name) }.count
            return tag
        }
        searchFilters = [
            ServedSearchFilter(
                id: "kind", title: "Type",
                options: ["audio", "video", "workout", "recipe", "article"].map { ServedSearchOption(id: $0, title: $0.capitalized) }),
            ServedSearchFilter(
                id: "length", title: "Length",
                options: [
                    ServedSearchOption(id: "short", title: "Under 10 minutes"), ServedSearchOption(id: "long", title: "10 minutes or more"),
                ]),
        ]
        settings = [
            "player_config": [ServedSetting(key: "autoplay", value: "true"), ServedSetting(key: "skip_seconds", value: "15")],
            "onboarding_config": [
                ServedSetting(key: "steps", value: "goals,quiz,notifications"), ServedSetting(key: "skippable", value: "true"),
            ],
            "quiz_config": [ServedSetting(key: "quiz_id", value: "q-sleep")],
            "app_config": [ServedSetting(key: "paywall", value: "soft"), ServedSetting(key: "min_version", value: "4.0.0")],
        ]
        socialProof = ServedSocialProof(headline: "Join our members", memberCount: 100_000 + Int(generator.next() % 50_000), rating: 4.8)
        let products = [
            ServedPaywallProduct(productId: "com.youll.premium.monthly", period: "month", trialDays: 7),
            ServedPaywallProduct(
                productId: "com.youll.premium.yearly", period: "year", trialDays: 14, highlighted: true, badge: "Best value"),
        ]
        paywalls = [
            "onboarding": ServedPaywallConfig(
                id: "pw-onboarding", placement: "onboarding", title: "Start your calmer year",
                subtitle: "Every meditation, journey and sleep story.",
                features: ["All courses", "Offline listening", "New content weekly"],
                products: products, dismissible: true, isSuper: false, imageUrl: "https://cdn.youll.test/pw/onboarding.jpg"),
            "content_locked": ServedPaywallConfig(
                id: "pw-locked", placement: "content_locked", title: "This session is for members",
                features: ["Unlock this session", "And everything else"], products: Array(products.prefix(1)), dismissible: true,
                isSuper: false),
        ]
        superPaywall = ServedPaywallConfig(
            id: "pw-super", placement: "super", title: "Youll Premium, 50 % off", subtitle: "For a limited time.",
            features: ["Everything in Youll", "Half the price"],
            products: products + [ServedPaywallProduct(productId: "com.youll.premium.lifetime", period: "lifetime")], dismissible: false,
            isSuper: true, imageUrl: "https://cdn.youll.test/pw/super.jpg")
        facilitators = [
            ServedFacilitator(
                id: "f-anna", name: "Anna Papadopoulou", bio: "Breath coach for twelve years.",
                imageUrl: "https://cdn.youll.test/f/anna.jpg"),
            ServedFacilitator(
                id: "f-jonas", name: "Jonas Weber", bio: "Strength and mobility.", imageUrl: "https://cdn.youll.test/f/jonas.jpg"),
        ]
        promoOffers = [
            ServedPromoOffer(
                id: "p-winter", title: "Winter offer: 40% off yearly", description: "For new members until the end of January.",
                imageUrl: "https://cdn.youll.test/p/winter.jpg", actionUrl: "https://youll.test/offers/winter", discountPercent: 40,
                validUntil: "2027-01-31T23:59:59Z"),
            ServedPromoOffer(
                id: "p-friend", title: "Bring a friend", description: "A free month for both of you.",
                imageUrl: nil, actionUrl: "https://youll.test/offers/friend", discountPercent: nil, validUntil: nil),
        ]
        badges = [
            ServedBadge(
                id: "b-first", title: "First session", imageUrl: "https://cdn.youll.test/b/first.png", earnedAt: "2026-11-01T09:00:00Z"),
            ServedBadge(
                id: "b-week", title: "Seven-day streak", imageUrl: "https://cdn.youll.test/b/week.png", earnedAt: "2026-11-08T09:00:00Z"),
        ]
        earnableBadges = [
            ("b-review", "First review", "https://cdn.youll.test/b/review.png"), ("b-explorer", "Explorer", nil),
            ("b-night-owl", "Night owl", "https://cdn.youll.test/b/owl.png"),
        ]
    }

    func content(id: String) -> Content? { contents.first { $0.id == id } }
}
