@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing

// Unit tests of wire edge cases: odd but valid shapes must read, and what was read must re-encode as
// it came (wire/warply.md "Request envelope"; seed section 11 "Date Handling").

private func data(_ json: String) -> Data { Data(json.utf8) }

private func json(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: data(text))
}

private func encoded(_ value: some Encodable) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
}

@Suite("Warply wire edge cases (unit)", .bounded)
struct WarplyWireEdgeCaseUnitTests {
    @Test(
        "a context or section that is not an object reads as empty",
        arguments: [
            #"{"status":"1","context":{"MAPP_X":"","MAPP_X-status":1}}"#, #"{"status":"1","context":{"MAPP_X":5}}"#,
            #"{"status":"1","context":{"MAPP_X":[1,2]}}"#, #"{"status":"1","context":"none"}"#, #"{"status":"1","context":7}"#,
            #"{"status":"1","context":[{"MAPP_X":{"result":["a"]}}]}"#,
        ]
    )
    func nonObjectSections(body: String) throws {
        let response = try WarplyContextResponse<[String]>.decode(data(body), section: "MAPP_X")
        #expect(response.status == 1)
        #expect(response.result == nil)
    }

    @Test("a section status next to an empty ([]) section is still read; a result of the wrong type still throws")
    func emptySectionKeepsItsStatus() throws {
        let response = try WarplyContextResponse<[String]>.decode(
            data(#"{"status":"1","context":{"MAPP_X":[],"MAPP_X-status":0}}"#), section: "MAPP_X")
        #expect(response.sectionStatus == 0)
        #expect(throws: DecodingError.self) {
            try WarplyContextResponse<[String]>.decode(data(#"{"status":"1","context":{"MAPP_X":{"result":5}}}"#), section: "MAPP_X")
        }
    }

    @Test(
        "a non-string action is kept in the fields and re-encodes unchanged",
        arguments: [
            #"{"coupon":{"action":5,"x":1}}"#, #"{"coupon":{"action":{"name":"redeem"}}}"#, #"{"coupon":{"action":null}}"#,
            #"{"coupon":{"action":""}}"#,
        ]
    )
    func nonStringAction(body: String) throws {
        let request = try JSONDecoder().decode(WarplyContextRequest.self, from: data(body))
        #expect(request.root == "coupon")
        #expect(request.action.isEmpty)
        #expect(request.fields["action"] == (try json(body))["coupon"]?["action"])
        #expect(try encoded(request) == json(body))
    }

    @Test("a timestamp sent as Unix seconds re-encodes as the same number", arguments: ["[1795766400]", "[1795766400.5]", "[-86400]"])
    func numericTimestampRoundTrip(body: String) throws {
        let timestamps = try JSONDecoder().decode([WarplyTimestamp].self, from: data(body))
        #expect(timestamps[0].date != nil)
        #expect(try encoded(timestamps) == json(body))
        let again = try JSONDecoder().decode([WarplyTimestamp].self, from: JSONEncoder().encode(timestamps))
        #expect(again == timestamps)
    }

    @Test("a timestamp sent as a number orders consistently with the same instant sent as text")
    func numericTimestampOrdering() throws {
        let number = try JSONDecoder().decode([WarplyTimestamp].self, from: data("[1795766400]"))[0]
        let text = WarplyTimestamp(number.text)
        #expect(number.date == text.date)
        #expect(number != text)  // they encode differently
        #expect(text < number)
        #expect(!(number < text))
        #expect(!(number < number))
    }

    @Test("a date written in any format keeps its instant, rounded to what the format shows")
    func dateInOtherFormats() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = WarplyTimestamp.serverTimeZone
        let instant = try #require(calendar.date(from: DateComponents(year: 2026, month: 7, day: 1, hour: 10, minute: 15, second: 30)))
        let day = WarplyTimestamp(instant, format: "dd/MM/yyyy")
        #expect(day.text == "01/07/2026")
        #expect(day.date == calendar.date(from: DateComponents(year: 2026, month: 7, day: 1)))
        #expect(day.formatted("yyyy-MM-dd") == "2026-07-01")
        #expect(WarplyTimestamp(instant, format: "HH:mm dd.MM.yyyy").formatted("yyyy-MM-dd HH:mm") == "2026-07-01 10:15")
    }

    @Test(
        "dots inside a value are kept; only whole dot segments are encoded",
        arguments: [("...", "..."), ("a..b", "a..b"), (".", "%2E"), ("..", "%2E%2E")])
    func dotValues(value: String, expected: String) {
        #expect(WarplyWire.path(.session, appUUID: "u", sessionUUID: value) == "/api/session/" + expected)
    }

    @Test("fill: a placeholder inside a value, braces without a name and nested braces are left alone")
    func fillEdgeCases() {
        #expect(WarplyPlaceholders.fill("{web_id}/{appUUID}", values: ["web_id": "{appUUID}", "appUUID": "u"]) == "{appUUID}/u")
        #expect(WarplyPlaceholders.fill("{{appUUID}}", values: ["appUUID": "u"]) == "{u}")
        #expect(WarplyPlaceholders.fill("{}{appUUID", values: ["appUUID": "u", "": "empty"]) == "empty{appUUID")
        #expect(WarplyPlaceholders.fill("x}{appUUID}{", values: ["appUUID": "ü"]) == "x}ü{")
    }

    @Test("an auth section decoded on its own takes the SDK's defaults for missing keys")
    func standaloneAuthSettings() throws {
        let settings = try JSONDecoder().decode(AuthSettings.self, from: data(#"{"breakerFailureThreshold":4}"#))
        #expect(settings == AuthSettings(breakerFailureThreshold: 4))
        #expect(try JSONDecoder().decode(AuthSettings.self, from: data("{}")) == AuthSettings())
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AuthSettings.self, from: data(#"{"breakerFailureThreshold":"4"}"#))
        }
    }
}
