@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// The rules every signed Warply answer shares, read by the signed clients' `AnswerClassifier` in the
/// authorisation layer:
///
/// - a 2xx body whose status is not 1 is refused (`.warplyRequestRejected`, with the server's message
///   redacted);
/// - status 9 means the server does not accept the key that signed the request: a refused signing key.
///   With device registration the signer (``WarplySigner/renewKey(after:)``) forgets exactly that
///   registration (a newer one another caller just made is kept) and the call is sent once more, signed
///   with a new one; a second status 9 right after registering is `.warplyRegistrationInvalid`, never a
///   loop. With merchant signing there is nothing to renew: the first status 9 is that error.
///
/// The body status is read here only; a body without one is left to the caller's decoding (token
/// answers carry none). An answer is parsed once: the call's own decoding, done in the authorisation
/// layer before this rule runs, carries the status (``WarplyStatusCarrying``).
enum WarplyAnswerRules {
    /// The rules for requests signed with `signing`.
    static func classifier(signing: WarplyConfiguration.Signing) -> AnswerClassifier {
        let refusedSignature =
            switch signing {
            case .deviceRegistration:
                EngageError(
                    .warplyRegistrationInvalid,
                    "Warply refused the device registration again right after registering anew (status 9).", providerID: .warply,
                    isRetryable: true,
                    recoverySuggestion: "Check that appUUID belongs to this environment; try again later."
                )
            case .merchant:
                EngageError(
                    .warplyRegistrationInvalid, "Warply refused this app's signature (status 9).", providerID: .warply,
                    recoverySuggestion:
                        "Check that merchantID and appUUID belong to this environment; a backend that issues device registrations needs signing = .deviceRegistration."
                )
            }
        return classifier(refusedSignature: refusedSignature)
    }

    private static func classifier(refusedSignature: EngageError) -> AnswerClassifier {
        AnswerClassifier { response, request, redactor in
            guard response.isSuccess, let envelope = statusEnvelope(of: response), let status = envelope.status,
                status != WarplyWire.Status.success
            else { return .accept }
            guard status == WarplyWire.Status.registrationInvalid else {
                return .fail(
                    refusal(
                        operation: request.options.operationName?.rawValue, status: "status \(status)", message: envelope.message,
                        redactor: redactor)
                )
            }
            return .credentialRejected(refusedSignature, credential: .signingKey)
        }
    }

    /// The answer's `status` and `msg`. An answer the call decoded already (``HTTPResponseMessage/decodedBody``)
    /// is read as decoded: its envelope when its type has one (``WarplyStatusCarrying``), none when its
    /// type has no status (token answers). Only a body the call reads itself, or one that did not decode
    /// as the call expected (a refusal has another shape), is parsed here.
    static func statusEnvelope(of response: HTTPResponseMessage) -> WarplyStatusResponse? {
        if let carrier = response.decodedBody as? any WarplyStatusCarrying { return carrier.statusEnvelope }
        if response.decodedBody != nil { return nil }
        return try? JSONDecoder().decode(WarplyStatusResponse.self, from: response.body)
    }

    /// `.warplyRequestRejected` for `operation`, naming the refusing `status` and the server's
    /// message (redacted, clipped).
    static func refusal(operation: String?, status: String, message: String?, redactor: Redactor) -> EngageError {
        let detail = message.map { ": " + redactor.redact(text: String($0.prefix(300))) } ?? "."
        return EngageError(.warplyRequestRejected, "Warply refused \(operation ?? "the request") (\(status))\(detail)", providerID: .warply)
    }
}

/// A decoded Warply answer that carries the body status, so the answer rules read it from the value the
/// call decoded instead of parsing the body a second time.
protocol WarplyStatusCarrying: Sendable {
    /// The body's `status` as sent (`nil` when the body had none) and its `msg`.
    var statusEnvelope: WarplyStatusResponse { get }
}

extension WarplyStatusResponse: WarplyStatusCarrying {
    var statusEnvelope: WarplyStatusResponse { self }
}

extension WarplyContextResponse: WarplyStatusCarrying {
    var statusEnvelope: WarplyStatusResponse { WarplyStatusResponse(status: sentStatus, message: message) }
}

extension WarplyResultResponse: WarplyStatusCarrying {
    var statusEnvelope: WarplyStatusResponse { WarplyStatusResponse(status: sentStatus, message: message) }
}
