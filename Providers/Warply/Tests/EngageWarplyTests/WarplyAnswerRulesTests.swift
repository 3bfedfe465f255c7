@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

/// The answer rules read the body status from the answer the call decoded (wire/warply.md "Request
/// envelope": every answer carries `status`), so no answer is parsed twice.
@Suite("Warply answer rules read the decoded answer", .bounded)
struct WarplyAnswerRulesTests {
    let request = HTTPRequestMessage(head: HTTPRequest(method: .post, scheme: "https", authority: "warply.example", path: "/context"))

    /// A 200 whose bytes are not JSON at all, carrying `decoded` as the call's decoded answer: a verdict
    /// that depends on the status can only have come from the decoded value.
    func answer(decoded: (any Sendable)?) -> HTTPResponseMessage {
        var response = HTTPResponseMessage(head: HTTPResponse(status: .ok), body: Data("not json".utf8))
        response.decodedBody = decoded
        return response
    }

    func outcome(_ response: HTTPResponseMessage) -> AnswerClassifier.Outcome {
        WarplyAnswerRules.classifier(signing: .deviceRegistration).verdict(on: response, to: request, redactor: Redactor())
    }

    @Test("a decoded context answer with status 2 is refused with its message, without reading the bytes")
    func decodedRefusal() throws {
        let decoded = try WarplyContextResponse<JSONValue>.decode(
            Data(#"{"status":"2","msg":"nope","context":{"MAPP_X":{"result":[]}}}"#.utf8), section: "MAPP_X")
        guard case let .fail(error) = outcome(answer(decoded: decoded)) else {
            Issue.record("status 2 was not refused")
            return
        }
        #expect(error.code == .warplyRequestRejected)
        #expect(error.message.contains("status 2"))
        #expect(error.message.contains("nope"))
    }

    @Test("a decoded status 9 is a refused signing key; a decoded status 1 stands")
    func decodedRegistrationRefused() throws {
        let refused = try JSONDecoder().decode(WarplyStatusResponse.self, from: Data(#"{"status":9}"#.utf8))
        guard case .rejected(_, .signingKey) = outcome(answer(decoded: refused)) else {
            Issue.record("status 9 was not a refused signing key")
            return
        }
        let accepted = try JSONDecoder().decode(WarplyResultResponse<JSONValue>.self, from: Data(#"{"status":1,"result":{}}"#.utf8))
        guard case .accept = outcome(answer(decoded: accepted)) else {
            Issue.record("status 1 was refused")
            return
        }
    }

    @Test("a decoded result answer without a status stands, as it did when the rules parsed the body")
    func decodedWithoutStatus() throws {
        let decoded = try JSONDecoder().decode(WarplyResultResponse<JSONValue>.self, from: Data(#"{"result":{"a":1}}"#.utf8))
        #expect(decoded.status == 0)
        guard case .accept = outcome(answer(decoded: decoded)) else {
            Issue.record("an answer without a status was refused")
            return
        }
    }

    @Test("an answer decoded as a type without a status (a token answer) stands; an undecoded body is parsed")
    func otherTypesAndRawBodies() {
        guard case .accept = outcome(answer(decoded: "a token answer")) else {
            Issue.record("a decoded answer without an envelope was read as a refusal")
            return
        }
        let raw = HTTPResponseMessage(head: HTTPResponse(status: .ok), body: Data(#"{"status":3,"msg":"closed"}"#.utf8))
        guard case let .fail(error) = outcome(raw) else {
            Issue.record("a raw refusal was accepted")
            return
        }
        #expect(error.message.contains("status 3"))
    }
}
