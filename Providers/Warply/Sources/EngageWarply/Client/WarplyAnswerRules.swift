import EngageCore
import Foundation
import HTTPTypes

/// The rules every signed Warply call shares, given to its `APIClient`s as hooks:
///
/// - **prepare**: each pass of a call pins the device registration it is signed with
///   (`RequestOptions.signingCredential`), registering first when the device has none.
/// - **interpret**: a 2xx body whose status is not 1 is refused (`.warplyRequestRejected`, with the
///   server's message redacted). Status 9 means the server no longer knows the registration that signed
///   the request: exactly that registration is forgotten (a newer one another caller just made is
///   kept), and the call is sent once more with a new one. A second status 9 right after registering is
///   `.warplyRegistrationInvalid`, never a loop.
///
/// The body status is read here only; a body without one is left to the caller's decoding (token
/// answers carry none).
struct WarplyAnswerRules: Sendable {
    let registrar: WarplyRegistrar

    var hooks: APIClient.Hooks {
        APIClient.Hooks(prepare: pin, interpret: interpret(_:to:redactor:))
    }

    /// Pins the current registration (registering first if there is none) to this pass.
    func pin(_ request: inout HTTPRequestMessage) async throws {
        request.options.signingCredential = try await registrar.registration().credential
    }

    func interpret(
        _ response: HTTPResponseMessage, to request: HTTPRequestMessage, redactor: Redactor
    ) async throws -> APIClient.Hooks.Verdict {
        guard response.isSuccess, let envelope = Self.statusEnvelope(of: response.body), let status = envelope.status,
              status != WarplyWire.Status.success
        else { return .accept }
        guard status == WarplyWire.Status.registrationInvalid else {
            return .fail(Self.refusal(
                operation: request.options.operationName, status: "status \(status)", message: envelope.message, redactor: redactor
            ))
        }
        if !request.options.isResend, let webID = request.options.signingCredential?.keyID {
            try await registrar.invalidate(webID: webID)
        }
        return .resend(otherwise: EngageError(
            .warplyRegistrationInvalid,
            "Warply refused the device registration again right after registering anew (status 9).", providerID: .warply,
            isRetryable: true,
            recoverySuggestion: "Check that appUUID belongs to this environment; try again later."
        ))
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

extension WarplyRegistration {
    /// The registration as the credential a request is signed with.
    var credential: SigningCredential { SigningCredential(keyID: webID, secret: apiKey) }
}
