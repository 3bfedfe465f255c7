@_spi(EngageProvider) @testable import EngageCore
import Foundation
import EngageTestTraits
import Testing

@Suite("Models", .bounded)
struct ModelTests {
    @Test("PageRequest stays in range however it is set: init, assignment and decoding")
    func pageRequestRanges() throws {
        var page = PageRequest(offset: 5, limit: 10)
        page.limit = -1
        #expect(page.limit == 1)
        page.limit = .max
        #expect(page.limit == PageRequest.maxLimit)
        page.offset = -3
        #expect(page.offset == 0)
        #expect(PageRequest(offset: .min, limit: .min) == PageRequest(offset: 0, limit: 1))
        let decoded = try JSONDecoder().decode(PageRequest.self, from: Data(#"{"offset":20,"limit":50}"#.utf8))
        #expect(decoded == PageRequest(offset: 20, limit: 50))
        #expect(try JSONDecoder().decode(PageRequest.self, from: Data("{}".utf8)) == PageRequest())
        for bad in [#"{"offset":-1,"limit":5}"#, #"{"offset":0,"limit":0}"#, #"{"limit":-7}"#, #"{"limit":1001}"#, #"{"offset":"x"}"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode(PageRequest.self, from: Data(bad.utf8)) }
        }
    }

    @Test("JWT claims decode exp, and malformed tokens are clear errors")
    func jwtClaims() throws {
        let expiry = Date(timeIntervalSince1970: 1_800_000_000)
        let claims = try JWTClaims(decoding: makeJWT(expiresAt: expiry, subject: "u42"))
        #expect(claims.expiresAt == expiry)
        #expect(claims.subject == "u42")
        #expect(TokenPair(accessToken: makeJWT(expiresAt: expiry)).expiresAt == expiry)
        for bad in ["", "abc", "a.b", "a.!!!.c", "eyJ.eyJ.x", "x." + Base64URL.encode(Data(#"{"exp":"soon"}"#.utf8)) + ".y"] {
            #expect(try throwsCode(.decoding) { _ = try JWTClaims(decoding: bad) })
        }
        #expect(TokenPair(accessToken: "opaque-token").expiresAt == nil)
    }

    @Test("Money parses decimal strings exactly and rejects everything else")
    func money() throws {
        #expect(try Money(decimal: "12.50", currency: "eur") == Money(minorUnits: 1250, currency: "EUR"))
        #expect(try Money(decimal: "-3", currency: "USD").minorUnits == -300)
        #expect(try Money(decimal: "0.1", currency: "USD").minorUnits == 10)
        #expect(try Money(decimal: "1000", currency: "JPY", fractionDigits: 0).minorUnits == 1000)
        for bad in ["", "abc", "1.234", "1e5", "1,000.00", "12.", ".", "--1", "99999999999999999999"] {
            #expect(try throwsCode(.invalidInput) { _ = try Money(decimal: bad, currency: "EUR") })
        }
    }

    @Test("GeoPoint validates coordinates and computes haversine distances")
    func geoPoint() throws {
        let athens = try GeoPoint(latitude: 37.9838, longitude: 23.7275)
        let thessaloniki = try GeoPoint(latitude: 40.6401, longitude: 22.9444)
        #expect(abs(athens.distance(to: thessaloniki) - 302_000) < 2_000)
        #expect(athens.distance(to: athens) == 0)
        #expect(try throwsCode(.invalidInput) { _ = try GeoPoint(latitude: 91, longitude: 0) })
        #expect(try throwsCode(.invalidInput) { _ = try GeoPoint(latitude: .nan, longitude: 0) })
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(GeoPoint.self, from: Data(#"{"latitude":100,"longitude":0}"#.utf8)) }
    }

    @Test("LocalizedText falls back from region to language to default")
    func localizedText() {
        let text = LocalizedText(["en": "Hello", "el": "Γειά"], defaultLanguage: "en")
        #expect(text.value(for: "el-GR") == "Γειά")
        #expect(text.value(for: "de") == "Hello")
    }

    @Test("errors convert with context")
    func errorConversion() throws {
        struct Shape: Decodable { var items: [Int] }
        do {
            _ = try JSONDecoder().decode(Shape.self, from: Data(#"{"items":[1,"two"]}"#.utf8))
        } catch {
            let wrapped = EngageError.wrapping(error, providerID: "crobox")
            #expect(wrapped.code == .decoding)
            #expect(wrapped.message.contains("items[1]"))
            #expect(wrapped.providerID == "crobox")
        }
        #expect(EngageError.wrapping(CancellationError()).code == .cancelled)
        #expect(EngageError.http(status: 503).isRetryable)
        #expect(!EngageError.http(status: 404).isRetryable)
        #expect([408, 425, 429, 500, 599].allSatisfy(EngageError.isRetryable(httpStatus:)))
        #expect(![200, 400, 401, 404, 409, 422, 600].contains(where: EngageError.isRetryable(httpStatus:)))
        #expect(EngageError.http(status: 401).code == .unauthorized)
        let existing = EngageError(.storage, "disk full", providerID: "warply")
        #expect(EngageError.wrapping(existing, providerID: "crobox").providerID == "warply")
    }

    @Test("query encoding follows RFC 3986, so '+' survives form decoders")
    func queryEncoding() {
        #expect(QueryEncoding.encode("a+b c&d=e/é") == "a%2Bb%20c%26d%3De%2F%C3%A9")
        #expect(QueryEncoding.encode("Az09-._~") == "Az09-._~")
    }

    @Test("provider ids follow the naming rules")
    func providerIDs() {
        #expect(ProviderID("crobox").isValid)
        #expect(ProviderID("gift-cards_2").isValid)
        for bad in ["", "Crobox", "1abc", "a b", "a/b", String(repeating: "a", count: 65)] {
            #expect(!ProviderID(rawValue: bad).isValid)
        }
    }

    @Test("an event stored by an earlier version (string properties) decodes; JSON properties round-trip")
    func eventPropertiesAsJSON() throws {
        let stored = Data(#"{"kind":"custom","name":"old","properties":{"step":"2","plan":"gold"},"occurredAt":0}"#.utf8)
        let old = try JSONDecoder().decode(TrackedEvent.self, from: stored)
        #expect(old.properties == ["step": "2", "plan": "gold"])
        let event = TrackedEvent(.custom, name: "new", properties: ["seats": 3, "tags": ["a"], "paid": true, "meta": ["k": nil]])
        let decoded = try JSONDecoder().decode(TrackedEvent.self, from: JSONEncoder().encode(event))
        #expect(decoded.properties == event.properties)
        #expect(decoded.properties["seats"]?.int64Value == 3)
        let identity = UserIdentity(userID: "u-1", attributes: ["age": 41, "segments": ["vip"]])
        #expect(try JSONDecoder().decode(UserIdentity.self, from: JSONEncoder().encode(identity)) == identity)
        #expect(JSONValue.object(["x": .number(.infinity)]).isFinite == false)
        #expect(JSONValue.array([1, 2.5, "x"]).text == #"[1,2.5,"x"]"#)
    }
}
