import EngageCore
import EngageTesting
import Foundation
import Testing

/// Decoding hostile JSON into any public `Codable` value: a clear error or a value, never a trap.
/// Each type is fed 300 seeded variations of a valid encoding (keys dropped, types swapped, huge and
/// negative numbers, hostile and 100 000-character strings, deep nesting, truncation).
func expectDecodingNeverTraps<T: Codable>(_ valid: T, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let encoded = try JSONEncoder().encode(valid)
    _ = try JSONDecoder().decode(T.self, from: encoded)  // the starting point is valid
    let outcomes = HostileJSON.decodingOutcomes(T.self, from: encoded, seed: seed)
    for outcome in outcomes {
        switch outcome {
        case .success(let decoded):
            _ = try JSONEncoder().encode(decoded)  // what decodes can be written back
        case .failure(let error):
            #expect(error is DecodingError || error is EngageError, "\(T.self): \(type(of: error))", sourceLocation: sourceLocation)
        }
    }
    #expect(outcomes.contains { (try? $0.get()) == nil }, "\(T.self) accepted every hostile variation", sourceLocation: sourceLocation)
}

@Suite("Hostile input: core Codable values", .serialized)
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
        try expectDecodingNeverTraps(MerchantQuery(center: try GeoPoint(latitude: 1, longitude: 2), radiusMeters: 500, text: "cafe"), seed: 10)
        try expectDecodingNeverTraps(DurableQueuePolicy(), seed: 11)
        try expectDecodingNeverTraps(RetryPolicy(), seed: 12)
        try expectDecodingNeverTraps(TokenPair(accessToken: "a", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 0)), seed: 13)
        try expectDecodingNeverTraps(JSONValue.object(["a": .array([.integer(1), .string("x"), .null])]), seed: 14)
        try expectDecodingNeverTraps(StorageLocation.directory("/tmp/engage"), seed: 15)
        try expectDecodingNeverTraps(TrackedEvent(.custom, name: "tap", properties: ["k": "v"]), seed: 16)
    }
}
