@_spi(EngageProvider) import EngageCore
import Foundation

/// What the provider tells Warply about the device (`POST /api/async/info/{appUUID}/`, root
/// `device_info`): the seed's "comprehensive device info", sent after the device registers and with
/// every push token. One place for the field names, so the provider and the emulator agree.
package struct WarplyDeviceInfo: Sendable, Equatable {
    /// `ios`, `android`, `macos`, `linux`… (`platform`, as in the `platform` header).
    package var platform: String
    /// `apple` on Apple platforms, else `other` (`vendor`).
    package var vendor: String
    /// The operating system's version, `major.minor.patch` (`os_version`).
    package var osVersion: String
    /// The hardware model, e.g. `iPhone15,2` (`device_model`).
    package var deviceModel: String
    /// The app's bundle id (`bundle_id`).
    package var bundleID: String
    /// The app's marketing version (`app_version`), when its bundle says.
    package var appVersion: String?
    /// The app's build number (`app_build`), when its bundle says.
    package var appBuild: String?
    /// The version of the Warply SDK behaviour this provider follows (`sdk_version`).
    package var sdkVersion: String
    /// The device's locale identifier, e.g. `el_GR` (`locale`).
    package var locale: String
    /// The device's time zone identifier, e.g. `Europe/Athens` (`timezone`).
    package var timeZone: String

    /// The field names, for the emulator's checks: every one a string.
    package static let fieldNames: Set<String> = [
        "platform", "vendor", "os_version", "device_model", "bundle_id", "app_version", "app_build", "sdk_version", "locale", "timezone",
        "unique_device_id", "language", "device_token",
    ]
    /// The fields every body carries.
    package static let requiredFieldNames: Set<String> = ["platform", "vendor", "os_version", "unique_device_id", "language"]

    /// This device and app, as the system reports them.
    package static func current(bundleID: String, sdkVersion: String, bundle: Bundle = .main) -> WarplyDeviceInfo {
        func bundleString(_ key: String) -> String? {
            (bundle.object(forInfoDictionaryKey: key) as? String).flatMap { $0.isEmpty ? nil : String($0.prefix(64)) }
        }
        return WarplyDeviceInfo(
            platform: WarplyPlatformHeaders.platform, vendor: WarplyPlatformHeaders.vendor, osVersion: WarplyPlatformHeaders.osVersion,
            deviceModel: DevicePlatform.model, bundleID: bundleID, appVersion: bundleString("CFBundleShortVersionString"),
            appBuild: bundleString("CFBundleVersion"), sdkVersion: sdkVersion, locale: Locale.current.identifier,
            timeZone: TimeZone.current.identifier
        )
    }

    /// The body's fields besides `action`: these details, the device id, the language and, when known,
    /// the push token.
    package func fields(deviceID: String, language: String, deviceToken: String?) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "platform": .string(platform), "vendor": .string(vendor), "os_version": .string(osVersion),
            "device_model": .string(deviceModel), "bundle_id": .string(bundleID), "sdk_version": .string(sdkVersion),
            "locale": .string(locale), "timezone": .string(timeZone), "unique_device_id": .string(deviceID),
            "language": .string(language),
        ]
        if let appVersion { fields["app_version"] = .string(appVersion) }
        if let appBuild { fields["app_build"] = .string(appBuild) }
        if let deviceToken { fields["device_token"] = .string(deviceToken) }
        return fields
    }

    /// A digest of what was sent to the registration `webID` (hex SHA-256): the provider keeps it to
    /// send the details again only when they, or the registration, change. It reveals neither.
    package static func digest(webID: String, fields: [String: JSONValue]) -> String {
        var text = webID
        for key in fields.keys.sorted() {
            text += "\n\(key)=\(fields[key].map { "\($0)" } ?? "")"
        }
        return WarplyWire.sha256Hex(text)
    }
}
