import HTTPTypes

/// The authorisation layer: applies a `RequestAuthorizer`, reads every answer with the provider's
/// `AnswerClassifier`, and, when the server refused a credential, has the authoriser renew it and sends
/// the request once more.
///
/// It never loops: an answer to that one resend is final (no retry follows it), and a second refusal
/// ends the call: as the 401 itself, or as the classifier's error.
package struct AuthorizationMiddleware: HTTPMiddleware {
    /// The scheme that adds and renews credentials.
    public let authorizer: any RequestAuthorizer
    /// The provider's reading of its answers.
    public let classifier: AnswerClassifier
    /// Hides secrets in the server text a classifier puts into an error.
    public let redactor: Redactor

    /// A middleware applying `authorizer` and `classifier`.
    public init(authorizer: any RequestAuthorizer, classifier: AnswerClassifier = .standard, redactor: Redactor = Redactor()) {
        self.authorizer = authorizer
        self.classifier = classifier
        self.redactor = redactor
    }

    /// Authorises `request` (unless its options say `.none`), sends it, and acts on the classifier's
    /// verdict: renews a refused credential and resends once.
    public func intercept(
        _ request: HTTPRequestMessage,
        next: @escaping @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        let authorizes = request.options.authorization != .none
        var authorized = request
        if authorizes { try await authorizer.authorize(&authorized) }
        let response = try await next(authorized).decoded(for: authorized)
        switch classifier.verdict(on: response, to: authorized, redactor: redactor) {
        case .accept:
            return response
        case let .fail(error):
            throw FinalFailure(error: error)
        case let .rejected(error, credential):
            let rejection = CredentialRejection(request: authorized, response: response, credential: credential)
            guard authorizes, try await authorizer.renew(after: rejection) else { return try Self.standing(response, error) }
            var resend = request
            try await authorizer.authorize(&resend)
            let answer: HTTPResponseMessage
            do {
                answer = try await next(resend).decoded(for: resend)
            } catch {
                throw FinalFailure(error: EngageError.wrapping(error))
            }
            switch classifier.verdict(on: answer, to: resend, redactor: redactor) {
            case .accept:
                return answer.final
            case let .fail(error):
                throw FinalFailure(error: error)
            case let .rejected(error, _):
                return try Self.standing(answer, error).final
            }
        }
    }

    /// `response` as the call's answer, or `error` as its failure when the classifier gave one.
    private static func standing(_ response: HTTPResponseMessage, _ error: EngageError?) throws -> HTTPResponseMessage {
        if let error { throw FinalFailure(error: error) }
        return response
    }
}
