@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing

// MARK: - Helpers

/// Decodes `json` as `T` with a plain `JSONDecoder`, as the provider does.
private func decodeJSON<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(json.utf8))
}

/// Encodes `value` and decodes it back.
private func reencoded<T: Codable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
}

/// The keys of the JSON object `value` encodes to.
private func wireKeys(_ value: some Encodable) throws -> Set<String> {
    let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
    return Set((object as? [String: Any])?.keys.map { $0 } ?? [])
}

/// The `DecodingError` decoding `json` as `T` throws, or `nil` when it decodes (or throws something else).
private func decodingFailure<T: Decodable>(_ type: T.Type, _ json: String) -> DecodingError? {
    do {
        _ = try decodeJSON(type, json)
        return nil
    } catch let error as DecodingError {
        return error
    } catch {
        return nil
    }
}

/// The wire field a decoding error names: the missing key, or the last key of its coding path.
private func failingField(of error: DecodingError?) -> String? {
    guard let error else { return nil }
    switch error {
    case let .keyNotFound(key, _): return key.stringValue
    case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
        return context.codingPath.last?.stringValue
    @unknown default: return nil
    }
}

/// Whether `error` is a `keyNotFound` for `key`.
private func failsForMissingKey(_ error: DecodingError?, _ key: String) -> Bool {
    if case let .keyNotFound(missing, _)? = error { return missing.stringValue == key }
    return false
}

/// The full coding path of a decoding error, joined with dots (array indices included).
private func failingPath(of error: DecodingError?) -> String {
    guard let error else { return "" }
    let keys: [any CodingKey]
    switch error {
    case let .keyNotFound(key, context): keys = context.codingPath + [key]
    case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context): keys = context.codingPath
    @unknown default: keys = []
    }
    return keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
}

// MARK: - Campaign

