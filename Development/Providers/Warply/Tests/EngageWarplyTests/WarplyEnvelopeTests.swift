@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing

// Unit tests of the wire envelopes (wire/warply.md "Request envelope", "Device registration",
// "OAuth"; seed section 6 "Context Response Transformation", "Placeholder Replacement System";
// seed section 11 "Date Handling", "URL Cleaning").

// MARK: - Helpers

private func data(_ json: String) -> Data { Data(json.utf8) }

private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try JSONDecoder().decode(T.self, from: data(json))
}

/// Any JSON text as a `JSONValue`, for order-insensitive comparisons.
private func json(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: data(text))
}

private func encoded(_ value: some Encodable) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
}

private func contextResponse<Payload: Codable & Sendable>(
    _ type: Payload.Type, _ body: String, section: String = "MAPP_X"
) throws -> WarplyContextResponse<Payload> {
    try WarplyContextResponse<Payload>.decode(data(body), section: section)
}

/// An instant given in UTC.
private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0, nanosecond: Int = 0) -> Date
{
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(
        from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanosecond))!
}

/// The message of a `DecodingError`.
private func debugDescription(_ error: DecodingError?) -> String? {
    switch error {
    case let .keyNotFound(_, context)?, let .typeMismatch(_, context)?, let .valueNotFound(_, context)?, let .dataCorrupted(context)?:
        return context.debugDescription
    default:
        return nil
    }
}

// MARK: - WarplyContextRequest

@Suite("WarplyContextRequest (unit)", .bounded)
struct WarplyContextRequestUnitTests {
    @Test("encodes one root key holding the action and the fields")
    func encodesTheEnvelope() throws {
        let request = WarplyContextRequest(
            root: WarplyWire.Root.coupon, action: WarplyWire.Action.userCoupons,
            fields: ["details": ["merchant", "redemption"], "language": "el"]
        )
        #expect(try encoded(request) == json(#"{"coupon":{"action":"user_coupons","details":["merchant","redemption"],"language":"el"}}"#))
    }

    @Test("an empty action is not encoded")
    func emptyActionOmitted() throws {
        #expect(try encoded(WarplyContextRequest(root: "cards", action: "")) == json(#"{"cards":{}}"#))
        #expect(try encoded(WarplyContextRequest(root: "cards", action: "", fields: ["token": "t"])) == json(#"{"cards":{"token":"t"}}"#))
    }

    @Test("the action wins over an `action` entry in the fields")
    func actionWins() throws {
        let request = WarplyContextRequest(root: "shops", action: "retrieve_multilingual", fields: ["action": "other", "language": "en"])
        #expect(try encoded(request) == json(#"{"shops":{"action":"retrieve_multilingual","language":"en"}}"#))
    }

