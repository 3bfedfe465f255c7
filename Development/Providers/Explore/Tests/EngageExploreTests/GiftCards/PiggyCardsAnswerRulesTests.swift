#if PiggyCards
    @_spi(EngageProvider) @testable import EngageCore
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
    @_spi(EngageProvider) @testable import EngageExploreGiftCards
    import Foundation
    import HTTPTypes
    import EngageTestTraits
    import Testing

    extension GiftCardSuites {
        /// The PiggyCards response policy reads the body code from the envelope the call decoded, so no answer
        /// is parsed twice.
        @Suite("PiggyCards answer rules read the decoded answer", .bounded)
        struct PiggyCardsAnswerRulesTests {
            let request = HTTPRequestMessage(
                head: HTTPRequest(method: .get, scheme: "https", authority: "piggy.example", path: "/brands/US"),
                options: RequestOptions(operation: PiggyCardsOperation.brands))

            /// A 200 whose bytes are not JSON, carrying `decoded` as the call's decoded answer.
            func outcome(decoded: (any Sendable)?, body: String = "not json", status: HTTPResponse.Status = .ok) -> ResponsePolicy.Verdict {
                let response = HTTPResponseMessage(head: HTTPResponse(status: status), body: Data(body.utf8))
                return PiggyCardsErrorMapping.policy.verdict(
                    on: ResponsePolicy.Answer(response: response, request: request, value: decoded))
            }

            @Test("a decoded envelope whose code is 403 fails the call; one whose code is 200 stands")
            func decodedCode() {
                guard case .fail = outcome(decoded: PiggyCardsWire.Envelope<[String]>(code: 403, message: "no", data: nil)) else {
                    Issue.record("code 403 was accepted")
                    return
                }
                guard case .accept = outcome(decoded: PiggyCardsWire.Envelope<[String]>(code: 200, data: ["a"])) else {
                    Issue.record("code 200 was refused")
                    return
                }
            }

            @Test("an answer decoded as a type without a code stands; a body that did not decode is parsed for its code")
            func otherTypesAndRawBodies() {
                guard case .accept = outcome(decoded: "a login answer", body: #"{"code":401}"#) else {
                    Issue.record("an answer decoded as a type without a code was parsed again")
                    return
                }
                guard case .fail = outcome(decoded: nil, body: #"{"code":401,"message":"expired"}"#) else {
                    Issue.record("a raw refusal was accepted")
                    return
                }
            }

            @Test("a non-2xx answer is mapped per call; a 401 is a refused access token carrying the mapped error")
            func statuses() {
                guard case let .fail(error) = outcome(decoded: nil, body: #"{"message":"Out of stock"}"#, status: .internalServerError)
                else {
                    Issue.record("a 500 was accepted")
                    return
                }
                #expect(error.code == .exploreGiftCardOutOfStock)
                #expect(!error.isRetryable)
                guard case let .credentialRejected(refused, .accessToken) = outcome(decoded: nil, status: .unauthorized) else {
                    Issue.record("a 401 was not a refused access token")
                    return
                }
                #expect(refused.code == .unauthorized)
            }
        }
    }
#endif
