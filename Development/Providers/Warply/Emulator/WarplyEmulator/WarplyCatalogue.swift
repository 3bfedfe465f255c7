@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// The emulator's seeded catalogue, in Greek and English: campaigns (the basic list and the pool of
/// personalized ones), coupon sets with their starting availability, merchants in Athens and
/// Thessaloniki, merchant categories and articles.
///
/// Every id is 32 hex digits drawn from the host's seed (stream `id/<kind>/<key>`), list positions
/// (`sorting`) and availabilities come from seeded streams, and every date is an offset from
/// ``anchor``, the start (in the server's zone) of the day the catalogue was built on the host's clock.
struct WarplyCatalogue: Sendable {
    /// Midnight (server zone, Europe/Athens) of the host's day when the catalogue was built; every seeded
    /// date is relative to it.
    let anchor: Date
    /// The basic campaigns (`campaigns`/`retrieve`), by language.
    let campaigns: [ServedLanguage: [ServedCampaign]]
    /// The pool users' personalized campaigns are drawn from, by language.
    let personalizedCampaigns: [ServedLanguage: [ServedCampaign]]
    /// The coupon sets, by language.
    let couponSets: [ServedLanguage: [ServedCouponSet]]
    /// Coupons left per coupon set when the emulator starts (or is reset).
    let initialAvailability: [String: Int]
    /// The merchants, by language.
    let merchants: [ServedLanguage: [ServedMerchant]]
    /// The merchant categories, by language.
    let categories: [ServedLanguage: [ServedMerchantCategory]]
    /// The articles, by language.
    let articles: [ServedLanguage: [ServedArticle]]
    /// The UUID of the supermarket category (the market pass's shops).
    let supermarketCategoryUUID: String

    init(environment: EmulatorEnvironment, configuration: WarplyEmulator.Configuration) {
        let anchor = SeedContext.calendar.startOfDay(for: environment.now())
        let context = SeedContext(environment: environment, anchor: anchor)
        self.anchor = anchor
        let categories = Self.makeCategories(context)
        self.categories = categories
        supermarketCategoryUUID = context.identifier("category", "supermarket")
        merchants = Self.makeMerchants(context)
        let sets = Self.makeCouponSets(context)
        couponSets = sets.sets
        initialAvailability = sets.availability
        campaigns = Self.makeCampaigns(context, extraCount: max(0, configuration.extraCampaignCount))
        personalizedCampaigns = Self.makePersonalizedCampaigns(context)
        articles = Self.makeArticles(context)
    }

    // MARK: Lookups

    /// Every campaign with `sessionUUID` (basic or personalized), in `language`.
    func campaign(sessionUUID: String, language: ServedLanguage) -> ServedCampaign? {
        (campaigns[language] ?? []).first { $0.sessionUUID == sessionUUID }
            ?? (personalizedCampaigns[language] ?? []).first { $0.sessionUUID == sessionUUID }
    }

    /// The coupon set `uuid`, in `language`.
    func couponSet(uuid: String, language: ServedLanguage) -> ServedCouponSet? {
        (couponSets[language] ?? []).first { $0.uuid == uuid }
    }

    /// The merchant `uuid`, in `language`.
    func merchant(uuid: String, language: ServedLanguage) -> ServedMerchant? {
        (merchants[language] ?? []).first { $0.uuid == uuid }
    }

    /// The supermarkets (merchants of the supermarket category), in `language`.
    func supermarkets(language: ServedLanguage) -> [ServedMerchant] {
        (merchants[language] ?? []).filter { $0.categories.contains(supermarketCategoryUUID) }
    }
}

extension WarplyCatalogue {
    /// What seed builders share: the environment for ids and the anchor for dates.
    struct SeedContext: Sendable {
        let environment: EmulatorEnvironment
        let anchor: Date

        /// 32 hex digits for `kind`/`key`, stable for the seed.
        func identifier(_ kind: String, _ key: String) -> String {
            var generator = environment.makeGenerator(stream: "id/\(kind)/\(key)")
            return generator.nextHex(byteCount: 16)
        }

        /// A generator for the named stream.
        func generator(_ stream: String) -> SeededGenerator {
            environment.makeGenerator(stream: stream)
        }

        /// The Gregorian calendar in the server's zone (Europe/Athens), in which seed dates are counted.
        static let calendar: Calendar = {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = ServedTimestamp.serverTimeZone
            return calendar
        }()

        /// The anchor moved by `days` calendar days, then `hours` and `minutes` of wall-clock time in the
        /// server's zone, written with `format`.
        func timestamp(days: Int, hours: Int = 0, minutes: Int = 0, format: String = "yyyy-MM-dd HH:mm:ss") -> ServedTimestamp {
            let components = DateComponents(day: days, hour: hours, minute: minutes)
            let date =
                Self.calendar.date(byAdding: components, to: anchor)
                ?? anchor.addingTimeInterval(TimeInterval(days * 86_400 + hours * 3_600 + minutes * 60))
            return ServedTimestamp(date, format: format)
        }
    }

    /// The three date spellings of the backend's campaign and history dates, used in turn.
    static let dateFormats = ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm:ssZZZZZ", "yyyy-MM-dd HH:mm:ss.SSSSSS"]

    /// The format of coupon-set expirations.
    static let expirationFormat = "yyyy-MM-dd HH:mm"

    /// `url` with every `/` written `\/`, the way the backend sometimes sends addresses.
    static func escaped(_ url: String) -> String {
        url.replacingOccurrences(of: "/", with: "\\/")
    }
}
