@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

/// The answer rules read the body status from the answer the call decoded (every answer carries
/// `status`), so no answer is parsed twice, and they are the only place a Warply status is read.
@Suite("Warply answer rules read the decoded answer", .bounded)
struct WarplyAnswerRulesTests {
    let request = HTTPRequestMessage(head: HTTPRequest(method: .post, scheme: "https", authority: "warply.example", path: "/context"))

    /// A 200 whose bytes are not JSON at all, carrying `decoded` as the call's decoded answer: a verdict
    /// that depends on the status can only have come from the decoded value.
    func answer(decoded: (any Sendable)?) -> ResponsePolicy.Answer {
        ResponsePolicy.Answer(
            response: HTTPResponseMessage(head: HTTPResponse(status: .ok), body: Data("not json".utf8)), request: request, value: decoded)
    }

    func outcome(_ answer: ResponsePolicy.Answer) -> ResponsePolicy.Verdict {
        WarplyAnswerRules.policy(signing: .deviceRegistration).verdict(on: answer)
    }

    func outcome(_ response: HTTPResponseMessage) -> ResponsePolicy.Verdict {
        outcome(ResponsePolicy.Answer(response: response, request: request))
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
        guard case .credentialRejected(_, .signingKey) = outcome(answer(decoded: refused)) else {
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

    @Test("a context answer whose section status is not 1, or that carries no status, is refused by the same rule")
    func sectionAndMissingStatus() throws {
        let section = try WarplyContextResponse<JSONValue>.decode(
            Data(#"{"status":1,"context":{"MAPP_X-status":4,"MAPP_X":{"result":[]}}}"#.utf8), section: "MAPP_X")
        #expect(section.sectionStatus == 4)
        guard case let .fail(error) = outcome(answer(decoded: section)) else {
            Issue.record("section status 4 was accepted")
            return
        }
        #expect(error.message.contains("section status 4"))
        let missing = try WarplyContextResponse<JSONValue>.decode(Data(#"{"context":{"MAPP_X":{"result":[]}}}"#.utf8), section: "MAPP_X")
        guard case let .fail(missingError) = outcome(answer(decoded: missing)) else {
            Issue.record("a context answer without a status was accepted")
            return
        }
        #expect(missingError.message.contains("status 0"))
        let statusOnly = try JSONDecoder().decode(WarplyStatusResponse.self, from: Data(#"{"msg":"?"}"#.utf8))
        guard case .fail = outcome(answer(decoded: statusOnly)) else {
            Issue.record("a status answer without a status was accepted")
            return
        }
    }
}
