@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

/// Owns the device registration (`web_id` and `api_key`): loads it from sealed storage, registers
/// when there is none (one registration however many callers need it at once), and forgets it when
/// the server says it is no longer valid (body status 9).
actor WarplyRegistrar {
    static let storageKey = "registration"

    private let client: APIClient
    private let appUUID: String
    private let storage: StorageNamespace
    private let logger: Logger
    private var cached: WarplyRegistration?
    private var loaded = false
    private let registrations = SingleFlight<WarplyRegistration>()
    /// Bumped by ``reset()``: a registration started before a reset is not kept.
    private var resets: UInt64 = 0
    private(set) var registrationCount = 0

    init(client: APIClient, appUUID: String, storage: StorageNamespace, logger: Logger) {
        self.client = client
        self.appUUID = appUUID
        self.storage = storage
        self.logger = logger
    }

    /// The current registration, registering first when there is none.
    func registration() async throws -> WarplyRegistration {
        if let cached = try loadIfNeeded() { return cached }
        return try await registrations.run { _ in try await self.performRegistration() }.task.value
    }

    /// The stored registration, without registering.
    func currentRegistration() throws -> WarplyRegistration? {
        try loadIfNeeded()
    }

    /// Forgets the registration whose `web_id` is `webID` (the server answered status 9 to a request
    /// signed with it). A newer registration is kept: concurrent callers that saw the same status 9
    /// re-register once, not once each.
    func invalidate(webID: String) throws {
        guard (try loadIfNeeded())?.webID == webID else { return }
        cached = nil
        try storage.removeValue(forKey: Self.storageKey)
        logger.info("Warply registration refused by the server; registering again")
    }

    /// Forgets the registration unconditionally. A registration in flight is not joined any more, and
    /// its answer (for the device as it was) is not kept: its callers get a retryable `.cancelled`.
    func reset() throws {
        resets &+= 1
        registrations.detach()
        cached = nil
        loaded = true
        try storage.removeValue(forKey: Self.storageKey)
    }

    private func loadIfNeeded() throws -> WarplyRegistration? {
        if !loaded {
            do {
                cached = try storage.sealedValue(WarplyRegistration.self, forKey: Self.storageKey)
            } catch let error as EngageError where error.code == .crypto || error.code == .decoding {
                // Unreadable (another key, tampered): register anew rather than fail forever.
                logger.warning(
                    "The stored Warply registration could not be opened; registering again", metadata: ["error": "\(error.code)"])
                cached = nil
                try? storage.removeValue(forKey: Self.storageKey)
            }
            loaded = true
        }
        return cached
    }

    private func performRegistration() async throws -> WarplyRegistration {
        let resetsAtStart = resets
        let answer = try await client.json(
            WarplyRegistrationResponse.self, .get, WarplyWire.path(.register, appUUID: appUUID),
            options: RequestOptions(authorization: .none, operation: WarplyOperation.registerDevice)
        )
        guard answer.status == WarplyWire.Status.success, let registration = answer.context else {
            throw EngageError(
                .warplyRequestRejected, "Warply refused to register this device (status \(answer.status)).", providerID: .warply,
                recoverySuggestion: "Check that appUUID is your application's UUID for this environment."
            )
        }
        guard resets == resetsAtStart else {
            throw EngageError(
                .cancelled, "The device was reset while it was registering.", providerID: .warply, isRetryable: true,
                recoverySuggestion: "Call the operation again: the device registers anew.")
        }
        try storage.setSealedValue(registration, forKey: Self.storageKey)
        cached = registration
        loaded = true
        registrationCount += 1
        logger.debug("Warply device registered")
        return registration
    }
}
