import Foundation
import HTTPTypes

/// How a provider judges its backend's answers: the one place an answer becomes the call's value, its
/// failure, or a refused credential.
///
/// `APIClient` asks its policy about every answer, of any status, once. A rule may refuse an answer
/// whatever its status (a refusal in the body of a 200: Warply's `status`, PiggyCards' `code`, GraphQL's
/// `errors`), report a refused credential (Warply's status 9, Hasura's `invalid-jwt`), or give a non-2xx
/// answer the provider's own error (Crobox's 405 for an unknown container). What the rules leave alone
/// gets the standard judgement: a 2xx answer decodes as the call's value, a 401 is a refused access
/// token, any other status is `EngageError.http` with the server's message.
///
/// A refused credential always takes the same path: the authoriser renews it
/// (``RequestAuthorizer/renew(after:)``) and the request goes out once more, as the call's last send; a
/// second refusal, or a credential that cannot be renewed, ends the call with the verdict's error.
/// Whether a failure is retried comes from the verdict too: its error's `isRetryable`, within the
/// client's `RetryPolicy`.
///
/// ```swift
/// let policy = ResponsePolicy { answer in
///     if answer.response.status == 410 { return .fail(EngageError(.invalidInput, "This perk has expired.", httpStatus: 410)) }
///     guard answer.response.isSuccess, let refusal = try? JSONDecoder().decode(Refusal.self, from: answer.response.body) else {
///         return .accept
///     }
///     return .fail(EngageError(.httpStatus, "Weather perks refused: \(answer.redactor.redact(text: refusal.refused))"))
/// }
/// ```
@_spi(EngageProvider) public struct ResponsePolicy: Sendable {
    /// What a rule makes of one answer.
    public enum Verdict: Sendable {
        /// The rule has nothing to say: the next rule, then the standard judgement, decide.
        case accept
        /// The answer is this failure, whatever its status.
        case fail(EngageError)
        /// The server refused the request's `credential`: it is renewed and the request sent once more.
        /// `error` is the call's failure when that cannot be done or the resend is refused too.
        case credentialRejected(EngageError, credential: CredentialRejection.Credential)
    }

    /// One answer, as a rule reads it.
    public struct Answer: Sendable {
        /// The answer, whatever its status.
        public let response: HTTPResponseMessage
        /// The request as it was sent, credentials included.
        public let request: HTTPRequestMessage
        /// A 2xx body decoded as the type the call reads (`APIRequest.Reading.json`), so a rule reads an
        /// envelope's status from it instead of parsing the body again; `nil` when the status is not 2xx,
        /// when the call reads the bytes themselves, and when the body did not decode as that type (a
        /// refusal often has another shape: parse `response.body` then).
        public let value: (any Sendable)?
        /// Hides secrets in server text a rule puts into an error.
        public let redactor: Redactor

        /// An answer for a rule to judge (tests of a provider's rules build these).
        public init(
            response: HTTPResponseMessage, request: HTTPRequestMessage, value: (any Sendable)? = nil, redactor: Redactor = Redactor()
        ) {
            self.response = response
            self.request = request
            self.value = value
            self.redactor = redactor
        }
    }

    /// A provider's reading of one answer.
    public typealias Rule = @Sendable (Answer) -> Verdict

    private let rules: [Rule]

    private init(rules: [Rule]) {
        self.rules = rules
    }

    /// A policy applying `rule` to every answer before the standard judgement.
    public init(_ rule: @escaping Rule) {
        rules = [rule]
    }

    /// The standard judgement alone: 2xx is the value, 401 a refused access token, anything else
    /// `EngageError.http`.
    public static let standard = ResponsePolicy(rules: [])

    /// This policy with `rule` asked after its own rules (the first verdict that is not `.accept` wins).
    public func adding(_ rule: @escaping Rule) -> ResponsePolicy {
        ResponsePolicy(rules: rules + [rule])
    }

    /// The first verdict of the rules on `answer` that is not `.accept`, else `.accept`.
    public func verdict(on answer: Answer) -> Verdict {
        for rule in rules {
            let verdict = rule(answer)
            if case .accept = verdict { continue }
            return verdict
        }
        return .accept
    }
}

/// A refused credential, as an authoriser is asked to renew it.
@_spi(EngageProvider) public struct CredentialRejection: Sendable {
    /// Which credential a server refused.
    public enum Credential: Sendable, Equatable {
        /// The user's or the app's access token (a 401, Hasura's `invalid-jwt`): bearer and host-token
        /// authorisers renew it.
        case accessToken
        /// The key requests are signed with (Warply's device registration): the signer renews it.
        case signingKey
    }

    /// The request as it was sent, with the credentials that were refused.
    public let request: HTTPRequestMessage
    /// The refusing answer.
    public let response: HTTPResponseMessage
    /// The credential refused.
    public let credential: Credential

    /// A rejection of `credential` in `request`, answered by `response`.
    public init(request: HTTPRequestMessage, response: HTTPResponseMessage, credential: Credential) {
        self.request = request
        self.response = response
        self.credential = credential
    }
}
