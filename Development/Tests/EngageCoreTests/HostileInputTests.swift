@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

/// Decoding hostile JSON into any public `Codable` value: a clear error or a value, never a trap.
/// Each type is fed 300 seeded variations of a valid encoding (keys dropped, types swapped, huge and
/// negative numbers, hostile and 100 000-character strings, deep nesting, truncation).
func expectDecodingNeverTraps<T: Codable>(_ valid: T, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let problems = try HostileJSON.problems(decoding: valid, seed: seed)
    #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
}

@Suite("Hostile input: core Codable values", .serialized, .bounded(.heavy))
struct HostileInputTests {
    @Test("every public Codable value of the core decodes hostile JSON to a value or an error, never a trap")
    func coreValues() throws {
        try expectDecodingNeverTraps(EngageConfiguration.preset(.production, appID: "com.example.shop"), seed: 1)
        try expectDecodingNeverTraps(NetworkSettings(), seed: 2)
        try expectDecodingNeverTraps(AuthSettings(), seed: 3)
        try expectDecodingNeverTraps(AnalyticsSettings(), seed: 4)
        try expectDecodingNeverTraps(PageRequest(offset: 10, limit: 20), seed: 5)
        try expectDecodingNeverTraps(try GeoPoint(latitude: 37.98, longitude: 23.72), seed: 6)
        try expectDecodingNeverTraps(Money(minorUnits: 1_250, currency: "EUR"), seed: 7)
        try expectDecodingNeverTraps(LocalizedText(["en": "Hello", "el": "Γεια"]), seed: 8)
        try expectDecodingNeverTraps(ContentQuery(language: "en", category: "news", text: "x"), seed: 9)
        try expectDecodingNeverTraps(
            MerchantQuery(center: try GeoPoint(latitude: 1, longitude: 2), radiusMeters: 500, text: "cafe"), seed: 10)
        try expectDecodingNeverTraps(DurableQueuePolicy(), seed: 11)
        try expectDecodingNeverTraps(RetryPolicy(), seed: 12)
        try expectDecodingNeverTraps(TokenPair(accessToken: "a", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 0)), seed: 13)
        try expectDecodingNeverTraps(JSONValue.object(["a": .array([.integer(1), .string("x"), .null])]), seed: 14)
        try expectDecodingNeverTraps(StorageLocation.directory("/tmp/engage"), seed: 15)
        try expectDecodingNeverTraps(TrackedEvent(.custom, name: "tap", properties: ["k": "v"]), seed: 16)
        try expectDecodingNeverTraps(
            ContentItem(
                id: "c1", providerID: "youll", type: "article", title: LocalizedText(["en": "Breathe"]),
                summary: LocalizedText(["en": "Calm"]),
                imageURL: URL(string: "https://example.com/i.png"), publishedAt: Date(timeIntervalSince1970: 1_700_000_000),
                categories: ["calm"],
                attributes: ["minutes": "5"]
            ),
            seed: 17
        )
        try expectDecodingNeverTraps(
            MerchantSummary(
                id: "m1", providerID: "explore", name: "Café", category: "food", location: try GeoPoint(latitude: -33.8, longitude: 151.2),
                distanceMeters: 120, locationCount: 3, isOnline: true, discountPercent: 4.5, attributes: ["city": "Sydney"]
            ),
            seed: 18
        )
        try expectDecodingNeverTraps(OfferQuery(productIDs: ["sku-1", "sku-2"], placementID: "12"), seed: 19)
        try expectDecodingNeverTraps(ProviderDescriptor(id: "acme", displayName: "Acme", version: "1.0.0", eventSuffix: "acme"), seed: 20)
        try expectDecodingNeverTraps(UserIdentity(userID: "u1", email: "ana@example.com", attributes: ["tier": "gold"]), seed: 21)
        try expectDecodingNeverTraps(ProviderID(rawValue: "crobox"), seed: 22)
        try expectDecodingNeverTraps(ProviderCapability(rawValue: "offers"), seed: 23)
        try expectDecodingNeverTraps(TrackedEvent.Kind.custom, seed: 24)
        try expectDecodingNeverTraps(EngageConfiguration.Preset.highSecurity, seed: 25)
        try expectDecodingNeverTraps(DurableQueuePolicy.DropPolicy.rejectNew, seed: 26)
    }
}