@Suite("WarplyCampaign", .bounded)
struct WarplyCampaignDecodingTests {
    static let payload = #"""
        { "session_uuid": "c1a2b3c4", "index_url": "https:\\/\\/engage-uat.dei.gr\\/campaign\\/c1a2b3c4",
          "title": "Έκπτωση 10% στα καύσιμα", "subtitle": "Fuel discount", "offer_category": "fuel",
          "logo_url": "https:\/\/cdn.example.gr\/logo.png", "couponset": "cs-1", "sorting": "3", "type": "coupon",
          "carousel": "false", "coupon_availability": "12", "banner_img": "https:\\/\\/cdn.example.gr\\/banner.jpg",
          "banner_img_mobile": "https://cdn.example.gr/banner-m.jpg", "coupon_img": "", "campaign_url": null,
          "filter": "all", "start_date": "2026-01-01 00:00:00", "end_date": "2026-12-31 23:59:59+02:00",
          "communication_category": "rewards" }
        """#

    @Test func decodesRealisticPayload() throws {
        let campaign = try decodeJSON(WarplyCampaign.self, Self.payload)
        #expect(campaign.sessionUUID == "c1a2b3c4")
        #expect(campaign.id == "c1a2b3c4")
        #expect(campaign.indexURL == "https://engage-uat.dei.gr/campaign/c1a2b3c4")
        #expect(campaign.resolvedIndexURL?.host == "engage-uat.dei.gr")
        #expect(campaign.title == "Έκπτωση 10% στα καύσιμα")
        #expect(campaign.subtitle == "Fuel discount")
        #expect(campaign.offerCategory == "fuel")
        #expect(campaign.logoURL == "https://cdn.example.gr/logo.png")
        #expect(campaign.couponSetUUID == "cs-1")
        #expect(campaign.sorting == 3)
        #expect(campaign.type == "coupon")
        #expect(campaign.isCarousel == false)
        #expect(campaign.couponAvailability == 12)
        #expect(campaign.bannerImage == "https://cdn.example.gr/banner.jpg")
        #expect(campaign.bannerImageURL != nil)
        #expect(campaign.bannerImageMobile == "https://cdn.example.gr/banner-m.jpg")
        #expect(campaign.couponImage == nil)
        #expect(campaign.campaignURL == nil)
        #expect(campaign.filter == "all")
        #expect(campaign.startDate?.text == "2026-01-01 00:00:00")
        #expect(campaign.startDate?.date != nil)
        #expect(campaign.endDate?.date != nil)
        #expect(campaign.communicationCategory == "rewards")
        #expect(!campaign.isCCMS && !campaign.isTelco && !campaign.isQuestionnaire)
    }

    @Test(arguments: [
        (#""true""#, true), ("true", true), ("1", true), (#""1""#, true),
        (#""false""#, false), ("false", false), ("0", false), (#""0""#, false), ("null", false), (#""""#, false),
    ])
    func readsCarouselFlagVariants(wire: String, expected: Bool) throws {
        let campaign = try decodeJSON(WarplyCampaign.self, #"{"session_uuid":"s","carousel":\#(wire)}"#)
        #expect(campaign.isCarousel == expected)
    }

    @Test func readsNumbersSentAsStringsOrNumbers() throws {
        let asNumbers = try decodeJSON(WarplyCampaign.self, #"{"session_uuid":"s","sorting":7,"coupon_availability":0}"#)
        let asStrings = try decodeJSON(WarplyCampaign.self, #"{"session_uuid":"s","sorting":"7","coupon_availability":"0"}"#)
        #expect(asNumbers == asStrings)
        #expect(asNumbers.sorting == 7)
        #expect(asNumbers.couponAvailability == 0)
        let bare = try decodeJSON(WarplyCampaign.self, #"{"session_uuid":42}"#)
        #expect(bare.sessionUUID == "42")
        #expect(bare.sorting == 0)
        #expect(bare.couponAvailability == nil)
        #expect(bare.isCarousel == false)
    }

    @Test func classifiesFilteredTypes() {
        #expect(WarplyCampaign(sessionUUID: "a", type: WarplyCampaign.ccmsType).isCCMS)
        #expect(WarplyCampaign(sessionUUID: "a", type: "CCMS").isCCMS)
        #expect(WarplyCampaign(sessionUUID: "a", type: WarplyCampaign.questionnaireType).isQuestionnaire)
        #expect(WarplyCampaign(sessionUUID: "a", type: WarplyCampaign.supermarketType).isSupermarket)
        #expect(WarplyCampaign(sessionUUID: "a", offerCategory: WarplyCampaign.telcoCategory).isTelco)
        #expect(!WarplyCampaign(sessionUUID: "a").isTelco)
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyCampaign.self, #"{"session_uuid":"s","sorting":"first"}"#)) == "sorting")
        #expect(failingField(of: decodingFailure(WarplyCampaign.self, #"{"session_uuid":"s","title":{"el":"x"}}"#)) == "title")
        #expect(failingField(of: decodingFailure(WarplyCampaign.self, #"{"session_uuid":"s","carousel":"maybe"}"#)) == "carousel")
        #expect(failingField(of: decodingFailure(WarplyCampaign.self, #"{"session_uuid":"s","start_date":{"d":1}}"#)) == "start_date")
        #expect(failingField(of: decodingFailure(WarplyCampaign.self, #"{"session_uuid":"s","logo_url":["x"]}"#)) == "logo_url")
    }

    @Test func requiresSessionUUID() {
        #expect(failsForMissingKey(decodingFailure(WarplyCampaign.self, #"{"title":"Χωρίς id"}"#), "session_uuid"))
        #expect(failingField(of: decodingFailure(WarplyCampaign.self, #"{"session_uuid":"  "}"#)) == "session_uuid")
        #expect(failingField(of: decodingFailure(WarplyCampaign.self, #"{"session_uuid":null}"#)) == "session_uuid")
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyCampaign.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        let built = WarplyCampaign(
            sessionUUID: "s-1", indexURL: "https://x.gr/i", title: "Τίτλος", subtitle: "Sub", offerCategory: "telco",
            logoURL: "https://x.gr/l.png", couponSetUUID: "cs", sorting: -2, type: "ccms", isCarousel: true,
            couponAvailability: 5, bannerImage: "https://x.gr/b", bannerImageMobile: "https://x.gr/bm",
            couponImage: "https://x.gr/c", campaignURL: "https://x.gr/c", filter: "f",
            startDate: WarplyTimestamp("2026-01-01 00:00:00"), endDate: WarplyTimestamp("2026-02-01 00:00:00.123456"),
            communicationCategory: "cc"
        )
        #expect(try reencoded(built) == built)
        #expect(try reencoded(WarplyCampaign(sessionUUID: "only")) == WarplyCampaign(sessionUUID: "only"))
    }

    @Test func encodesTheWireKeys() throws {
        let keys = try wireKeys(
            WarplyCampaign(sessionUUID: "s", indexURL: "u", bannerImageMobile: "b", startDate: WarplyTimestamp("2026-01-01")))
        #expect(keys == ["session_uuid", "index_url", "banner_img_mobile", "start_date", "sorting", "carousel"])
    }
}

// MARK: - Contextual offer

@Suite("WarplyContextualOffer", .bounded)
struct WarplyContextualOfferDecodingTests {
    static let payload = #"""
        { "loyaltyCampaignId": "lc-42", "eligibleAssets": ["6900000000", "6911111111"], "offerName": "Διπλοί πόντοι", "sessionId": "s-7" }
        """#

    @Test func decodesRealisticPayload() throws {
        let offer = try decodeJSON(WarplyContextualOffer.self, Self.payload)
        #expect(offer.loyaltyCampaignID == "lc-42")
        #expect(offer.id == "lc-42")
        #expect(offer.eligibleAssets == ["6900000000", "6911111111"])
        #expect(offer.offerName == "Διπλοί πόντοι")
        #expect(offer.sessionID == "s-7")
        let english = try decodeJSON(WarplyContextualOffer.self, #"{"loyaltyCampaignId":"lc-43","offerName":"Double points"}"#)
        #expect(english.offerName == "Double points")
        #expect(english.eligibleAssets.isEmpty)
        #expect(english.sessionID == nil)
    }

    @Test func readsAssetListVariants() throws {
        let numbers = try decodeJSON(WarplyContextualOffer.self, #"{"loyaltyCampaignId":7,"eligibleAssets":[6900000000,6911111111]}"#)
        let text = try decodeJSON(WarplyContextualOffer.self, #"{"loyaltyCampaignId":"7","eligibleAssets":"6900000000, 6911111111"}"#)
        #expect(numbers == text)
        #expect(numbers.eligibleAssets == ["6900000000", "6911111111"])
        let none = try decodeJSON(WarplyContextualOffer.self, #"{"loyaltyCampaignId":"7","eligibleAssets":null}"#)
        #expect(none.eligibleAssets.isEmpty)
    }

    @Test func rejectsWrongTypes() {
        #expect(
            failingField(of: decodingFailure(WarplyContextualOffer.self, #"{"loyaltyCampaignId":"l","eligibleAssets":{"a":1}}"#))
                == "eligibleAssets")
        #expect(failingField(of: decodingFailure(WarplyContextualOffer.self, #"{"loyaltyCampaignId":"l","offerName":[1]}"#)) == "offerName")
    }

    @Test func requiresLoyaltyCampaignID() {
        #expect(failsForMissingKey(decodingFailure(WarplyContextualOffer.self, #"{"offerName":"x"}"#), "loyaltyCampaignId"))
        #expect(failingField(of: decodingFailure(WarplyContextualOffer.self, #"{"loyaltyCampaignId":""}"#)) == "loyaltyCampaignId")
    }

    @Test func roundTrips() throws {
        let offer = WarplyContextualOffer(loyaltyCampaignID: "lc", eligibleAssets: ["a", "b"], offerName: "Προσφορά", sessionID: "s")
        #expect(try reencoded(offer) == offer)
        #expect(try wireKeys(offer) == ["loyaltyCampaignId", "eligibleAssets", "offerName", "sessionId"])
    }
}

// MARK: - Coupon set

@Suite("WarplyCouponSet", .bounded)
struct WarplyCouponSetDecodingTests {
    static let payload = #"""
        { "uuid": "cs-1", "name": "Κουπόνι καυσίμων", "description": "10% off fuel", "img_preview": "https:\\/\\/cdn.example.gr\\/cs-1.png",
          "expiration": "2026-12-31 23:59", "discount": "10%", "discount_type": "percentage", "final_price": "9.90",
          "couponset_type": "supermarket", "merchant_uuid": "m-1", "terms": "Ισχύει έως 31/12", "shop_availability": "all",
          "active": "1", "points": "200", "visible": "false" }
        """#

    @Test func decodesRealisticPayload() throws {
        let set = try decodeJSON(WarplyCouponSet.self, Self.payload)
        #expect(set.uuid == "cs-1")
        #expect(set.id == "cs-1")
        #expect(set.name == "Κουπόνι καυσίμων")
        #expect(set.description == "10% off fuel")
        #expect(set.imagePreview == "https://cdn.example.gr/cs-1.png")
        #expect(set.imagePreviewURL?.lastPathComponent == "cs-1.png")
        #expect(set.expiration?.text == "2026-12-31 23:59")
        #expect(set.expiration?.date != nil)
        #expect(set.expiration?.formatted("dd/MM/yyyy") == "31/12/2026")
        #expect(set.discount == "10%")
        #expect(set.discountType == "percentage")
        #expect(set.finalPrice == Decimal(string: "9.9"))
        #expect(set.couponSetType == "supermarket")
        #expect(set.merchantUUID == "m-1")
        #expect(set.terms == "Ισχύει έως 31/12")
        #expect(set.shopAvailability == "all")
        #expect(set.isActive)
        #expect(set.points == 200)
        #expect(!set.isVisible)
    }

    @Test func readsLooseScalarsAndDefaults() throws {
        let set = try decodeJSON(
            WarplyCouponSet.self, #"{"uuid":"cs","discount":5,"final_price":12.5,"points":"","active":0,"visible":true}"#)
        #expect(set.discount == "5")
        #expect(set.finalPrice == Decimal(string: "12.5"))
        #expect(set.points == nil)
        #expect(!set.isActive)
        #expect(set.isVisible)
        let bare = try decodeJSON(WarplyCouponSet.self, #"{"uuid":"cs"}"#)
        #expect(bare.isActive && bare.isVisible)
        #expect(bare == WarplyCouponSet(uuid: "cs"))
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyCouponSet.self, #"{"uuid":"cs","final_price":"δωρεάν"}"#)) == "final_price")
        #expect(failingField(of: decodingFailure(WarplyCouponSet.self, #"{"uuid":"cs","points":"πολλοί"}"#)) == "points")
        #expect(failingField(of: decodingFailure(WarplyCouponSet.self, #"{"uuid":"cs","active":"sometimes"}"#)) == "active")
    }

    @Test func requiresUUID() {
        #expect(failsForMissingKey(decodingFailure(WarplyCouponSet.self, #"{"name":"x"}"#), "uuid"))
        #expect(failingField(of: decodingFailure(WarplyCouponSet.self, #"{"uuid":""}"#)) == "uuid")
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyCouponSet.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        let built = WarplyCouponSet(
            uuid: "cs", name: "N", description: "D", imagePreview: "https://x.gr/p", expiration: WarplyTimestamp("2026-05-01 10:00"),
            discount: "5", discountType: "value", finalPrice: Decimal(string: "19.99"), couponSetType: "t", merchantUUID: "m",
            terms: "T", shopAvailability: "online", isActive: false, points: 0, isVisible: false
        )
        #expect(try reencoded(built) == built)
        #expect(
            try wireKeys(built).isSuperset(of: [
                "img_preview", "discount_type", "final_price", "couponset_type", "merchant_uuid", "shop_availability", "active", "visible",
            ]))
    }
}

// MARK: - Coupon availability

@Suite("WarplyCouponAvailability", .bounded)
struct WarplyCouponAvailabilityDecodingTests {
    @Test func decodesStringAndNumberForms() throws {
        let asString = try decodeJSON(WarplyCouponAvailability.self, #"{"couponset_uuid":"cs-1","availability":"12"}"#)
        let asNumber = try decodeJSON(WarplyCouponAvailability.self, #"{"couponset_uuid":"cs-1","availability":12}"#)
        #expect(asString == asNumber)
        #expect(asString.couponSetUUID == "cs-1")
        #expect(asString.id == "cs-1")
        #expect(asString.availability == 12)
        let list = try decodeJSON(
            [WarplyCouponAvailability].self, #"[{"couponset_uuid":"α-1","availability":0},{"couponset_uuid":"β-2","availability":"3.0"}]"#)
        #expect(list.map(\.availability) == [0, 3])
    }

    @Test func rejectsWrongTypes() {
        #expect(
            failingField(of: decodingFailure(WarplyCouponAvailability.self, #"{"couponset_uuid":"cs","availability":"many"}"#))
                == "availability")
        #expect(
            failingField(of: decodingFailure(WarplyCouponAvailability.self, #"{"couponset_uuid":"cs","availability":2.5}"#))
                == "availability")
        #expect(
            failingField(of: decodingFailure(WarplyCouponAvailability.self, #"{"couponset_uuid":{"id":1},"availability":1}"#))
                == "couponset_uuid")
    }

    @Test func requiresBothFields() {
        #expect(failsForMissingKey(decodingFailure(WarplyCouponAvailability.self, #"{"availability":1}"#), "couponset_uuid"))
        #expect(failsForMissingKey(decodingFailure(WarplyCouponAvailability.self, #"{"couponset_uuid":"cs"}"#), "availability"))
        #expect(
            failingField(of: decodingFailure(WarplyCouponAvailability.self, #"{"couponset_uuid":"cs","availability":null}"#))
                == "availability")
    }

    @Test func roundTrips() throws {
        let value = WarplyCouponAvailability(couponSetUUID: "cs", availability: 4)
        #expect(try reencoded(value) == value)
        #expect(try wireKeys(value) == ["couponset_uuid", "availability"])
    }
}

// MARK: - Merchant

@Suite("WarplyMerchant", .bounded)
struct WarplyMerchantDecodingTests {
    static let payload = #"""
        { "uuid": "m-1", "name": "Σκλαβενίτης Κηφισιάς", "address": "Λεωφ. Κηφισίας 100", "city": "Αθήνα", "region": "Αττική",
          "postal_code": 14562, "telephone": "2100000000", "website": "https:\\/\\/www.example.gr\\/", "email": "info@example.gr",
          "img_preview": "https:\\/\\/cdn.example.gr\\/m-1.png", "description": "Supermarket", "categories": ["supermarket", "food"],
          "tags": "24h, parking", "latitude": "38.0742", "longitude": 23.8118, "default_shown": "1", "parent": "m-0", "distance": "1250.5" }
        """#

    @Test func decodesRealisticPayload() throws {
        let merchant = try decodeJSON(WarplyMerchant.self, Self.payload)
        #expect(merchant.uuid == "m-1")
        #expect(merchant.id == "m-1")
        #expect(merchant.name == "Σκλαβενίτης Κηφισιάς")
        #expect(merchant.address == "Λεωφ. Κηφισίας 100")
        #expect(merchant.city == "Αθήνα")
        #expect(merchant.region == "Αττική")
        #expect(merchant.postalCode == "14562")
        #expect(merchant.telephone == "2100000000")
        #expect(merchant.website == "https://www.example.gr/")
        #expect(merchant.websiteURL?.host == "www.example.gr")
        #expect(merchant.email == "info@example.gr")
        #expect(merchant.logo == "https://cdn.example.gr/m-1.png")
        #expect(merchant.logoURL != nil)
        #expect(merchant.description == "Supermarket")
        #expect(merchant.categories == ["supermarket", "food"])
        #expect(merchant.tags == ["24h", "parking"])
        #expect(merchant.latitude == 38.0742)
        #expect(merchant.longitude == 23.8118)
        #expect(merchant.isDefaultShown)
        #expect(merchant.parentUUID == "m-0")
        #expect(merchant.distanceMeters == 1250.5)
        let location = try #require(merchant.location)
        #expect(location == (try GeoPoint(latitude: 38.0742, longitude: 23.8118)))
    }

    @Test func locationIsNilForMissingOrInvalidCoordinates() throws {
        #expect(WarplyMerchant(uuid: "m", latitude: 38).location == nil)
        #expect(WarplyMerchant(uuid: "m", latitude: 138, longitude: 23).location == nil)
        #expect(WarplyMerchant(uuid: "m", latitude: 38, longitude: -190).location == nil)
        let decoded = try decodeJSON(
            WarplyMerchant.self, #"{"uuid":"m","latitude":"","longitude":null,"default_shown":false,"categories":[1,2]}"#)
        #expect(decoded.location == nil)
        #expect(!decoded.isDefaultShown)
        #expect(decoded.categories == ["1", "2"])
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyMerchant.self, #"{"uuid":"m","latitude":"βόρεια"}"#)) == "latitude")
        #expect(failingField(of: decodingFailure(WarplyMerchant.self, #"{"uuid":"m","categories":{"a":"b"}}"#)) == "categories")
        #expect(failingField(of: decodingFailure(WarplyMerchant.self, #"{"uuid":"m","name":{"el":"Όνομα"}}"#)) == "name")
        #expect(failingField(of: decodingFailure(WarplyMerchant.self, #"{"uuid":"m","default_shown":"often"}"#)) == "default_shown")
    }

    @Test func requiresUUID() {
        #expect(failsForMissingKey(decodingFailure(WarplyMerchant.self, #"{"name":"Χωρίς id"}"#), "uuid"))
        #expect(failingField(of: decodingFailure(WarplyMerchant.self, #"{"uuid":""}"#)) == "uuid")
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyMerchant.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        #expect(try wireKeys(decoded).isSuperset(of: ["postal_code", "img_preview", "default_shown", "parent", "distance"]))
    }
}

// MARK: - Coupon

@Suite("WarplyCoupon", .bounded)
struct WarplyCouponDecodingTests {
    static let payload = #"""
        { "coupon_id": 9001, "couponset_uuid": "cs-1", "name": "Κουπόνι καυσίμων", "coupon": "FUEL-7Q2X", "barcode": 5201234567890,
          "status": "1", "expiration": "2026-12-31 23:59:00", "redeemed_date": null, "discount": 5,
          "couponset_data": { "uuid": "cs-1", "name": "Fuel coupon", "img_preview": "https:\\/\\/cdn.example.gr\\/cs.png", "final_price": "0" },
          "merchant_details": { "uuid": "m-1", "name": "Shell Μαρούσι", "latitude": 38.05, "longitude": 23.8 } }
        """#

    @Test func decodesRealisticPayload() throws {
        let coupon = try decodeJSON(WarplyCoupon.self, Self.payload)
        #expect(coupon.id == "9001")
        #expect(coupon.couponSetUUID == "cs-1")
        #expect(coupon.name == "Κουπόνι καυσίμων")
        #expect(coupon.code == "FUEL-7Q2X")
        #expect(coupon.barcode == "5201234567890")
        #expect(coupon.status == WarplyCoupon.activeStatus)
        #expect(coupon.isActive && !coupon.isRedeemed)
        #expect(coupon.expiration?.date != nil)
        #expect(coupon.redeemedDate == nil)
        #expect(coupon.discount == "5")
        #expect(coupon.couponSet?.imagePreview == "https://cdn.example.gr/cs.png")
        #expect(coupon.couponSet?.finalPrice == 0)
        #expect(coupon.merchant?.name == "Shell Μαρούσι")
        #expect(coupon.merchant?.location != nil)
    }

    @Test(arguments: [(#""0""#, 0), ("0", 0), (#""1""#, 1), ("1", 1), ("null", 1), (#""""#, 1)])
    func readsStatusVariants(wire: String, expected: Int) throws {
        let coupon = try decodeJSON(WarplyCoupon.self, #"{"couponset_uuid":"cs","status":\#(wire)}"#)
        #expect(coupon.status == expected)
        #expect(coupon.isRedeemed == (expected == WarplyCoupon.redeemedStatus))
    }

    @Test func readsEmptyNestedObjectsAsNil() throws {
        for empty in ["[]", "{}", "null", #""""#] {
            let coupon = try decodeJSON(
                WarplyCoupon.self, #"{"couponset_uuid":"cs","couponset_data":\#(empty),"merchant_details":\#(empty)}"#)
            #expect(coupon.couponSet == nil)
            #expect(coupon.merchant == nil)
        }
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyCoupon.self, #"{"couponset_uuid":"cs","status":"ενεργό"}"#)) == "status")
        #expect(failingField(of: decodingFailure(WarplyCoupon.self, #"{"couponset_uuid":"cs","coupon":{"code":"x"}}"#)) == "coupon")
        #expect(
            failingField(of: decodingFailure(WarplyCoupon.self, #"{"couponset_uuid":"cs","couponset_data":"cs-1"}"#)) == "couponset_data")
        // A nested model's own error keeps its path.
        let nested = decodingFailure(WarplyCoupon.self, #"{"couponset_uuid":"cs","merchant_details":{"uuid":"m","latitude":"far"}}"#)
        #expect(failingPath(of: nested) == "merchant_details.latitude")
        #expect(
            failingPath(of: decodingFailure(WarplyCoupon.self, #"{"couponset_uuid":"cs","couponset_data":{"name":"x"}}"#))
                == "couponset_data.uuid")
    }

    @Test func requiresCouponSetUUID() {
        #expect(failsForMissingKey(decodingFailure(WarplyCoupon.self, #"{"coupon":"ABC"}"#), "couponset_uuid"))
        #expect(failingField(of: decodingFailure(WarplyCoupon.self, #"{"couponset_uuid":""}"#)) == "couponset_uuid")
    }

    @Test func descriptionMasksCodeAndBarcode() throws {
        let coupon = try decodeJSON(WarplyCoupon.self, Self.payload)
        for text in [coupon.description, String(describing: coupon), String(reflecting: coupon), "\(coupon)", "\([coupon])"] {
            #expect(!text.contains("FUEL-7Q2X"))
            #expect(!text.contains("5201234567890"))
            #expect(text.contains("*******2X"))
            #expect(text.contains("***********90"))
        }
        #expect(!WarplyCoupon(couponSetUUID: "cs", code: "AB12").description.contains("12"))
        var dumped = ""
        dump(WarplyRedeemedSupermarketHistory(redeemedCoupons: [coupon]), to: &dumped)
        #expect(!dumped.contains("FUEL-7Q2X"))
        #expect(!dumped.contains("5201234567890"))
        #expect(!"\(WarplyRedeemedSupermarketHistory(redeemedCoupons: [coupon]))".contains("FUEL-7Q2X"))
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyCoupon.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        let redeemed = WarplyCoupon(
            couponSetUUID: "cs", name: "Δώρο", code: "X1", status: WarplyCoupon.redeemedStatus,
            redeemedDate: WarplyTimestamp("2026-03-01 18:22:10"), couponSet: WarplyCouponSet(uuid: "cs", points: 10),
            merchant: WarplyMerchant(uuid: "m", tags: ["a"])
        )
        #expect(try reencoded(redeemed) == redeemed)
        #expect(
            try wireKeys(redeemed) == ["couponset_uuid", "name", "coupon", "status", "redeemed_date", "couponset_data", "merchant_details"])
    }
}

// MARK: - Redeemed supermarket history

@Suite("WarplyRedeemedSupermarketHistory", .bounded)
struct WarplyRedeemedSupermarketHistoryDecodingTests {
    static let payload = #"""
        { "total_redeemed_value": "23.50",
          "redeemed_coupon_list": [ { "couponset_uuid": "cs-1", "name": "Έκπτωση 5€", "status": 0, "redeemed_date": "2026-02-01 10:00:00" },
                                    { "couponset_uuid": "cs-2", "name": "Discount 3€", "status": "0" } ] }
        """#

    @Test func decodesRealisticPayload() throws {
        let history = try decodeJSON(WarplyRedeemedSupermarketHistory.self, Self.payload)
        #expect(history.totalRedeemedValue == Decimal(string: "23.5"))
        #expect(history.redeemedCoupons.map(\.couponSetUUID) == ["cs-1", "cs-2"])
        #expect(history.redeemedCoupons.allSatisfy { $0.isRedeemed })
    }

    @Test func readsLooseForms() throws {
        let number = try decodeJSON(
            WarplyRedeemedSupermarketHistory.self, #"{"total_redeemed_value":23.5,"redeemed_coupon_list":{"couponset_uuid":"cs"}}"#)
        #expect(number.totalRedeemedValue == Decimal(string: "23.5"))
        #expect(number.redeemedCoupons.count == 1)
        let empty = try decodeJSON(WarplyRedeemedSupermarketHistory.self, "{}")
        #expect(empty == WarplyRedeemedSupermarketHistory())
        #expect(empty.totalRedeemedValue == 0)
    }

    @Test func rejectsWrongTypes() {
        #expect(
            failingField(of: decodingFailure(WarplyRedeemedSupermarketHistory.self, #"{"total_redeemed_value":"πολλά"}"#))
                == "total_redeemed_value")
        #expect(
            failingField(of: decodingFailure(WarplyRedeemedSupermarketHistory.self, #"{"redeemed_coupon_list":"none"}"#))
                == "redeemed_coupon_list")
    }

    @Test func requiresTheCouponsRequiredFields() {
        let error = decodingFailure(
            WarplyRedeemedSupermarketHistory.self, #"{"redeemed_coupon_list":[{"couponset_uuid":"ok"},{"name":"x"}]}"#)
        #expect(failsForMissingKey(error, "couponset_uuid"))
        #expect(failingPath(of: error) == "redeemed_coupon_list.1.couponset_uuid")
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyRedeemedSupermarketHistory.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        #expect(try wireKeys(decoded) == ["total_redeemed_value", "redeemed_coupon_list"])
    }
}

// MARK: - Merchant category

@Suite("WarplyMerchantCategory", .bounded)
struct WarplyMerchantCategoryDecodingTests {
    @Test func decodesRealisticPayload() throws {
        let category = try decodeJSON(
            WarplyMerchantCategory.self,
            #"{"uuid":"mc-1","name":"Σούπερ μάρκετ","admin_name":"supermarkets","image":"https:\\/\\/cdn.example.gr\\/mc-1.png","parent":null}"#
        )
        #expect(category.id == "mc-1")
        #expect(category.name == "Σούπερ μάρκετ")
        #expect(category.adminName == "supermarkets")
        #expect(category.image == "https://cdn.example.gr/mc-1.png")
        #expect(category.imageURL?.lastPathComponent == "mc-1.png")
        #expect(category.parentUUID == nil)
        let english = try decodeJSON(WarplyMerchantCategory.self, #"{"uuid":12,"name":"Supermarkets","parent":3}"#)
        #expect(english.uuid == "12")
        #expect(english.parentUUID == "3")
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyMerchantCategory.self, #"{"uuid":"mc","name":["a"]}"#)) == "name")
        #expect(failingField(of: decodingFailure(WarplyMerchantCategory.self, #"{"uuid":"mc","image":{"src":"x"}}"#)) == "image")
    }

    @Test func requiresUUID() {
        #expect(failsForMissingKey(decodingFailure(WarplyMerchantCategory.self, #"{"name":"Καφέ"}"#), "uuid"))
        #expect(failingField(of: decodingFailure(WarplyMerchantCategory.self, #"{"uuid":""}"#)) == "uuid")
    }

    @Test func roundTrips() throws {
        let category = WarplyMerchantCategory(uuid: "mc", name: "Καφέ", adminName: "cafes", image: "https://x.gr/i.png", parentUUID: "p")
        #expect(try reencoded(category) == category)
        #expect(try wireKeys(category) == ["uuid", "name", "admin_name", "image", "parent"])
    }
}

// MARK: - Profile

@Suite("WarplyProfile", .bounded)
struct WarplyProfileDecodingTests {
    static let payload = #"""
        { "consumer_uuid": "u-1", "email": "maria@example.gr", "firstname": "Μαρία", "lastname": "Παπαδοπούλου",
          "display_name": "Μαρία Π.", "birthday": "1990-05-17", "gender": "female", "msisdn": 306900000000,
          "loyalty_id": "L-100", "user_points": "1250", "tier": "gold", "nameday": "08-15",
          "image_url": "https:\\/\\/cdn.example.gr\\/u-1.jpg", "subscribe": "true", "language": "el" }
        """#

    @Test func decodesRealisticPayload() throws {
        let profile = try decodeJSON(WarplyProfile.self, Self.payload)
        #expect(profile.userID == "u-1")
        #expect(profile.email == "maria@example.gr")
        #expect(profile.firstName == "Μαρία")
        #expect(profile.lastName == "Παπαδοπούλου")
        #expect(profile.displayName == "Μαρία Π.")
        #expect(profile.birthday?.formatted("dd/MM/yyyy") == "17/05/1990")
        #expect(profile.gender == "female")
        #expect(profile.msisdn == "306900000000")
        #expect(profile.loyaltyID == "L-100")
        #expect(profile.points == 1250)
        #expect(profile.tier == "gold")
        #expect(profile.nameDay == "08-15")
        #expect(profile.imageURL == "https://cdn.example.gr/u-1.jpg")
        #expect(profile.resolvedImageURL != nil)
        #expect(profile.isSubscribed)
        #expect(profile.language == "el")
    }

    @Test func readsLooseScalarsAndDefaults() throws {
        let english = try decodeJSON(WarplyProfile.self, #"{"firstname":"John","user_points":80,"subscribe":0,"language":"en"}"#)
        #expect(english.points == 80)
        #expect(!english.isSubscribed)
        let empty = try decodeJSON(WarplyProfile.self, "{}")
        #expect(empty == WarplyProfile())
        #expect(empty.points == 0 && !empty.isSubscribed)
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyProfile.self, #"{"user_points":"χίλιοι"}"#)) == "user_points")
        #expect(failingField(of: decodingFailure(WarplyProfile.self, #"{"email":{"primary":"a@b.gr"}}"#)) == "email")
        #expect(failingField(of: decodingFailure(WarplyProfile.self, #"{"birthday":[1990,5,17]}"#)) == "birthday")
    }

    @Test func descriptionRedactsEmailAndPhone() throws {
        let profile = try decodeJSON(WarplyProfile.self, Self.payload)
        for text in [profile.description, String(reflecting: profile), "\([profile])"] {
            #expect(!text.contains("maria@example.gr"))
            #expect(!text.contains("306900000000"))
            #expect(text.contains("u-1"))
        }
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyProfile.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        #expect(try wireKeys(WarplyProfile()) == ["user_points", "subscribe"])
    }
}

// MARK: - Card

@Suite("WarplyCard", .bounded)
struct WarplyCardDecodingTests {
    static let payload = #"""
        { "card_token": "tok-1", "card_number": "**** **** **** 1234", "card_issuer": "VISA", "cardholder": "MARIA PAPADOPOULOU",
          "expiration_month": 9, "expiration_year": "2028", "default": "true" }
        """#

    @Test func decodesRealisticPayload() throws {
        let card = try decodeJSON(WarplyCard.self, Self.payload)
        #expect(card.token == "tok-1")
        #expect(card.id == "tok-1")
        #expect(card.maskedNumber == "**** **** **** 1234")
        #expect(card.issuer == "VISA")
        #expect(card.holder == "MARIA PAPADOPOULOU")
        #expect(card.expirationMonth == "9")
        #expect(card.expirationYear == "2028")
        #expect(card.isDefault)
        let greek = try decodeJSON(WarplyCard.self, #"{"card_token":"tok-2","cardholder":"ΜΑΡΙΑ ΠΑΠΑΔΟΠΟΥΛΟΥ","default":0}"#)
        #expect(greek.holder == "ΜΑΡΙΑ ΠΑΠΑΔΟΠΟΥΛΟΥ")
        #expect(!greek.isDefault)
    }

    @Test(arguments: [
        ("4111 1111 1111 1234", "**** **** **** 1234"),
        ("4111111111111234", "**** **** **** 1234"),
        ("4111-1111-1111-1234", "**** **** **** 1234"),
        ("41111234", "**** **** **** 1234"),
        ("1234567", WarplyCard.fullyMasked),
        ("", WarplyCard.fullyMasked),
        ("card", WarplyCard.fullyMasked),
        ("**** **** **** 1234", "**** **** **** 1234"),
        ("************1234", "**** **** **** 1234"),
        ("1234", WarplyCard.fullyMasked),
    ])
    func masksNumbers(number: String, expected: String) {
        #expect(WarplyCard.mask(number) == expected)
        #expect(WarplyCard.mask(WarplyCard.mask(number)) == expected)
    }

    @Test func descriptionPrintsOnlyTheMaskedNumber() throws {
        let leaky = WarplyCard(token: "tok-secret", maskedNumber: "4111111111111234", holder: "Μαρία")
        for text in [leaky.description, String(reflecting: leaky), "\([leaky])"] {
            #expect(text == "WarplyCard(**** **** **** 1234)" || text == "[WarplyCard(**** **** **** 1234)]")
            #expect(!text.contains("4111"))
            #expect(!text.contains("tok-secret"))
        }
        #expect(try decodeJSON(WarplyCard.self, Self.payload).description == "WarplyCard(**** **** **** 1234)")
        var dumped = ""
        dump([leaky], to: &dumped)
        #expect(!dumped.contains("4111"))
        #expect(!dumped.contains("tok-secret"))
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyCard.self, #"{"card_token":"t","default":"perhaps"}"#)) == "default")
        #expect(failingField(of: decodingFailure(WarplyCard.self, #"{"card_token":"t","card_number":{"last4":"1234"}}"#)) == "card_number")
    }

    @Test func requiresToken() {
        #expect(failsForMissingKey(decodingFailure(WarplyCard.self, #"{"card_number":"**** 1234"}"#), "card_token"))
        #expect(failingField(of: decodingFailure(WarplyCard.self, #"{"card_token":""}"#)) == "card_token")
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyCard.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        #expect(
            try wireKeys(decoded) == [
                "card_token", "card_number", "card_issuer", "cardholder", "expiration_month", "expiration_year", "default",
            ])
    }
}

// MARK: - Transaction

@Suite("WarplyTransaction", .bounded)
struct WarplyTransactionDecodingTests {
    static let payload = #"""
        { "transaction_id": 7001, "transaction_date": "2026-03-01 18:22:10.123456", "shop_name": "Σκλαβενίτης",
          "shop_uuid": "m-1", "amount": "42.35", "points": "42", "product_code": "P-7",
          "product_description": "Καφές φίλτρου / Filter coffee", "quantity": 2 }
        """#

    @Test func decodesRealisticPayload() throws {
        let transaction = try decodeJSON(WarplyTransaction.self, Self.payload)
        #expect(transaction.transactionID == "7001")
        #expect(transaction.id == "7001")
        #expect(transaction.date?.date != nil)
        #expect(transaction.merchantName == "Σκλαβενίτης")
        #expect(transaction.merchantUUID == "m-1")
        #expect(transaction.amount == Decimal(string: "42.35"))
        #expect(transaction.points == 42)
        #expect(transaction.productCode == "P-7")
        #expect(transaction.productDescription == "Καφές φίλτρου / Filter coffee")
        #expect(transaction.quantity == 2)
    }

    @Test func readsNumbersInEitherForm() throws {
        let numbers = try decodeJSON(WarplyTransaction.self, #"{"transaction_id":"t","amount":42.5,"points":42,"quantity":"2"}"#)
        let strings = try decodeJSON(WarplyTransaction.self, #"{"transaction_id":"t","amount":"42.5","points":"42","quantity":2}"#)
        #expect(numbers == strings)
        #expect(
            try decodeJSON(WarplyTransaction.self, #"{"transaction_id":"t","transaction_date":1767225600}"#).date?.date
                == Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyTransaction.self, #"{"transaction_id":"t","amount":"12,5€"}"#)) == "amount")
        #expect(failingField(of: decodingFailure(WarplyTransaction.self, #"{"transaction_id":"t","quantity":"δύο"}"#)) == "quantity")
        #expect(
            failingField(of: decodingFailure(WarplyTransaction.self, #"{"transaction_id":"t","transaction_date":true}"#))
                == "transaction_date")
    }

    @Test func requiresTransactionID() {
        #expect(failsForMissingKey(decodingFailure(WarplyTransaction.self, #"{"amount":"1"}"#), "transaction_id"))
        #expect(failingField(of: decodingFailure(WarplyTransaction.self, #"{"transaction_id":""}"#)) == "transaction_id")
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyTransaction.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        #expect(
            try wireKeys(decoded).isSuperset(of: ["transaction_date", "shop_name", "shop_uuid", "product_code", "product_description"]))
    }
}

// MARK: - Points entry

@Suite("WarplyPointsEntry", .bounded)
struct WarplyPointsEntryDecodingTests {
    static let payload = #"""
        { "entry_id": 55, "entry_date": "2026-03-01 18:22:10+02:00", "points": "-200", "source": "redemption",
          "description": "Εξαργύρωση κουπονιού", "expiration": "2027-03-01 00:00:00" }
        """#

    @Test func decodesRealisticPayload() throws {
        let entry = try decodeJSON(WarplyPointsEntry.self, Self.payload)
        #expect(entry.id == "55")
        #expect(entry.date?.date != nil)
        #expect(entry.points == -200)
        #expect(entry.source == "redemption")
        #expect(entry.description == "Εξαργύρωση κουπονιού")
        #expect(entry.expiration?.date != nil)
        let earned = try decodeJSON(WarplyPointsEntry.self, #"{"points":150,"description":"Purchase"}"#)
        #expect(earned.points == 150)
        #expect(earned.id == nil)
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyPointsEntry.self, #"{"points":"εκατό"}"#)) == "points")
        #expect(failingField(of: decodingFailure(WarplyPointsEntry.self, #"{"points":1,"source":{"k":"v"}}"#)) == "source")
    }

    @Test func requiresPoints() {
        #expect(failsForMissingKey(decodingFailure(WarplyPointsEntry.self, #"{"entry_id":"1"}"#), "points"))
        #expect(failingField(of: decodingFailure(WarplyPointsEntry.self, #"{"points":null}"#)) == "points")
        #expect(failingField(of: decodingFailure(WarplyPointsEntry.self, #"{"points":""}"#)) == "points")
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyPointsEntry.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        #expect(try wireKeys(WarplyPointsEntry(points: -3)) == ["points"])
    }
}

// MARK: - Market pass

@Suite("WarplyMarketPassDetails", .bounded)
struct WarplyMarketPassDetailsDecodingTests {
    static let payload = #"""
        { "barcode": 9900001234567, "total_discount": "12.40", "new_offers": "3",
          "supermarkets": [ { "uuid": "m-1", "name": "Σκλαβενίτης" }, { "uuid": "m-2", "name": "Masoutis", "latitude": "40.6", "longitude": "22.9" } ],
          "map_url": "https:\\/\\/engage-uat.dei.gr\\/map" }
        """#

    @Test func decodesRealisticPayload() throws {
        let pass = try decodeJSON(WarplyMarketPassDetails.self, Self.payload)
        #expect(pass.barcode == "9900001234567")
        #expect(pass.totalDiscount == Decimal(string: "12.4"))
        #expect(pass.newOffers == 3)
        #expect(pass.supermarkets.map(\.name) == ["Σκλαβενίτης", "Masoutis"])
        #expect(pass.supermarkets.last?.location != nil)
        #expect(pass.mapURL == "https://engage-uat.dei.gr/map")
        #expect(pass.resolvedMapURL?.path == "/map")
    }

    @Test func readsDefaults() throws {
        let empty = try decodeJSON(WarplyMarketPassDetails.self, #"{"supermarkets":null,"total_discount":"","new_offers":0}"#)
        #expect(empty == WarplyMarketPassDetails())
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyMarketPassDetails.self, #"{"new_offers":"τρεις"}"#)) == "new_offers")
        #expect(failingField(of: decodingFailure(WarplyMarketPassDetails.self, #"{"total_discount":{"eur":1}}"#)) == "total_discount")
    }

    @Test func requiresTheSupermarketsRequiredFields() {
        let error = decodingFailure(WarplyMarketPassDetails.self, #"{"supermarkets":[{"name":"Χωρίς id"}]}"#)
        #expect(failsForMissingKey(error, "uuid"))
        #expect(failingPath(of: error) == "supermarkets.0.uuid")
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyMarketPassDetails.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        #expect(try wireKeys(decoded) == ["barcode", "total_discount", "new_offers", "supermarkets", "map_url"])
    }
}

// MARK: - Article

@Suite("WarplyArticle", .bounded)
struct WarplyArticleDecodingTests {
    static let payload = #"""
        { "uuid": "a-1", "title": "Νέα προσφορά", "subtitle": "For a few days", "content": "<p>Κέρδισε διπλούς πόντους</p>",
          "img_preview": "https:\\/\\/cdn.example.gr\\/a-1.jpg", "url": "https:\\/\\/engage-uat.dei.gr\\/a\\/1",
          "categories": "news,offers", "tags": ["promo"], "publish_date": "2026-02-10 09:00:00", "language": "el" }
        """#

    @Test func decodesRealisticPayload() throws {
        let article = try decodeJSON(WarplyArticle.self, Self.payload)
        #expect(article.id == "a-1")
        #expect(article.title == "Νέα προσφορά")
        #expect(article.subtitle == "For a few days")
        #expect(article.body == "<p>Κέρδισε διπλούς πόντους</p>")
        #expect(article.imageURL == "https://cdn.example.gr/a-1.jpg")
        #expect(article.resolvedImageURL != nil)
        #expect(article.url == "https://engage-uat.dei.gr/a/1")
        #expect(article.resolvedURL?.path == "/a/1")
        #expect(article.categories == ["news", "offers"])
        #expect(article.tags == ["promo"])
        #expect(article.publishedAt?.date != nil)
        #expect(article.language == "el")
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyArticle.self, #"{"uuid":"a","content":{"html":"x"}}"#)) == "content")
        #expect(failingField(of: decodingFailure(WarplyArticle.self, #"{"uuid":"a","tags":{"t":1}}"#)) == "tags")
    }

    @Test func requiresUUID() {
        #expect(failsForMissingKey(decodingFailure(WarplyArticle.self, #"{"title":"Άρθρο"}"#), "uuid"))
        #expect(failingField(of: decodingFailure(WarplyArticle.self, #"{"uuid":null}"#)) == "uuid")
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyArticle.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        #expect(try wireKeys(decoded).isSuperset(of: ["content", "img_preview", "publish_date"]))
    }
}

// MARK: - Seasonal package

@Suite("WarplySeasonalPackage", .bounded)
struct WarplySeasonalPackageDecodingTests {
    static let payload = #"""
        { "uuid": "sp-1", "title": "Χριστουγεννιάτικα δώρα", "description": "Christmas gifts", "image": "https:\\/\\/cdn.example.gr\\/sp-1.jpg",
          "couponsets": ["cs-1", "cs-2"], "start_date": "2026-12-01 00:00:00", "end_date": "2026-12-31 23:59:59" }
        """#

    @Test func decodesRealisticPayload() throws {
        let package = try decodeJSON(WarplySeasonalPackage.self, Self.payload)
        #expect(package.id == "sp-1")
        #expect(package.title == "Χριστουγεννιάτικα δώρα")
        #expect(package.description == "Christmas gifts")
        #expect(package.imageURL == "https://cdn.example.gr/sp-1.jpg")
        #expect(package.resolvedImageURL != nil)
        #expect(package.couponSetUUIDs == ["cs-1", "cs-2"])
        let start = try #require(package.startDate)
        let end = try #require(package.endDate)
        #expect(start < end)
    }

    @Test func readsCouponSetListVariants() throws {
        let text = try decodeJSON(WarplySeasonalPackage.self, #"{"uuid":"sp","couponsets":"cs-1, cs-2"}"#)
        #expect(text.couponSetUUIDs == ["cs-1", "cs-2"])
        let numbers = try decodeJSON(WarplySeasonalPackage.self, #"{"uuid":"sp","couponsets":[1,2]}"#)
        #expect(numbers.couponSetUUIDs == ["1", "2"])
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplySeasonalPackage.self, #"{"uuid":"sp","couponsets":{"a":"b"}}"#)) == "couponsets")
        #expect(failingField(of: decodingFailure(WarplySeasonalPackage.self, #"{"uuid":"sp","end_date":["2026"]}"#)) == "end_date")
    }

    @Test func requiresUUID() {
        #expect(failsForMissingKey(decodingFailure(WarplySeasonalPackage.self, #"{"title":"Δώρα"}"#), "uuid"))
        #expect(failingField(of: decodingFailure(WarplySeasonalPackage.self, #"{"uuid":" "}"#)) == "uuid")
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplySeasonalPackage.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        #expect(try wireKeys(decoded) == ["uuid", "title", "description", "image", "couponsets", "start_date", "end_date"])
    }
}

// MARK: - Redemption

@Suite("WarplyRedemption", .bounded)
struct WarplyRedemptionDecodingTests {
    static let payload = #"""
        { "coupon": "FUEL-7Q2X", "couponset_uuid": "cs-1", "redeemed_date": "2026-03-01 18:22:10", "transaction_id": 7001 }
        """#

    @Test func decodesRealisticPayload() throws {
        let redemption = try decodeJSON(WarplyRedemption.self, Self.payload)
        #expect(redemption.couponCode == "FUEL-7Q2X")
        #expect(redemption.couponSetUUID == "cs-1")
        #expect(redemption.redeemedAt?.date != nil)
        #expect(redemption.transactionID == "7001")
        #expect(try decodeJSON(WarplyRedemption.self, "{}") == WarplyRedemption())
        #expect(try decodeJSON(WarplyRedemption.self, #"{"coupon":"ΔΩΡΟ-2026"}"#).couponCode == "ΔΩΡΟ-2026")
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyRedemption.self, #"{"coupon":["A"]}"#)) == "coupon")
        #expect(failingField(of: decodingFailure(WarplyRedemption.self, #"{"redeemed_date":{"at":1}}"#)) == "redeemed_date")
    }

    @Test func descriptionMasksTheCode() throws {
        let redemption = try decodeJSON(WarplyRedemption.self, Self.payload)
        for text in [redemption.description, String(reflecting: redemption), "\([redemption])"] {
            #expect(!text.contains("FUEL-7Q2X"))
            #expect(text.contains("*******2X"))
        }
    }

    @Test func roundTrips() throws {
        let decoded = try decodeJSON(WarplyRedemption.self, Self.payload)
        #expect(try reencoded(decoded) == decoded)
        #expect(try wireKeys(decoded) == ["coupon", "couponset_uuid", "redeemed_date", "transaction_id"])
    }
}

// MARK: - Coupon validation

@Suite("WarplyCouponValidation", .bounded)
struct WarplyCouponValidationDecodingTests {
    @Test(arguments: [("true", true), (#""true""#, true), ("1", true), (#""1""#, true), ("false", false), (#""0""#, false)])
    func readsValidFlagVariants(wire: String, expected: Bool) throws {
        let validation = try decodeJSON(
            WarplyCouponValidation.self,
            #"{"valid":\#(wire),"coupon":"FUEL-7Q2X","message":"Το κουπόνι είναι έγκυρο","couponset_uuid":"cs-1"}"#)
        #expect(validation.isValid == expected)
        #expect(validation.couponCode == "FUEL-7Q2X")
        #expect(validation.message == "Το κουπόνι είναι έγκυρο")
        #expect(validation.couponSetUUID == "cs-1")
    }

    @Test func rejectsWrongTypes() {
        #expect(failingField(of: decodingFailure(WarplyCouponValidation.self, #"{"valid":"ίσως"}"#)) == "valid")
        #expect(failingField(of: decodingFailure(WarplyCouponValidation.self, #"{"valid":true,"message":{"en":"ok"}}"#)) == "message")
    }

    @Test func requiresValid() {
        #expect(failsForMissingKey(decodingFailure(WarplyCouponValidation.self, #"{"coupon":"A","message":"Coupon not found"}"#), "valid"))
        #expect(failingField(of: decodingFailure(WarplyCouponValidation.self, #"{"valid":null}"#)) == "valid")
    }

    @Test func descriptionMasksTheCode() {
        let validation = WarplyCouponValidation(isValid: false, couponCode: "FUEL-7Q2X", message: "Expired")
        #expect(!validation.description.contains("FUEL-7Q2X"))
        #expect(!String(reflecting: validation).contains("FUEL-7Q2X"))
    }

    @Test func roundTrips() throws {
        let validation = WarplyCouponValidation(isValid: true, couponCode: "C0DE", message: "Έγκυρο", couponSetUUID: "cs")
        #expect(try reencoded(validation) == validation)
        #expect(try wireKeys(validation) == ["valid", "coupon", "message", "couponset_uuid"])
    }
}

// MARK: - Envelope

@Suite("WarplyContextResponse with campaigns", .bounded)
struct WarplyCampaignEnvelopeTests {
    static let campaigns = #"""
        [ { "session_uuid": "c-1", "title": "Έκπτωση", "sorting": "2", "carousel": "true", "logo_url": "https:\\/\\/cdn.example.gr\\/1.png" },
          { "session_uuid": "c-2", "title": "Discount", "sorting": 1, "type": "ccms" } ]
        """#

    private func check(_ response: WarplyContextResponse<[WarplyCampaign]>) throws {
        #expect(response.status == 1)
        #expect(response.sectionStatus == 1)
        #expect(response.section == WarplyWire.Section.campaigning)
        let campaigns = try #require(response.result)
        #expect(campaigns.map(\.sessionUUID) == ["c-1", "c-2"])
        #expect(campaigns[0].isCarousel)
        #expect(campaigns[0].logoURL == "https://cdn.example.gr/1.png")
        #expect(campaigns[1].isCCMS)
        #expect(campaigns.sorted { $0.sorting < $1.sorting }.map(\.id) == ["c-2", "c-1"])
    }

    @Test func decodesTheContextForm() throws {
        let body = #"{"status":"1","context":{"MAPP_CAMPAIGNING":{"result":\#(Self.campaigns)},"MAPP_CAMPAIGNING-status":1}}"#
        try check(WarplyContextResponse<[WarplyCampaign]>.decode(Data(body.utf8), section: WarplyWire.Section.campaigning))
    }

    @Test func decodesTheFlattenedForm() throws {
        let body = #"{"status":1,"MAPP_CAMPAIGNING":{"result":\#(Self.campaigns)},"MAPP_CAMPAIGNING-status":"1"}"#
        try check(WarplyContextResponse<[WarplyCampaign]>.decode(Data(body.utf8), section: WarplyWire.Section.campaigning))
    }

    @Test func surfacesACampaignsErrorWithItsPath() {
        let body = #"{"status":"1","context":{"MAPP_CAMPAIGNING":{"result":[{"title":"Χωρίς id"}]},"MAPP_CAMPAIGNING-status":1}}"#
        #expect(throws: DecodingError.self) {
            try WarplyContextResponse<[WarplyCampaign]>.decode(Data(body.utf8), section: WarplyWire.Section.campaigning)
        }
    }

    @Test func roundTripsThroughTheEmulatorsEncoding() throws {
        let campaigns = [
            WarplyCampaign(sessionUUID: "c-1", title: "Έκπτωση", sorting: 2, isCarousel: true), WarplyCampaign(sessionUUID: "c-2"),
        ]
        let response = WarplyContextResponse(section: WarplyWire.Section.campaigning, result: campaigns)
        let data = try JSONEncoder().encode(response)
        let decoded = try WarplyContextResponse<[WarplyCampaign]>.decode(data, section: WarplyWire.Section.campaigning)
        #expect(decoded.result == campaigns)
        #expect(decoded.status == 1)
    }
}
