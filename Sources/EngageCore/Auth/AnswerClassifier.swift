import HTTPTypes

/// How a provider reads its backend's answers, in the authorisation layer of its `APIClient`'s stack,
/// before anything else sees them: accept an answer, fail the call, or report that the server refused
/// the credential the request carried.
///
/// A refused credential always takes the same path, whatever said so (a 401, Warply's body status 9,
/// Hasura's `invalid-jwt` in a 200): the authoriser renews that credential
/// (``RequestAuthorizer/renew(after:)``) and the request goes out once more, with no retry after it; a
/// second refusal, or a credential that cannot be renewed, ends the call. A 401 is a refused access
/// token unless the provider's rule says otherwise.
///
/// ```swift
/// let classifier = AnswerClassifier { response, _, redactor in
///     guard response.isSuccess, let refusal = try? JSONDecoder().decode(Refusal.self, from: response.body) else { return .accept }
///     return .fail(EngageError(.httpStatus, "Weather perks refused: \(redactor.redact(text: refusal.refused))"))
/// }
/// ```
@_spi(EngageProvider) public struct AnswerClassifier: Sendable {
    /// What an answer means for its call.
    public enum Verdict: Sendable {
        /// The answer stands; a non-2xx status is then mapped by `APIClient.Hooks.mapError` where the
        /// call validates it.
        case accept
        /// The answer is a failure whatever its status (a refusal in the body of a 200).
        case fail(EngageError)
        /// The server refused the request's `credential`: it is renewed and the request sent once more.
        /// `error` is the call's failure when that cannot be done or the resend is refused too.
        case credentialRejected(EngageError, credential: CredentialRejection.Credential)
    }

    /// Reads one answer (of any status) to `request` as it was sent, credentials included; the
    /// provider's redactor hides secrets in server text put into an error.
    public typealias Rule = @Sendable (HTTPResponseMessage, HTTPRequestMessage, Redactor) -> Verdict

    private let rule: Rule?

    /// A classifier applying `rule` to every answer; a 401 the rule accepts is still a refused access
    /// token.
    public init(_ rule: @escaping Rule) {
        self.rule = rule
    }

    private init() {
        rule = nil
    }

    /// Only the 401 rule: a 401 is a refused access token, every other answer stands.
    public static let standard = AnswerClassifier()

    /// The verdict on `response`, the answer to `request` as sent. A 401 the rule accepts is a refused
    /// access token; its error is `nil`, because a 401 that cannot be renewed stands as the answer.
    func verdict(on response: HTTPResponseMessage, to request: HTTPRequestMessage, redactor: Redactor) -> Outcome {
        switch rule?(response, request, redactor) ?? .accept {
        case .accept:
            return response.status == 401 ? .rejected(nil, .accessToken) : .accept
        case let .fail(error):
            return .fail(error)
        case let .credentialRejected(error, credential):
            return .rejected(error, credential)
        }
    }

    /// A verdict as the authorisation middleware acts on it.
    enum Outcome {
        case accept
        case fail(EngageError)
        /// `nil`: the answer itself (a 401) is the outcome when the credential cannot be renewed.
        case rejected(EngageError?, CredentialRejection.Credential)
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

/// A failure the stack decided on after reading an answer (a classifier's verdict, or the failure of
/// the one resend after a renewal): the retry middleware passes it up unretried, and
/// `MiddlewareTransport` hands its error to its caller.
struct FinalFailure: Error {
    let error: EngageError
}