    @Test(
        "decodes the seed's examples: root, action extracted, other fields kept",
        arguments: [
            (#"{"campaigns":{"action":"retrieve","language":"el","filters":{"a":1}}}"#, "campaigns", "retrieve", ["language", "filters"]),
            (#"{"coupon":{"action":"user_coupons","details":["merchant","redemption"]}}"#, "coupon", "user_coupons", ["details"]),
            (#"{"consumer_data":{"action":"handle_user_details","process":"get"}}"#, "consumer_data", "handle_user_details", ["process"]),
            (#"{"cards":{"action":"add_card","card_number":"4111111111111111"}}"#, "cards", "add_card", ["card_number"]),
            (#"{"shops":{"language":"el","action":"retrieve_multilingual"}}"#, "shops", "retrieve_multilingual", ["language"]),
            (#"{"content":{"language":"el","action":"retrieve_multilingual"}}"#, "content", "retrieve_multilingual", ["language"]),
        ]
    )
    func decodesSeedExamples(body: String, root: String, action: String, fields: [String]) throws {
        let request = try decode(WarplyContextRequest.self, body)
        #expect(request.root == root)
        #expect(request.action == action)
        #expect(Set(request.fields.keys) == Set(fields))
        #expect(request.fields["action"] == nil)
    }

    @Test("a body without an action decodes with an empty action")
    func noAction() throws {
        let request = try decode(WarplyContextRequest.self, #"{"device_info":{"device_token":"t"}}"#)
        #expect(request.root == "device_info")
        #expect(request.action.isEmpty)
        #expect(request.fields == ["device_token": "t"])
    }

    @Test(
        "anything but exactly one root key holding an object is a DecodingError",
        arguments: [
            #"{}"#, #"{"campaigns":{"action":"retrieve"},"coupon":{"action":"availability"}}"#, #"{"coupon":5}"#, #"{"coupon":"x"}"#,
            #"{"coupon":[]}"#, #"{"coupon":null}"#, #"[]"#, #""coupon""#,
        ]
    )
    func rejectsOtherShapes(body: String) {
        #expect(throws: DecodingError.self) { try decode(WarplyContextRequest.self, body) }
    }

    @Test("two root keys: the error says how many were found")
    func twoRootKeysMessage() {
        let error = #expect(throws: DecodingError.self) {
            try decode(WarplyContextRequest.self, #"{"a":{"action":"x"},"b":{"action":"y"}}"#)
        }
        #expect(debugDescription(error)?.contains("found 2") == true)
    }

    @Test("encode then decode gives the same request")
    func roundTrip() throws {
        let request = WarplyContextRequest(
            root: "campaigns", action: "retrieve",
            fields: ["language": "el", "filters": ["n": 1, "x": [true, nil], "s": "Έκπτωση"], "count": 3, "ratio": 0.5]
        )
        #expect(try JSONDecoder().decode(WarplyContextRequest.self, from: JSONEncoder().encode(request)) == request)
    }

    @Test("string(_:) reads strings and numbers")
    func stringAccessor() {
        let request = WarplyContextRequest(
            root: "r", action: "a",
            fields: ["text": "el", "int": 42, "negative": -7, "double": 1.5, "flag": true, "list": ["x"], "null": nil]
        )
        #expect(request.string("text") == "el")
        #expect(request.string("int") == "42")
        #expect(request.string("negative") == "-7")
        #expect(request.string("double") == "1.5")
        #expect(request.string("flag") == nil)
        #expect(request.string("list") == nil)
        #expect(request.string("null") == nil)
        #expect(request.string("missing") == nil)
        #expect(request.string("action") == nil)
    }

    @Test("integer(_:) reads integers, integral numbers and numeric strings")
    func integerAccessor() {
        let request = WarplyContextRequest(
            root: "r", action: "a",
            fields: [
                "int": 7, "integral": 7.0, "fraction": 7.5, "text": "12", "negativeText": "-3", "word": "twelve", "padded": " 12",
                "flag": true, "huge": 1e300,
            ]
        )
        #expect(request.integer("int") == 7)
        #expect(request.integer("integral") == 7)
        #expect(request.integer("fraction") == nil)
        #expect(request.integer("text") == 12)
        #expect(request.integer("negativeText") == -3)
        #expect(request.integer("word") == nil)
        #expect(request.integer("padded") == nil)
        #expect(request.integer("flag") == nil)
        #expect(request.integer("huge") == nil)
        #expect(request.integer("missing") == nil)
    }

    @Test("strings(_:) reads the strings of an array; anything else is empty")
    func stringsAccessor() {
        let request = WarplyContextRequest(
            root: "r", action: "a",
            fields: ["details": ["merchant", "redemption"], "mixed": ["a", 1, nil, "b", ["c"]], "single": "merchant", "empty": []]
        )
        #expect(request.strings("details") == ["merchant", "redemption"])
        #expect(request.strings("mixed") == ["a", "b"])
        #expect(request.strings("single").isEmpty)
        #expect(request.strings("empty").isEmpty)
        #expect(request.strings("missing").isEmpty)
    }

    @Test("accessors read decoded bodies too (numbers from JSON)")
    func accessorsOnDecodedBodies() throws {
        let request = try decode(
            WarplyContextRequest.self, #"{"coupon":{"action":"redeem","product_uuid":"cs-1","product_id":17,"points":"200"}}"#)
        #expect(request.string("product_uuid") == "cs-1")
        #expect(request.string("product_id") == "17")
        #expect(request.integer("product_id") == 17)
        #expect(request.integer("points") == 200)
    }
}

// MARK: - WarplyContextResponse

@Suite("WarplyContextResponse (unit)", .bounded)
struct WarplyContextResponseUnitTests {
    @Test("context form: status as a string, the section's result and status")
    func contextForm() throws {
        let response = try contextResponse([String].self, #"{"status":"1","context":{"MAPP_X":{"result":["a","b"]},"MAPP_X-status":1}}"#)
        #expect(response.status == 1)
        #expect(response.section == "MAPP_X")
        #expect(response.sectionStatus == 1)
        #expect(response.result == ["a", "b"])
        #expect(response.message == nil)
    }

    @Test("flattened form: the section at the top level")
    func flattenedForm() throws {
        let response = try contextResponse([String].self, #"{"status":1,"MAPP_X":{"result":["a"]},"MAPP_X-status":"1"}"#)
        #expect(response.status == 1)
        #expect(response.sectionStatus == 1)
        #expect(response.result == ["a"])
    }

    @Test(
        "the status is read as a string or a number",
        arguments: [(#""1""#, 1), ("1", 1), (#""9""#, 9), ("9", 9), (#""0""#, 0), ("-1", -1), (#"" 1 ""#, 1), ("1.0", 1)]
    )
    func statusForms(status: String, expected: Int) throws {
        #expect(try contextResponse(JSONValue.self, #"{"status":\#(status),"context":{}}"#).status == expected)
    }

    @Test("a missing or empty status reads as 0; a non-numeric one is a DecodingError")
    func oddStatuses() throws {
        #expect(try contextResponse(JSONValue.self, #"{"context":{}}"#).status == 0)
        #expect(try contextResponse(JSONValue.self, #"{"status":null}"#).status == 0)
        #expect(try contextResponse(JSONValue.self, #"{"status":""}"#).status == 0)
        #expect(throws: DecodingError.self) { try contextResponse(JSONValue.self, #"{"status":"ok"}"#) }
        #expect(throws: DecodingError.self) { try contextResponse(JSONValue.self, #"{"status":1.5}"#) }
    }

    @Test("a missing section gives a nil result and section status")
    func missingSection() throws {
        let response = try contextResponse(
            [String].self, #"{"status":"1","context":{"MAPP_OTHER":{"result":["a"]},"MAPP_OTHER-status":1}}"#)
        #expect(response.status == 1)
        #expect(response.result == nil)
        #expect(response.sectionStatus == nil)
        let bare = try contextResponse([String].self, #"{"status":"9"}"#)
        #expect(bare.status == 9)
        #expect(bare.result == nil)
    }

    @Test("a section without result, with a null result, or null itself gives a nil result")
    func sectionWithoutResult() throws {
        #expect(try contextResponse([String].self, #"{"status":"1","context":{"MAPP_X":{},"MAPP_X-status":1}}"#).result == nil)
        #expect(try contextResponse([String].self, #"{"status":"1","context":{"MAPP_X":{"result":null}}}"#).result == nil)
        #expect(try contextResponse([String].self, #"{"status":"1","context":{"MAPP_X":null}}"#).result == nil)
        #expect(try contextResponse([String].self, #"{"status":"1","context":null,"MAPP_X":{"result":["top"]}}"#).result == ["top"])
    }

    @Test(
        "the section's own status is read as a string or a number; absent is nil",
        arguments: [
            (#""MAPP_X-status":0"#, 0), (#""MAPP_X-status":"0""#, 0), (#""MAPP_X-status":"-2""#, -2), (#""MAPP_X-status":1"#, 1),
            (#""other":1"#, nil),
        ] as [(String, Int?)]
    )
    func sectionStatus(entry: String, expected: Int?) throws {
        let response = try contextResponse(JSONValue.self, #"{"status":"1","context":{"MAPP_X":{"result":1},\#(entry)}}"#)
        #expect(response.sectionStatus == expected)
    }

    @Test("msg is read at the top level, else inside the section")
    func messages() throws {
        #expect(try contextResponse(JSONValue.self, #"{"status":"0","msg":"top","context":{"MAPP_X":{"msg":"inner"}}}"#).message == "top")
        #expect(try contextResponse(JSONValue.self, #"{"status":"0","context":{"MAPP_X":{"msg":"inner"}}}"#).message == "inner")
        #expect(try contextResponse(JSONValue.self, #"{"status":"0","msg":5}"#).message == "5")
    }

    @Test("a result of the wrong type is a DecodingError")
    func wrongResultType() {
        #expect(throws: DecodingError.self) {
            try contextResponse([String].self, #"{"status":"1","context":{"MAPP_X":{"result":{"a":1}},"MAPP_X-status":1}}"#)
        }
    }

    @Test("a plain JSONDecoder without a section name refuses to decode")
    func needsASectionName() {
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(WarplyContextResponse<JSONValue>.self, from: data(#"{"status":"1","context":{}}"#))
        }
        #expect(debugDescription(error)?.contains("section") == true)
    }

    @Test("the section key works through a decoder's userInfo too")
    func userInfoKey() throws {
        let decoder = JSONDecoder()
        decoder.userInfo[WarplyContextResponse<[String]>.sectionKey] = "MAPP_COUPON"
        let response = try decoder.decode(
            WarplyContextResponse<[String]>.self, from: data(#"{"status":1,"context":{"MAPP_COUPON":{"result":["c"]}}}"#))
        #expect(response.section == "MAPP_COUPON")
        #expect(response.result == ["c"])
    }

    @Test("encodes the context form: status as a string, section status as a number")
    func encodesContextForm() throws {
        let response = WarplyContextResponse(status: 1, section: "MAPP_X", sectionStatus: 1, result: ["a"], message: "ok")
        #expect(try encoded(response) == json(#"{"status":"1","msg":"ok","context":{"MAPP_X":{"result":["a"]},"MAPP_X-status":1}}"#))
        let empty = WarplyContextResponse<[String]>(status: 9, section: "MAPP_X", sectionStatus: nil, result: nil)
        #expect(try encoded(empty) == json(#"{"status":"9","context":{"MAPP_X":{}}}"#))
    }

    @Test("encode then decode gives the same values")
    func roundTrip() throws {
        let response = WarplyContextResponse(
            status: 1, section: WarplyWire.Section.coupon, sectionStatus: 0,
            result: [WarplyCouponAvailability(couponSetUUID: "cs", availability: 3)], message: "m")
        let decoded = try WarplyContextResponse<[WarplyCouponAvailability]>.decode(
            JSONEncoder().encode(response), section: WarplyWire.Section.coupon)
        #expect(decoded.status == 1)
        #expect(decoded.sectionStatus == 0)
        #expect(decoded.message == "m")
        #expect(decoded.result == response.result)
    }

    @Test("a section sent as [] (the backend's empty object) reads as no result")
    func emptyArraySection() throws {
        #expect(try contextResponse([String].self, #"{"status":"1","context":{"MAPP_X":[],"MAPP_X-status":1}}"#).result == nil)
        #expect(try contextResponse([String].self, #"{"status":"1","context":[]}"#).result == nil)
    }
}

// MARK: - Result and status responses

@Suite("WarplyResultResponse and WarplyStatusResponse (unit)", .bounded)
struct WarplyResultResponseUnitTests {
    @Test("result form: status (string or number), msg and result")
    func resultForm() throws {
        let response = try decode(WarplyResultResponse<[String: String]>.self, #"{"status":"1","msg":"Success","result":{"a":"b"}}"#)
        #expect(response.status == 1)
        #expect(response.message == "Success")
        #expect(response.result == ["a": "b"])
        #expect(try decode(WarplyResultResponse<Int>.self, #"{"status":1,"result":5}"#).result == 5)
    }

    @Test("no result, a null result or no status")
    func missingParts() throws {
        let noResult = try decode(WarplyResultResponse<Int>.self, #"{"status":"-1","msg":"Unknown user"}"#)
        #expect(noResult.status == -1)
        #expect(noResult.result == nil)
        #expect(noResult.message == "Unknown user")
        #expect(try decode(WarplyResultResponse<Int>.self, #"{"status":1,"result":null}"#).result == nil)
        #expect(try decode(WarplyResultResponse<Int>.self, #"{"result":3}"#).status == 0)
    }

    @Test("a result of the wrong type, or a non-numeric status, is a DecodingError")
    func wrongTypes() {
        #expect(throws: DecodingError.self) { try decode(WarplyResultResponse<Int>.self, #"{"status":1,"result":"x"}"#) }
        #expect(throws: DecodingError.self) { try decode(WarplyResultResponse<Int>.self, #"{"status":"yes","result":1}"#) }
    }

    @Test("encodes status, msg and result, and decodes back")
    func resultRoundTrip() throws {
        let response = WarplyResultResponse(status: 1, result: ["x": 1], message: "ok")
        #expect(try encoded(response) == json(#"{"status":1,"msg":"ok","result":{"x":1}}"#))
        let decoded = try JSONDecoder().decode(WarplyResultResponse<[String: Int]>.self, from: JSONEncoder().encode(response))
        #expect(decoded.status == 1 && decoded.result == ["x": 1] && decoded.message == "ok")
    }

    @Test(
        "status responses read the status leniently; anything unreadable is nil",
        arguments: [
            (#"{"status":"1","msg":"ok"}"#, 1), (#"{"status":9}"#, 9), (#"{"status":"0"}"#, 0), (#"{"status":"abc"}"#, nil),
            (#"{"status":null}"#, nil), (#"{"msg":"x"}"#, nil), (#"{"status":[1]}"#, nil), (#"{"status":"1","context":{"x":1}}"#, 1),
        ] as [(String, Int?)]
    )
    func statusResponse(body: String, expected: Int?) throws {
        #expect(try decode(WarplyStatusResponse.self, body).status == expected)
    }

    @Test("status responses read msg and round-trip")
    func statusMessage() throws {
        let response = try decode(WarplyStatusResponse.self, #"{"status":"0","msg":"Wrong password"}"#)
        #expect(response == WarplyStatusResponse(status: 0, message: "Wrong password"))
        #expect(try JSONDecoder().decode(WarplyStatusResponse.self, from: JSONEncoder().encode(response)) == response)
        #expect(throws: DecodingError.self) { try decode(WarplyStatusResponse.self, "[1]") }
    }
}

// MARK: - Flattening

@Suite("WarplyContextFlattening (unit)", .bounded)
struct WarplyContextFlatteningUnitTests {
    @Test("the seed's example: context entries move up, the status becomes a number")
    func seedExample() throws {
        let flattened = try WarplyContextFlattening.flatten(data(#"{"status": "1", "context": {"MAPP_CAMPAIGNING": {"result": [1]}}}"#))
        #expect(JSONValue.object(flattened) == (try json(#"{"status": 1, "MAPP_CAMPAIGNING": {"result": [1]}}"#)))
        #expect(flattened["status"] == .integer(1))
    }

    @Test("the wire document's example, with the section status")
    func wireExample() throws {
        let flattened = try WarplyContextFlattening.flatten(
            data(#"{"status":"1","context":{"MAPP_CAMPAIGNING":{"a":1},"MAPP_CAMPAIGNING-status":1}}"#))
        #expect(JSONValue.object(flattened) == (try json(#"{"status":1,"MAPP_CAMPAIGNING":{"a":1},"MAPP_CAMPAIGNING-status":1}"#)))
        #expect(flattened["context"] == nil)
    }

    @Test("context entries win over top-level keys of the same name (status included)")
    func contextWins() throws {
        let flattened = try WarplyContextFlattening.flatten(data(#"{"status":"1","msg":"top","context":{"msg":"inner","status":"9"}}"#))
        #expect(flattened["msg"] == "inner")
        #expect(flattened["status"] == .integer(9))
    }

    @Test("without a context only the status is normalised")
    func noContext() throws {
        #expect(try WarplyContextFlattening.flatten(data(#"{"status":" 1 ","result":[]}"#)) == ["status": .integer(1), "result": []])
        #expect(try WarplyContextFlattening.flatten(data(#"{"status":2}"#)) == ["status": .integer(2)])
        #expect(try WarplyContextFlattening.flatten(data(#"{"status":"ok"}"#)) == ["status": "ok"])
        #expect(try WarplyContextFlattening.flatten(data(#"{"status":"-1"}"#)) == ["status": .integer(-1)])
        #expect(try WarplyContextFlattening.flatten(data(#"{"result":1}"#)) == ["result": .integer(1)])
        #expect(try WarplyContextFlattening.flatten(data("{}")).isEmpty)
    }

    @Test("a null context is removed; an empty context adds nothing")
    func nullOrEmptyContext() throws {
        #expect(try WarplyContextFlattening.flatten(data(#"{"status":"1","context":{}}"#)) == ["status": .integer(1)])
    }

    @Test(
        "a body that is not a JSON object is a .decoding error attributed to warply",
        arguments: ["[]", #"[{"status":"1"}]"#, #""text""#, "1", "null", "true", "not json", "", #"{"status":"1""#]
    )
    func notAnObject(body: String) throws {
        do {
            _ = try WarplyContextFlattening.flatten(data(body))
            Issue.record("flattened \(body)")
        } catch {
            #expect(error.code == .decoding)
            #expect(error.providerID == .warply)
        }
    }

    @Test("a context that is not an object is kept as it is")
    func nonObjectContextKept() throws {
        #expect(
            try WarplyContextFlattening.flatten(data(#"{"status":"1","context":"gone"}"#)) == ["status": .integer(1), "context": "gone"])
        #expect(try WarplyContextFlattening.flatten(data(#"{"status":"1","context":[]}"#)) == ["status": .integer(1), "context": []])
    }
}

// MARK: - Tokens and registration

@Suite("WarplyTokenAnswer and WarplyRegistrationResponse (unit)", .bounded)
struct WarplyAuthEnvelopeUnitTests {
    static let fullTokens =
        #""access_token":"at-1","refresh_token":"rt-1","client_id":"cid","client_secret":"csecret","token_type":"Bearer""#

    @Test("tokens at the top level")
    func topLevel() throws {
        let answer = try decode(WarplyTokenAnswer.self, "{\(Self.fullTokens)}")
        #expect(
            answer
                == WarplyTokenAnswer(
                    accessToken: "at-1", refreshToken: "rt-1", clientID: "cid", clientSecret: "csecret", tokenType: "Bearer"))
    }

    @Test("tokens inside result (the login form)")
    func insideResult() throws {
        let answer = try decode(WarplyTokenAnswer.self, #"{"status":"1","msg":"Success","result":{\#(Self.fullTokens)}}"#)
        #expect(answer.accessToken == "at-1")
        #expect(answer.refreshToken == "rt-1")
        #expect(answer.clientID == "cid")
        #expect(answer.clientSecret == "csecret")
    }

    @Test("a null result falls back to the top level; only the access token is required")
    func nullResultAndMinimal() throws {
        let answer = try decode(WarplyTokenAnswer.self, #"{"result":null,"access_token":"at"}"#)
        #expect(answer == WarplyTokenAnswer(accessToken: "at", refreshToken: nil, clientID: nil, clientSecret: nil, tokenType: nil))
    }

    @Test("no access token: the error carries the server's msg")
    func missingAccessTokenCarriesMessage() {
        let error = #expect(throws: DecodingError.self) {
            try decode(WarplyTokenAnswer.self, #"{"status":"-1","msg":"Invalid credentials"}"#)
        }
        guard case let .keyNotFound(key, context)? = error else {
            Issue.record("expected keyNotFound, got \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "access_token")
        #expect(context.debugDescription == "Invalid credentials")
    }

    @Test("no access token and no msg: a generic message; an empty token counts as missing")
    func missingAccessTokenGeneric() {
        let generic = #expect(throws: DecodingError.self) {
            try decode(WarplyTokenAnswer.self, #"{"status":"1","result":{"refresh_token":"r"}}"#)
        }
        #expect(debugDescription(generic) == "The answer has no access_token.")
        let empty = #expect(throws: DecodingError.self) { try decode(WarplyTokenAnswer.self, #"{"access_token":"","msg":"Expired"}"#) }
        #expect(debugDescription(empty) == "Expired")
    }

    @Test("a result that is not an object is a DecodingError")
    func resultNotAnObject() {
        #expect(throws: DecodingError.self) { try decode(WarplyTokenAnswer.self, #"{"status":"1","result":"x"}"#) }
    }

    @Test("encodes the top-level form and decodes back; the description is redacted")
    func encodeAndDescription() throws {
        let answer = WarplyTokenAnswer(accessToken: "at-secret", refreshToken: "rt-secret", clientID: "cid", clientSecret: "cs-secret")
        #expect(try JSONDecoder().decode(WarplyTokenAnswer.self, from: JSONEncoder().encode(answer)) == answer)
        #expect(answer.description == "WarplyTokenAnswer(<redacted>)")
        for text in ["\(answer)", String(reflecting: answer), "\([answer])"] {
            #expect(!text.contains("secret"), "\(text)")
        }
    }

    @Test("registration: status 1 (string or number) with a context")
    func registrationSuccess() throws {
        for status in [#""1""#, "1"] {
            let response = try decode(WarplyRegistrationResponse.self, #"{"status":\#(status),"context":{"web_id":"w-1","api_key":"k-1"}}"#)
            #expect(response.status == 1)
            #expect(response.context == WarplyRegistration(webID: "w-1", apiKey: "k-1"))
        }
    }

    @Test("registration: any other status gives no context, even when one is sent", arguments: [#""0""#, "9", #""-1""#, "null"])
    func registrationFailure(status: String) throws {
        let response = try decode(WarplyRegistrationResponse.self, #"{"status":\#(status),"context":{"web_id":"w","api_key":"k"}}"#)
        #expect(response.status != 1)
        #expect(response.context == nil)
    }

    @Test("registration: status 1 without a context gives nil; an incomplete context is an error")
    func registrationIncomplete() throws {
        #expect(try decode(WarplyRegistrationResponse.self, #"{"status":"1"}"#).context == nil)
        #expect(throws: DecodingError.self) { try decode(WarplyRegistrationResponse.self, #"{"status":"1","context":{"web_id":"w"}}"#) }
        #expect(throws: DecodingError.self) {
            try decode(WarplyRegistrationResponse.self, #"{"status":"1","context":{"web_id":"","api_key":"k"}}"#)
        }
        #expect(throws: DecodingError.self) { try decode(WarplyRegistrationResponse.self, #"{"status":"1","context":{"api_key":"k"}}"#) }
    }

    @Test("registration numbers are read as text")
    func registrationNumbers() throws {
        let response = try decode(WarplyRegistrationResponse.self, #"{"status":1,"context":{"web_id":12345,"api_key":"k"}}"#)
        #expect(response.context?.webID == "12345")
    }

    @Test("registration encodes the status as a string and round-trips; the registration's description is redacted")
    func registrationEncode() throws {
        let response = WarplyRegistrationResponse(status: 1, context: WarplyRegistration(webID: "web-secret", apiKey: "key-secret"))
        #expect(try encoded(response) == json(#"{"status":"1","context":{"web_id":"web-secret","api_key":"key-secret"}}"#))
        let decoded = try JSONDecoder().decode(WarplyRegistrationResponse.self, from: JSONEncoder().encode(response))
        #expect(decoded.context == response.context)
        #expect(try encoded(WarplyRegistrationResponse(status: 9, context: nil)) == json(#"{"status":"9"}"#))
        let registration = try #require(response.context)
        #expect(registration.description == "WarplyRegistration(<redacted>)")
        #expect(!String(reflecting: registration).contains("secret"))
    }

    @Test("auth request bodies encode the wire's snake_case keys")
    func authRequestBodies() throws {
        #expect(
            try encoded(WarplyAuthRequest.Refresh(refreshToken: "r", clientID: "c", clientSecret: "s"))
                == json(#"{"grant_type":"refresh_token","refresh_token":"r","client_id":"c","client_secret":"s"}"#)
        )
        #expect(try encoded(WarplyAuthRequest.DEILogin(email: "a@b.gr")) == json(#"{"email":"a@b.gr"}"#))
        #expect(
            try encoded(WarplyAuthRequest.VerifyTicket(guid: "g", appUUID: "u", ticket: "t"))
                == json(#"{"guid":"g","app_uuid":"u","ticket":"t"}"#))
        #expect(try encoded(WarplyAuthRequest.CosmoteUser(guid: "g")) == json(#"{"user_identifier":"g"}"#))
        #expect(try encoded(WarplyAuthRequest.Logout(accessToken: "a", refreshToken: nil)) == json(#"{"access_token":"a"}"#))
        #expect(
            try encoded(WarplyAuthRequest.ChangePassword(oldPassword: "o", newPassword: "n"))
                == json(#"{"old_password":"o","new_password":"n"}"#))
        #expect(try encoded(WarplyAuthRequest.ResetPassword(email: "a@b.gr")) == json(#"{"email":"a@b.gr"}"#))
        #expect(try encoded(WarplyAuthRequest.RequestOTP(phoneNumber: "+306900000000")) == json(#"{"msisdn":"+306900000000"}"#))
    }

    @Test("auth request bodies holding secrets do not print them")
    func authRequestBodiesRedacted() {
        let refresh = WarplyAuthRequest.Refresh(refreshToken: "rt-secret", clientID: "c", clientSecret: "cs-secret")
        let change = WarplyAuthRequest.ChangePassword(oldPassword: "old-secret", newPassword: "new-secret")
        #expect(!"\(refresh)".contains("secret"))
        #expect(!"\(change)".contains("secret"))
    }
}

// MARK: - Timestamps

@Suite("WarplyTimestamp (unit)", .bounded)
struct WarplyTimestampUnitTests {
    @Test(
        "every format is read; times without an offset are Athens time (EET/EEST)",
        arguments: [
            ("2026-11-21 10:00:00", utc(2026, 11, 21, 8)),  // winter, +02:00
            ("2026-07-01 10:00:00", utc(2026, 7, 1, 7)),  // summer, +03:00
            ("2026-11-21 10:00:00+00:00", utc(2026, 11, 21, 10)),
            ("2026-11-21 10:00:00+05:30", utc(2026, 11, 21, 4, 30)),
            ("2026-11-21 10:00:00-04:00", utc(2026, 11, 21, 14)),
            ("2026-11-21 10:00:00Z", utc(2026, 11, 21, 10)),
            ("2026-11-21 10:00", utc(2026, 11, 21, 8)),
            ("2026-11-21", utc(2026, 11, 20, 22)),
            ("2026-11-21 23:59:59", utc(2026, 11, 21, 21, 59, 59)),
            ("2026-03-29 04:00:00", utc(2026, 3, 29, 1)),  // just after the spring change
        ]
    )
    func parsesFormats(text: String, expected: Date) {
        let timestamp = WarplyTimestamp(text)
        #expect(timestamp.text == text)
        #expect(timestamp.date == expected)
    }

    @Test("microseconds are read")
    func microseconds() throws {
        let date = try #require(WarplyTimestamp("2026-11-21 10:00:00.250000").date)
        #expect(abs(date.timeIntervalSince(utc(2026, 11, 21, 8)) - 0.25) < 0.001)
    }

    @Test("the server's zone is Europe/Athens")
    func serverZone() {
        #expect(WarplyTimestamp.serverTimeZone.identifier == "Europe/Athens")
        #expect(WarplyTimestamp.formats.first == "yyyy-MM-dd HH:mm:ssZZZZZ")
        #expect(
            Set(WarplyTimestamp.formats).isSuperset(of: [
                "yyyy-MM-dd HH:mm:ssZZZZZ", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm:ss.SSSSSS", "yyyy-MM-dd HH:mm",
            ]))
    }

    @Test(
        "unknown text is kept with a nil date",
        arguments: [
            "tomorrow", "21/11/2026", "", "   ", "2026-13-01 10:00:00", "2026-02-30 10:00:00", "2026-11-21 25:00:00",
            "2026-11-21T10:00:00Z",
            "2026-11-21 10:00:00 garbage", String(repeating: "2", count: 41), "0000-00-00 00:00:00",
        ]
    )
    func unknownText(text: String) {
        let timestamp = WarplyTimestamp(text)
        #expect(timestamp.text == text)
        #expect(timestamp.date == nil)
        #expect(timestamp.formatted("dd/MM/yyyy") == nil)
        #expect(timestamp.description == text)
    }

    @Test("surrounding spaces are ignored for the date but kept in the text")
    func surroundingSpaces() {
        let timestamp = WarplyTimestamp("  2026-11-21 10:00:00 ")
        #expect(timestamp.text == "  2026-11-21 10:00:00 ")
        #expect(timestamp.date == utc(2026, 11, 21, 8))
    }

    @Test("ordering is by instant, across formats and offsets")
    func orderingByInstant() {
        let early = WarplyTimestamp("2026-11-21 09:00:00")  // 07:00Z
        let offset = WarplyTimestamp("2026-11-21 08:00:00+00:00")  // 08:00Z
        let minutes = WarplyTimestamp("2026-11-21 10:30")  // 08:30Z
        let day = WarplyTimestamp("2026-11-22")  // 2026-11-21 22:00Z
        #expect(early < offset)
        #expect(offset < minutes)
        #expect(minutes < day)
        #expect(!(day < early))
        #expect([day, minutes, early, offset].sorted() == [early, offset, minutes, day])
        #expect([day, minutes, early].max() == day)
    }

    @Test("unknown dates sort before known ones; unknowns by text; equal instants by text")
    func orderingOfUnknownsAndTies() {
        let unknownB = WarplyTimestamp("b-unknown")
        let unknownA = WarplyTimestamp("a-unknown")
        let known = WarplyTimestamp("2000-01-01 00:00:00")
        #expect(unknownA < known && unknownB < known)
        #expect(!(known < unknownA))
        #expect(unknownA < unknownB)
        let local = WarplyTimestamp("2026-11-21 10:00:00")
        let utcText = WarplyTimestamp("2026-11-21 08:00:00+00:00")
        #expect(local.date == utcText.date)
        #expect(local != utcText)
        #expect(utcText < local)  // "2026-11-21 08…" < "2026-11-21 10…"
        #expect(!(local < local))
        #expect([known, unknownB, local, unknownA, utcText].sorted() == [unknownA, unknownB, known, utcText, local])
    }

    @Test("decodes a JSON string (text kept) or Unix seconds; anything else is a typeMismatch")
    func decoding() throws {
        let text = try decode([WarplyTimestamp].self, #"["2026-11-21 10:00:00+02:00","soon"]"#)
        #expect(text.map(\.text) == ["2026-11-21 10:00:00+02:00", "soon"])
        #expect(text[0].date == utc(2026, 11, 21, 8))
        #expect(text[1].date == nil)
        let seconds = try decode([WarplyTimestamp].self, "[1795766400]")  // 2026-11-27 08:00:00Z
        #expect(seconds[0].date == Date(timeIntervalSince1970: 1_795_766_400))
        #expect(seconds[0].text == "2026-11-27 10:00:00")
        for bad in ["[true]", "[{}]", "[[1]]", "[null]"] {
            #expect(throws: DecodingError.self) { try decode([WarplyTimestamp].self, bad) }
        }
    }

    @Test(
        "encodes the original text, byte for byte",
        arguments: ["2026-11-21 10:00:00", "2026-11-21 10:00:00.000000+02:00", "  odd text ", "21/11/2026"])
    func encodingKeepsText(text: String) throws {
        let data = try JSONEncoder().encode([WarplyTimestamp(text)])
        #expect(try JSONDecoder().decode([String].self, from: data) == [text])
        #expect(try JSONDecoder().decode([WarplyTimestamp].self, from: data) == [WarplyTimestamp(text)])
    }

    @Test("a timestamp for a date is written in Athens time and reads back to the same second")
    func fromDate() {
        let instant = utc(2026, 7, 1, 7, 15, 30)
        let timestamp = WarplyTimestamp(instant)
        #expect(timestamp.text == "2026-07-01 10:15:30")
        #expect(timestamp.date == instant)
        let withFraction = WarplyTimestamp(instant.addingTimeInterval(0.9))
        #expect(withFraction.text == "2026-07-01 10:15:30")
        #expect(withFraction.date == instant)
        let minutes = WarplyTimestamp(instant, format: "yyyy-MM-dd HH:mm")
        #expect(minutes.text == "2026-07-01 10:15")
        #expect(minutes.date == utc(2026, 7, 1, 7, 15))
    }

    @Test("a timestamp for a date in a format outside the list keeps the date")
    func fromDateOtherFormat() {
        let instant = utc(2026, 7, 1, 7)
        let timestamp = WarplyTimestamp(instant, format: "dd/MM/yyyy")
        #expect(timestamp.text == "01/07/2026")
        #expect(timestamp.date != nil)
    }

    @Test("formatted writes the date in Athens time")
    func formatted() {
        #expect(WarplyTimestamp("2026-11-21 10:00:00").formatted("dd/MM/yyyy") == "21/11/2026")
        #expect(WarplyTimestamp("2026-11-21 10:00:00+00:00").formatted("HH:mm") == "12:00")
        #expect(WarplyTimestamp("2026-11-21 23:30:00+00:00").formatted("dd/MM/yyyy") == "22/11/2026")
        #expect(WarplyTimestamp("2026-12-31 23:59").formatted("dd/MM/yyyy HH:mm") == "31/12/2026 23:59")
    }

    @Test("parsing and formatting from many tasks at once gives the same results")
    func concurrentUse() async {
        let texts = [
            "2026-11-21 10:00:00", "2026-11-21 10:00:00+00:00", "2026-11-21 10:00", "2026-11-21 10:00:00.500000", "nope", "2026-01-01",
        ]
        let expected = texts.map { (WarplyTimestamp($0).date, WarplyTimestamp($0).formatted("dd/MM/yyyy HH:mm:ss")) }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for round in 0..<300 {
                        let index = (worker + round) % texts.count
                        let timestamp = WarplyTimestamp(texts[index])
                        if timestamp.date != expected[index].0 || timestamp.formatted("dd/MM/yyyy HH:mm:ss") != expected[index].1 {
                            mismatches += 1
                        }
                        if WarplyTimestamp(Date(timeIntervalSince1970: Double(round * 3600))).date
                            != Date(timeIntervalSince1970: Double(round * 3600))
                        {
                            mismatches += 1
                        }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}

// MARK: - Paths, URLs, placeholders

@Suite("WarplyWire paths and helpers (unit)", .bounded)
struct WarplyWireUnitTests {
    static let uuid = "f83dfde1145e4c2da69793abb2f579af"

    @Test("every template has its placeholders filled")
    func everyTemplateFilled() {
        for template in WarplyWire.PathTemplate.allCases {
            let path = WarplyWire.path(template, appUUID: Self.uuid, sessionUUID: "s-1")
            #expect(path.hasPrefix("/"))
            #expect(!path.contains("{") && !path.contains("}"), "\(template)")
        }
        #expect(WarplyWire.PathTemplate.allCases.count == 15)
    }

    @Test("the families' paths are the seed's")
    func seedPaths() {
        #expect(WarplyWire.path(.register, appUUID: Self.uuid) == "/api/mobile/v2/\(Self.uuid)/register/")
        #expect(WarplyWire.path(.standardContext, appUUID: Self.uuid) == "/api/mobile/v2/\(Self.uuid)/context/")
        #expect(WarplyWire.path(.authenticatedContext, appUUID: Self.uuid) == "/oauth/\(Self.uuid)/context")
        #expect(WarplyWire.path(.token, appUUID: Self.uuid) == "/oauth/\(Self.uuid)/token")
        #expect(WarplyWire.path(.logout, appUUID: Self.uuid) == "/oauth/\(Self.uuid)/logout")
        #expect(WarplyWire.path(.registerUser, appUUID: Self.uuid) == "/user/\(Self.uuid)/register")
        #expect(WarplyWire.path(.changePassword, appUUID: Self.uuid).hasPrefix("/user/\(Self.uuid)/"))
        #expect(WarplyWire.path(.resetPassword, appUUID: Self.uuid).hasPrefix("/user/\(Self.uuid)/"))
        #expect(WarplyWire.path(.requestOTP, appUUID: Self.uuid).hasPrefix("/user/\(Self.uuid)/"))
        #expect(WarplyWire.path(.deiLogin, appUUID: Self.uuid).hasPrefix("/partners/"))
        #expect(WarplyWire.path(.verifyTicket, appUUID: Self.uuid).hasPrefix("/partners/"))
        #expect(WarplyWire.path(.cosmoteUser, appUUID: Self.uuid).hasPrefix("/partners/"))
        #expect(WarplyWire.path(.session, appUUID: Self.uuid, sessionUUID: "c1a2-b3") == "/api/session/c1a2-b3")
        #expect(WarplyWire.path(.analytics, appUUID: Self.uuid) == "/api/async/analytics/\(Self.uuid)/")
        #expect(WarplyWire.path(.deviceInfo, appUUID: Self.uuid) == "/api/async/info/\(Self.uuid)/")
    }

    @Test(
        "hostile values are percent-encoded so they stay one segment",
        arguments: [
            ("../../admin", "..%2F..%2Fadmin"), ("a/b", "a%2Fb"), ("a?x=1", "a%3Fx%3D1"), ("a#frag", "a%23frag"), ("a b", "a%20b"),
            ("%2F", "%252F"), ("a;b", "a%3Bb"), ("a\\b", "a%5Cb"), ("{appUUID}", "%7BappUUID%7D"), ("a\nb", "a%0Ab"), ("-._~", "-._~"),
            ("ä", "%C3%A4"), ("Κ1", "%CE%9A1"), ("\u{FF10}", "%EF%BC%90"),
        ]
    )
    func hostileSessionValues(value: String, expected: String) {
        let path = WarplyWire.path(.session, appUUID: Self.uuid, sessionUUID: value)
        #expect(path == "/api/session/" + expected)
        #expect(path.split(separator: "/", omittingEmptySubsequences: false).count == 4)
    }

    @Test("an appUUID with a session placeholder is not filled twice")
    func noDoubleSubstitution() {
        #expect(WarplyWire.path(.session, appUUID: "x", sessionUUID: "s") == "/api/session/s")
        #expect(WarplyWire.path(.token, appUUID: "a/{sessionUuid}", sessionUUID: "s") == "/oauth/a%2F%7BsessionUuid%7D/token")
    }

    @Test("dot segments are percent-encoded too")
    func dotSegments() {
        #expect(WarplyWire.path(.session, appUUID: Self.uuid, sessionUUID: "..") != "/api/session/..")
        #expect(WarplyWire.path(.session, appUUID: Self.uuid, sessionUUID: ".") != "/api/session/.")
    }

    @Test("signature is hex(sha256(apiKey + date)), lowercase, 64 digits")
    func signature() {
        #expect(
            WarplyWire.signature(apiKey: "k3y", date: "1700000000") == "b0eb1e2de025b528285adc2c27c8813a18beab1480c6603fa7843d20a3ffa44d")
        #expect(WarplyWire.signature(apiKey: "", date: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            WarplyWire.signature(apiKey: "κλειδί", date: "1700000000") == "bccbabf6aeed39c2c328a76b84b7504479135f0faa4e85bb3e42511453c85175"
        )
        #expect(WarplyWire.signature(apiKey: "k3y", date: "1700000001") != WarplyWire.signature(apiKey: "k3y", date: "1700000000"))
    }

    @Test("header names, sensitive headers, statuses and section status keys")
    func constants() {
        #expect(WarplyWire.Header.webID == "loyalty-web-id")
        #expect(WarplyWire.Header.date == "loyalty-date")
        #expect(WarplyWire.Header.signature == "loyalty-signature")
        #expect(WarplyWire.Header.bundleID == "loyalty-bundle-id")
        #expect(WarplyWire.Header.sensitive.isSuperset(of: ["loyalty-signature", "loyalty-web-id", "unique-device-id"]))
        #expect(WarplyWire.Status.success == 1)
        #expect(WarplyWire.Status.registrationInvalid == 9)
        #expect(WarplyWire.Section.statusKey(WarplyWire.Section.campaigning) == "MAPP_CAMPAIGNING-status")
    }

    @Test(
        "cleanEscapedURL replaces every \\/ by /",
        arguments: [
            (#"https:\/\/engage-uat.dei.gr\/campaign\/c1"#, "https://engage-uat.dei.gr/campaign/c1"), ("https://a.b/c", "https://a.b/c"),
            ("", ""),
            (#"\/"#, "/"), (#"\\/"#, #"\/"#), (#"a\b"#, #"a\b"#), (#"\/\/\/"#, "///"),
        ]
    )
    func cleanEscapedURL(input: String, expected: String) {
        #expect(WarplyWire.cleanEscapedURL(input) == expected)
    }

    @Test("fill replaces every occurrence of known placeholders and leaves unknown ones")
    func fillPlaceholders() {
        let values = ["appUUID": "u-1", "web_id": "w", "api_key": ""]
        #expect(
            WarplyPlaceholders.fill("https://x/{appUUID}/{web_id}?k={api_key}&again={appUUID}", values: values)
                == "https://x/u-1/w?k=&again=u-1")
        #expect(WarplyPlaceholders.fill("{unknown}/{APPUUID}/{ appUUID }", values: values) == "{unknown}/{APPUUID}/{ appUUID }")
        #expect(WarplyPlaceholders.fill("no placeholders", values: values) == "no placeholders")
        #expect(WarplyPlaceholders.fill("{appUUID}", values: [:]) == "{appUUID}")
        #expect(WarplyPlaceholders.fill("", values: values) == "")
    }

    @Test("fill is one pass: a value containing a placeholder is not filled again")
    func fillIsOnePass() {
        #expect(WarplyPlaceholders.fill("{a}{b}", values: ["a": "{b}", "b": "{a}"]) == "{b}{a}")
    }
}
