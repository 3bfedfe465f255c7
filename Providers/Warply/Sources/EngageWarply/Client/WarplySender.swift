import EngageCore
import Foundation
import HTTPTypes

/// Sends requests to Warply and applies the rules every family shares: signed headers, the body
/// status check, and re-registration on body status 9.
///
/// Status 9 means the server no longer knows the device registration that signed the request: that
/// registration is forgotten, the device registers again, and the request is sent once more. A second
/// status 9 right after registering is an error (`.warplyRegistrationInvalid`), never a loop.
///
/// Each attempt pins the registration it signs with (``WarplySigner/pinnedRegistration``), so a status 9
/// invalidates exactly the registration the server refused, never a newer one another caller just made.
/// The body is decoded once, by the caller's `interpret`, which also reads its status.
struct WarplySender: Sendable {
    /// Signed requests (standard families).
    let client: APIClient
    let registrar: WarplyRegistrar
    let appUUID: String
    let networkStatus: WarplyNetworkStatusTracker

    /// A decoded 2xx body and the body status it carries.
    struct Interpreted<Value> {
        var value: Value
        var status: Int?
    }

    /// Sends a request built by `build` (called again for the resend) through `client`, and returns the
    /// 2xx body decoded by `interpret`. A body status 9 triggers one re-registration and one resend.
    ///
    /// When `interpret` fails to decode the body, the body's status is read on its own: status 9 is
    /// handled as above, and any other status but success is reported as `.warplyRequestRejected`
    /// with the server's message (a refusal without the expected payload); otherwise the decoding
    /// error is thrown.
    func send<Value>(
        using client: APIClient? = nil, _ build: () throws -> HTTPRequestMessage, interpret: (Data) throws -> Interpreted<Value>
    ) async throws -> Value {
        let client = client ?? self.client
        for attempt in 1...2 {
            let request = try build()
            let registration: WarplyRegistration
            let response: HTTPResponseMessage
            do {
                registration = try await registrar.registration()
                response = try await WarplySigner.$pinnedRegistration.withValue(registration) {
                    try await client.send(request)
                }
                networkStatus.record(.connected)
            } catch let error as EngageError where error.code == .network || error.code == .timeout {
                networkStatus.record(.disconnected)
                throw error
            }
            try client.validate(response)
            // Past this block the body said status 9.
            do {
                let interpreted = try interpret(response.body)
                guard interpreted.status == WarplyWire.Status.registrationInvalid else { return interpreted.value }
            } catch let error as EngageError where error.code == .decoding {
                guard let envelope = Self.statusEnvelope(of: response.body), let bodyStatus = envelope.status,
                      bodyStatus != WarplyWire.Status.success
                else { throw error }
                guard bodyStatus == WarplyWire.Status.registrationInvalid else {
                    throw Self.refusal(envelope, status: bodyStatus, operation: request.options.operationName, underlying: error)
                }
            }
            guard attempt == 1 else { break }
            try await registrar.invalidate(webID: registration.webID)
        }
        throw EngageError(
            .warplyRegistrationInvalid,
            "Warply refused the device registration again right after registering anew (status 9).", providerID: .warply,
            isRetryable: true,
            recoverySuggestion: "Check that appUUID belongs to this environment; try again later."
        )
    }

    /// The body's `status` and `msg`, when the body is a JSON object.
    static func statusEnvelope(of body: Data) -> WarplyStatusResponse? {
        try? JSONDecoder().decode(WarplyStatusResponse.self, from: body)
    }

    private static func refusal(
        _ envelope: WarplyStatusResponse, status: Int, operation: String?, underlying: EngageError
    ) -> EngageError {
        let operation = operation ?? "the request"
        let detail = envelope.message.map { ": " + Redactor().redact(text: String($0.prefix(300))) } ?? "."
        return EngageError(
            .warplyRequestRejected, "Warply refused \(operation) (status \(status))\(detail)", providerID: .warply,
            underlyingError: underlying
        )
    }
}
