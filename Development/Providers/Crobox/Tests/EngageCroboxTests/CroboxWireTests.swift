@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageCrobox
import Foundation
import EngageTestTraits
import Testing

@Suite("Crobox wire format", .bounded)
struct CroboxWireTests {
    @Test("base36 timestamps match the wire vector")
    func timestamp() {
        #expect(CroboxWire.base36(1_711_554_991_093) == "lu9znf91")
        #expect(CroboxWire.timestamp(Date(timeIntervalSince1970: 1_711_554_991.093)) == "lu9znf91")
        #expect(CroboxWire.date(fromTimestamp: "lu9znf91")?.timeIntervalSince1970 == 1_711_554_991.093)
    }

    @Test(
        "the z checksum matches the Android SDK's vectors",
        arguments: [
            ("foobar=bla", "az968c"),
            ("john=doe&foobar=bla", "-hfa74c"),
            ("foobar=bla&john=doe", "-1lmz7r"),
        ])
    func checksum(query: String, expected: String) {
        #expect(CroboxWire.checksum(ofEncodedQuery: query) == expected)
    }

    @Test("queries are RFC 3986 encoded in order; promotions bodies index product ids")
    func encoding() {
        #expect(CroboxWire.encodeQuery([("cid", "xlrc9t"), ("cp.size", "a+b c")]) == "cid=xlrc9t&cp.size=a%2Bb%20c")
        #expect(CroboxWire.promotionsBody(productIDs: ["p 1", "p+2"]) == "0=p%201&1=p%2B2")
        #expect(CroboxWire.promotionsBody(productIDs: []) == "")
        #expect(CroboxDialect.iOS.impressionKey(3) == "[3]")
        #expect(CroboxDialect.android.impressionKey(3) == "imp[3]")
    }
}
