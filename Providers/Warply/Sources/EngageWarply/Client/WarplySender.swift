import EngageCore
import Foundation
import HTTPTypes

/// Sends requests to Warply and applies the rules every family shares: signed headers, the body
/// status check, and re-registration on body status 9.
///
/// Status 9 means the server no longer knows the device registration that signed the request: the
/// registration is forgotten, the device registers again, and the request is sent once more. A second
/// status 9 right after registering is an error (`.warplyRegistrationInvalid`), never a loop.
struct WarplySender: Sendable {
    /// Signed requests (standard families).
    let client: APIClient
    let registrar: WarplyRegistrar
    let appUUID: String
    let networkStatus: WarplyNetworkStatusTracker

    /// Sends a request built by `build` (called again for the resend) through `client`, returning the
    /// 2xx body. A body status 9 triggers one re-registration and one resend.
    func send(using client: APIClient? = nil, _ build: () throws -> HTTPRequestMessage) async throws -> Data {
        let client = client ?? self.client
        for attempt in 1...2 {
            let request = try build()
            let response: HTTPResponseMessage
            do {
                response = try await client.send(request)
                networkStatus.record(.connected)
            } catch let error as EngageError where error.code == .network || error.code == .timeout {
                networkStatus.record(.disconnected)
                throw error
            }
            try client.validate(response)
            guard Self.bodyStatus(of: response.body) == WarplyWire.Status.registrationInvalid else { return response.body }
            guard attempt == 1 else { break }
            if let webID = try await registrar.currentRegistration()?.webID {
                try await registrar.invalidate(webID: webID)
            }
        }
        throw EngageError(
            .warplyRegistrationInvalid,
            "Warply refused the device registration again right after registering anew (status 9).", providerID: .warply,
            isRetryable: true,
            recoverySuggestion: "Check that appUUID belongs to this environment; try again later."
        )
    }

    /// The body's `status` as a number, when the body is a JSON object with one.
    static func bodyStatus(of body: Data) -> Int? {
        guard !body.isEmpty, body.first == UInt8(ascii: "{") else { return nil }
        return (try? JSONDecoder().decode(WarplyStatusResponse.self, from: body))?.status
    }
}
