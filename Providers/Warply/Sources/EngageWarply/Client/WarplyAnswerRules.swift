@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// The rules every signed Warply answer shares, the signed clients' `ResponsePolicy`: the one place
/// a Warply status is read.
///
/// - a 2xx body whose status is not 1 is refused (`.warplyRequestRejected`, with the server's message
///   redacted), and so is a context answer whose section status is not 1, and a context or status
///   answer that carries no status at all (a result answer may leave it out);
/// - status 9 means the server does not accept the key that signed the request: a refused signing key.
///   With device registration the signer (``WarplySigner/renewKey(after:)``) forgets exactly that
///   registration (a newer one another caller just made is kept) and the call is sent once more, signed
///   with a new one; a second status 9 right after registering is `.warplyRegistrationInvalid`, never a
///   loop. With merchant signing there is nothing to renew: the first status 9 is that error.
///
/// An answer is parsed once: the rule reads the status from the value the call decoded
/// (``WarplyStatusCarrying``); an answer decoded as a type without one (token answers) has none. Only
/// a body the call reads itself, or one that did not decode as the call expected (a refusal has
/// another shape), is parsed here, for its status.
enum WarplyAnswerRules {
    /// The rules for requests signed with `signing`.
    static func policy(signing: WarplyConfiguration.Signing) -> ResponsePolicy {
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
        return ResponsePolicy { answer in verdict(on: answer, refusedSignature: refusedSignature) }
    }

    /// The verdict on one answer; `refusedSignature` is the failure of a status 9 that cannot be renewed.
    static func verdict(on answer: ResponsePolicy.Answer, refusedSignature: EngageError) -> ResponsePolicy.Verdict {
        guard answer.response.isSuccess, let reading = statusReading(of: answer) else { return .accept }
        let operation = answer.request.options.operationName?.rawValue
        switch reading.envelope.status {
        case nil:
            guard reading.requiresStatus else { return .accept }
            return .fail(refusal(operation: operation, status: "status 0", message: reading.envelope.message, redactor: answer.redactor))
        case WarplyWire.Status.registrationInvalid:
            return .credentialRejected(refusedSignature, credential: .signingKey)
        case WarplyWire.Status.success:
            guard let section = reading.sectionStatus, section != WarplyWire.Status.success else { return .accept }
            return .fail(
                refusal(
                    operation: operation, status: "section status \(section)", message: reading.envelope.message, redactor: answer.redactor)
            )
        case let status?:
            return .fail(
                refusal(operation: operation, status: "status \(status)", message: reading.envelope.message, redactor: answer.redactor))
        }
    }

    /// The statuses one answer carries, and whether it must carry a status at all.
    struct StatusReading {
        var envelope: WarplyStatusResponse
        var sectionStatus: Int?
        var requiresStatus: Bool
    }

    /// The statuses of the answer: from the value the call decoded when it has them, none when the
    /// value's type has no status (token answers), and parsed from the body only when the call did not
    /// decode one (it reads the bytes, or the body has another shape).
    static func statusReading(of answer: ResponsePolicy.Answer) -> StatusReading? {
        if let carrier = answer.value as? any WarplyStatusCarrying {
            return StatusReading(
                envelope: carrier.statusEnvelope, sectionStatus: carrier.sectionStatus, requiresStatus: carrier.requiresStatus)
        }
        if answer.value != nil { return nil }
        guard let envelope = try? JSONDecoder().decode(WarplyStatusResponse.self, from: answer.response.body), envelope.status != nil
        else { return nil }
        return StatusReading(envelope: envelope, sectionStatus: nil, requiresStatus: false)
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
    /// The status of the answer's section, for a context answer that sent one.
    var sectionStatus: Int? { get }
    /// Whether an answer of this form without a status is a refusal.
    var requiresStatus: Bool { get }
}

extension WarplyStatusResponse: WarplyStatusCarrying {
    var statusEnvelope: WarplyStatusResponse { self }
    var sectionStatus: Int? { nil }
    var requiresStatus: Bool { true }
}

extension WarplyContextResponse: WarplyStatusCarrying {
    var statusEnvelope: WarplyStatusResponse { WarplyStatusResponse(status: sentStatus, message: message) }
    var requiresStatus: Bool { true }
}

extension WarplyResultResponse: WarplyStatusCarrying {
    var statusEnvelope: WarplyStatusResponse { WarplyStatusResponse(status: sentStatus, message: message) }
    var sectionStatus: Int? { nil }
    var requiresStatus: Bool { false }
}
