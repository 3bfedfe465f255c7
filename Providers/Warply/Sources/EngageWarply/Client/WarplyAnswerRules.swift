@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// The rules every signed Warply answer shares, read by the signed clients' `AnswerClassifier` in the
/// authorisation layer:
///
/// - a 2xx body whose status is not 1 is refused (`.warplyRequestRejected`, with the server's message
///   redacted);
/// - status 9 means the server no longer knows the registration that signed the request: a refused
///   signing key. The signer (``WarplySigner/renewKey(after:)``) forgets exactly that registration (a
///   newer one another caller just made is kept) and the call is sent once more, signed with a new one.
///   A second status 9 right after registering is `.warplyRegistrationInvalid`, never a loop.
///
/// The body status is read here only; a body without one is left to the caller's decoding (token
/// answers carry none).
enum WarplyAnswerRules {
    static let classifier = AnswerClassifier { response, request, redactor in
        guard response.isSuccess, let envelope = statusEnvelope(of: response.body), let status = envelope.status,
            status != WarplyWire.Status.success
        else { return .accept }
        guard status == WarplyWire.Status.registrationInvalid else {
            return .fail(
                refusal(operation: request.options.operationName, status: "status \(status)", message: envelope.message, redactor: redactor)
            )
        }
        let error = EngageError(
            .warplyRegistrationInvalid,
            "Warply refused the device registration again right after registering anew (status 9).", providerID: .warply,
            isRetryable: true,
            recoverySuggestion: "Check that appUUID belongs to this environment; try again later."
        )
        return .credentialRejected(error, credential: .signingKey)
    }

    /// The body's `status` and `msg`, when the body is a JSON object.
    static func statusEnvelope(of body: Data) -> WarplyStatusResponse? {
        try? JSONDecoder().decode(WarplyStatusResponse.self, from: body)
    }

    /// `.warplyRequestRejected` for `operation`, naming the refusing `status` and the server's
    /// message (redacted, clipped).
    static func refusal(operation: String?, status: String, message: String?, redactor: Redactor) -> EngageError {
        let detail = message.map { ": " + redactor.redact(text: String($0.prefix(300))) } ?? "."
        return EngageError(.warplyRequestRejected, "Warply refused \(operation ?? "the request") (\(status))\(detail)", providerID: .warply)
    }
}
