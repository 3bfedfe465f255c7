@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

extension WarplyProvider {
    /// Sends the device's push token (and platform details) to Warply, and keeps it (sealed) for the
    /// campaign pages' `fcm_token`.
    public func updateDeviceToken(_ deviceToken: String) async throws(EngageError) {
        try await context.perform("update_device_token") {
            try WarplyInput.identifier(deviceToken, name: "deviceToken", limit: 4096)
            try context.storage.setSealedValue(deviceToken, forKey: Self.deviceTokenKey)
            pushToken.withLock { $0 = deviceToken }
            let body = WarplyContextRequest(
                root: WarplyWire.Root.deviceInfo, action: WarplyWire.Action.updateToken,
                fields: [
                    "device_token": .string(deviceToken), "platform": .string(WarplyPlatformHeaders.platform),
                    "vendor": .string(WarplyPlatformHeaders.vendor), "os_version": .string(WarplyPlatformHeaders.osVersion),
                    "unique_device_id": .string(deviceID), "language": .string(language.rawValue),
                ])
            try await client.status(
                .post, WarplyWire.path(.deviceInfo, appUUID: configuration.appUUID), body: .json(body), credentials: .signed,
                operation: "update_device_token", repeatable: true
            )
        }
    }

    /// Whether the last request reached Warply (the seed's `getNetworkStatus`: 1 connected, 0 not).
    public var networkStatus: WarplyNetworkStatus { networkStatusTracker.current }

    static let deviceTokenKey = "device_token"

    var deviceTokenValue: String? {
        if let token = pushToken.value { return token }
        return try? context.storage.sealedValue(String.self, forKey: Self.deviceTokenKey)
    }
}
