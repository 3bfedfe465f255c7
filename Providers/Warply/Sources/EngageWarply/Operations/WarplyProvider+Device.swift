@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

extension WarplyProvider {
    /// Sends the device's push token to Warply with the device's details (platform, OS version, model,
    /// app version, locale, time zone), and keeps the token (sealed) for the campaign pages' `fcm_token`.
    public func updateDeviceToken(_ deviceToken: String) async throws(EngageError) {
        try await context.perform(WarplyOperation.updateDeviceToken) {
            try WarplyInput.identifier(deviceToken, name: "deviceToken", limit: 4096)
            try context.storage.setSealedValue(deviceToken, forKey: Self.deviceTokenKey)
            pushToken.withLock { $0 = deviceToken }
            let fields = deviceInfo.fields(deviceID: deviceID, language: language.rawValue, deviceToken: deviceToken)
            try await client.status(
                .post, WarplyWire.path(.deviceInfo, appUUID: configuration.appUUID),
                body: .json(WarplyContextRequest(root: WarplyWire.Root.deviceInfo, action: WarplyWire.Action.updateToken, fields: fields)),
                credentials: .signed
            )
            try await rememberDeviceInfo(fields)
        }
    }

    /// The facade's `engage.setPushToken(_:)`: a token goes to Warply with ``updateDeviceToken(_:)``;
    /// `nil` forgets the stored token (Warply has no call to delete one: the campaign pages lose their
    /// `fcm_token`, and no new details carry it).
    @_spi(EngageProvider) public func setPushToken(_ token: String?) async throws {
        guard let token else {
            try await context.local {
                try context.storage.removeValue(forKey: Self.deviceTokenKey)
                pushToken.withLock { $0 = nil }
            }
            return
        }
        try await updateDeviceToken(token)
    }

    /// Sends the device's details (`update_device_info`) when this registration has not received
    /// them yet or they changed since (an app or OS update, a new push token, a new device id). Best
    /// effort: a failure is logged and the details go out at the next start.
    ///
    /// They are telemetry the app did not ask for: nothing is sent while the user has analytics off
    /// for Warply (`engage.setAnalyticsEnabled(false)`); they go out at the first start after it is
    /// turned back on. (``updateDeviceToken(_:)`` is the app's own request and always sends them.)
    func syncDeviceInfo() async {
        guard context.consent.isEnabled(for: .warply) else {
            logger.debug("Warply device information not sent: analytics is off")
            return
        }
        do {
            let fields = deviceInfo.fields(deviceID: deviceID, language: language.rawValue, deviceToken: deviceTokenValue)
            guard let digest = try await deviceInfoDigest(fields),
                try context.storage.value(String.self, forKey: Self.deviceInfoDigestKey) != digest
            else { return }
            try await client.status(
                .post, WarplyWire.path(.deviceInfo, appUUID: configuration.appUUID),
                body: .json(
                    WarplyContextRequest(root: WarplyWire.Root.deviceInfo, action: WarplyWire.Action.updateDeviceInfo, fields: fields)),
                credentials: .signed, operation: .sendDeviceInfo
            )
            try context.storage.setValue(digest, forKey: Self.deviceInfoDigestKey)
        } catch {
            logger.notice(
                "Warply device information not sent; it is sent at the next start",
                metadata: ["error": "\(EngageError.wrapping(error, providerID: .warply).code)"]
            )
        }
    }

    /// Records that Warply has `fields` for the current registration.
    private func rememberDeviceInfo(_ fields: [String: JSONValue]) async throws {
        if let digest = try await deviceInfoDigest(fields) { try context.storage.setValue(digest, forKey: Self.deviceInfoDigestKey) }
    }

    /// The digest of `fields` sent under the current web id (the merchant id, or the registration's);
    /// `nil` before a device that signs with a registration registered.
    private func deviceInfoDigest(_ fields: [String: JSONValue]) async throws -> String? {
        guard configuration.signing == .deviceRegistration else {
            return WarplyDeviceInfo.digest(webID: configuration.merchantID, fields: fields)
        }
        guard let registration = try await registrar.currentRegistration() else { return nil }
        return WarplyDeviceInfo.digest(webID: registration.webID, fields: fields)
    }

    /// Whether the last request reached Warply (the seed's `getNetworkStatus`: 1 connected, 0 not).
    public var networkStatus: WarplyNetworkStatus { networkStatusTracker.current }

    static let deviceTokenKey = "device_token"
    /// Where the digest of the device details Warply last received is kept (not secret: a hash).
    static let deviceInfoDigestKey = "device_info_digest"

    var deviceTokenValue: String? {
        if let token = pushToken.value { return token }
        return try? context.storage.sealedValue(String.self, forKey: Self.deviceTokenKey)
    }
}
