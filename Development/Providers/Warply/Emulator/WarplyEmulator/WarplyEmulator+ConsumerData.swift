@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Hummingbird

extension WarplyEmulator {
    /// `consumer_data`/`handle_user_details`: the profile for `process` `get` (or none); any other
    /// process is a section status 2 refusal.
    func profileAnswer(_ body: WarplyEmulatorContextRequest, email: String) throws -> Response {
        let process = body.string("process") ?? "get"
        guard process == "get" else {
            return try Self.sectionFailure("MAPP_USER", "Unsupported process '\(process.prefix(40))'.")
        }
        return try Self.contextAnswer("MAPP_USER", user(email).profile)
    }

    /// The user's market pass: barcode, the value of redeemed supermarket coupons, unseen offers, the
    /// supermarkets and the map page.
    func marketPass(email: String, language: ServedLanguage) throws -> ServedMarketPassDetails {
        let user = try user(email)
        let history = try supermarketHistory(email: email, language: language)
        return try ServedMarketPassDetails(
            barcode: user.marketPassBarcode, totalDiscount: history.totalRedeemedValue, newOffers: user.newOffers,
            supermarkets: catalogue().supermarkets(language: language), mapURL: "https://engage-uat.dei.gr/market-pass/map"
        )
    }
}
