@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageWarply
import Foundation
import Logging

/// The member tour, on a registry with only the Warply provider.
struct WarplyExampleScenario {
    let registry: ProviderRegistry
    let warply: WarplyProvider

    static let appID = "org.engagekit.warply-example"

    init(
        baseURL: URL, appUUID: String, merchantID: String = "", signing: WarplyConfiguration.Signing = .merchant, language: WarplyLanguage,
        storage: ExampleStorage
    ) async throws {
        var configuration = EngageConfiguration.preset(.development, appID: Self.appID)
        configuration.storage = storage.location
        configuration.logLevel = .error
        var warply = WarplyConfiguration.preset(.development, appUUID: appUUID, merchantID: merchantID)
        warply.signing = signing
        warply.environment = .custom(baseURL)
        warply.language = language
        try configuration.setProvider(.warply, warply)
        registry = try ProviderRegistry(
            configuration: configuration,
            environment: RegistryEnvironment(secretStore: storage.secretStore, logger: ExampleBackend.quietLogger(label: "warply-example"))
        )
        try await registry.register(.provider(WarplyProvider.self, from: configuration))
        let report = await registry.start()
        if let failure = report.failures[.warply] { throw failure }
        self.warply = try await registry.provider(WarplyProvider.self)
    }

    /// The tour for `email`: a login, or the sign-up `signUp` when given.
    func run(email: String, signUp: WarplySignUp?, output: ExampleOutput) async throws {
        let session = try await warply.isLoggedIn() ? "a stored session was found" : "no stored session"
        output.line("Device \(warply.deviceID) (\(session))")
        try await warply.initialize()
        output.line("Device registered with \(warply.baseURL.absoluteString)")
        if let signUp {
            try await warply.register(signUp)
            output.line("Signed up and logged in as \(email)")
        } else {
            try await warply.logIn(deiEmail: email)
            output.line("Logged in as \(email)")
        }

        let campaigns = try await warply.campaigns()
        let coupons = try await warply.coupons()
        if output.json {
            let member = try await warply.profile()
            try output.printJSON(
                ExampleJSON(
                    campaigns: campaigns, activeCoupons: coupons.active, redeemedCoupons: coupons.redeemed, signedUp: signUp != nil,
                    member: .init(firstName: member.firstName, lastName: member.lastName, points: member.points)))
        }
        output.section("Campaigns (\(campaigns.count), carousel \(warply.state.carouselList.count))")
        for campaign in campaigns {
            let availability = campaign.couponAvailability.map { " · \($0) left" } ?? ""
            output.line("\(campaign.sorting). \(campaign.title ?? "-") — \(campaign.subtitle ?? "")\(availability)")
        }
        output.section("Coupons: \(coupons.active.count) active, \(coupons.redeemed.count) redeemed")
        for coupon in coupons.active {
            output.line("active   \(coupon.name ?? coupon.couponSetUUID) expires \(coupon.expiration?.formatted("dd/MM/yyyy") ?? "-")")
        }
        for coupon in coupons.redeemed {
            output.line("redeemed \(coupon.name ?? coupon.couponSetUUID) on \(coupon.redeemedDate?.formatted("dd/MM/yyyy") ?? "-")")
        }

        let profileBefore = try await warply.profile()
        let availability = try await warply.availableCoupons()
        let sets = try await warply.couponSets()
        if let set = sets.first(where: { (availability[$0.uuid] ?? 0) > 0 && ($0.points ?? 0) <= profileBefore.points }) {
            let redemption = try await warply.redeemCoupon(productUUID: set.uuid)
            output.section("Redeemed a coupon")
            output.line("\(set.name ?? set.uuid): \(redemption)")
            output.line("\(set.uuid) now has \(try await warply.availableCoupons()[set.uuid] ?? 0) left")
        }

        let profile = try await warply.profile()
        output.section("Profile")
        output.line(
            "\(profile.displayName ?? [profile.firstName, profile.lastName].compactMap { $0 }.joined(separator: " ")): \(profile.points) points (was \(profileBefore.points))"
        )

        let added = try await warply.addCard(
            WarplyNewCard(
                number: "4111 1111 1111 1111", issuer: "VISA", holder: "MARIA PAPADOPOULOU", expirationMonth: 12, expirationYear: 2031))
        output.section("Cards")
        output.line("Added \(added.maskedNumber ?? "-")")
        for card in try await warply.cards() {
            output.line(
                "\(card.issuer ?? "card") \(card.maskedNumber ?? "-") \(card.expirationMonth ?? "--")/\(card.expirationYear ?? "----")")
        }

        output.section("Points history (newest first)")
        for entry in try await warply.pointsHistory() {
            output.line(
                "\(entry.date?.formatted("dd/MM/yyyy") ?? "-")  \(entry.points > 0 ? "+" : "")\(entry.points)  \(entry.description ?? entry.source ?? "")"
            )
        }
        try await warply.logOut()
        output.line("\nLogged out")
    }

    func shutdown() async {
        await registry.shutdown()
    }
}

/// The `--json` document.
struct ExampleJSON: Encodable {
    /// The member's name and points.
    struct Member: Encodable {
        var firstName: String?
        var lastName: String?
        var points: Int
    }

    var campaigns: [WarplyCampaign]
    var activeCoupons: [WarplyCoupon]
    var redeemedCoupons: [WarplyCoupon]
    /// Whether the member signed up in this run (`--register`) rather than logged in.
    var signedUp: Bool
    var member: Member
}
