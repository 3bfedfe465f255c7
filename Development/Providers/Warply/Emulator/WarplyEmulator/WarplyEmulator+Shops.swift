@_spi(EngageProvider) import EngageCore

extension WarplyEmulator {
    /// The merchants in `language` after the request's filters:
    ///
    /// - `categories` (list): merchants in any of them, by category UUID or `admin_name`;
    /// - `default_shown` (flag): when `true`, only merchants shown by default (`false` does not filter);
    /// - `tags` (list): merchants with any of them;
    /// - `uuid`: that merchant;
    /// - `parent_uuids` (list): children of those merchants;
    /// - `center` `{"lat","lon"}`: every merchant gets `distance` in metres and the list is sorted by
    ///   it; with `distance` (km, > 0) only merchants that close are kept.
    func merchants(_ body: WarplyEmulatorContextRequest, language: ServedLanguage) throws -> [ServedMerchant] {
        let catalogue = try catalogue()
        var list = catalogue.merchants[language, default: []]
        let categories = Set(body.strings("categories"))
        if !categories.isEmpty {
            let adminNames = Dictionary(
                catalogue.categories[.greek, default: []].map { ($0.uuid, $0.adminName ?? "") }, uniquingKeysWith: { first, _ in first }
            )
            list = list.filter { merchant in
                merchant.categories.contains { categories.contains($0) || categories.contains(adminNames[$0] ?? "") }
            }
        }
        if Self.flag(body.fields["default_shown"]) == true {
            list = list.filter(\.isDefaultShown)
        }
        let tags = Set(body.strings("tags"))
        if !tags.isEmpty {
            list = list.filter { !tags.isDisjoint(with: $0.tags) }
        }
        if let uuid = body.string("uuid"), !uuid.isEmpty {
            list = list.filter { $0.uuid == uuid }
        }
        let parents = Set(body.strings("parent_uuids"))
        if !parents.isEmpty {
            list = list.filter { $0.parentUUID.map(parents.contains) ?? false }
        }
        guard let center = Self.center(body.fields["center"]) else { return list }
        list = list.map { merchant in
            var merchant = merchant
            merchant.distanceMeters = merchant.location.map { ($0.distance(to: center) * 10).rounded() / 10 }
            return merchant
        }
        if let kilometres = Self.number(body.fields["distance"]), kilometres > 0 {
            list = list.filter { ($0.distanceMeters ?? .infinity) <= kilometres * 1_000 }
        }
        return list.sorted { ($0.distanceMeters ?? .infinity, $0.uuid) < ($1.distanceMeters ?? .infinity, $1.uuid) }
    }

    /// `{"lat": …, "lon": …}` as a point, numbers or numeric strings.
    static func center(_ value: JSONValue?) -> GeoPoint? {
        guard case let .object(object)? = value, let latitude = number(object["lat"]), let longitude = number(object["lon"]) else {
            return nil
        }
        return try? GeoPoint(latitude: latitude, longitude: longitude)
    }
}
