@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// Signs every Warply request with the device registration: `loyalty-web-id`, `loyalty-date` (Unix
/// seconds) and `loyalty-signature = hex(sha256(api_key + loyalty-date))`.
///
/// It signs with the current registration, registering first when there is none. When the server
/// refuses it (status 9, read by ``WarplyAnswerRules``), ``renewKey(after:)`` forgets the registration
/// named by the refused request's own `loyalty-web-id`, so the answer is traced to exactly the
/// registration that signed it.
struct WarplySigner: RequestSigner {
    let registrar: WarplyRegistrar

    func signatureHeaders(for request: HTTPRequestMessage, at date: Date) async throws -> HTTPFields {
        try await Self.headers(registration: registrar.registration(), date: date)
    }

    /// Forgets the registration that signed the refused request; the resend registers anew.
    func renewKey(after rejection: CredentialRejection) async throws -> Bool {
        guard let webID = rejection.request.head.headerFields[Self.field(WarplyWire.Header.webID)] else { return false }
        try await registrar.invalidate(webID: webID)
        return true
    }

    static func headers(registration: WarplyRegistration, date: Date) -> HTTPFields {
        let dateText = String(Int64(date.timeIntervalSince1970.rounded(.down)))
        var fields = HTTPFields()
        fields[field(WarplyWire.Header.webID)] = registration.webID
        fields[field(WarplyWire.Header.date)] = dateText
        fields[field(WarplyWire.Header.signature)] = WarplyWire.signature(apiKey: registration.apiKey, date: dateText)
        return fields
    }

    static func field(_ name: String) -> HTTPField.Name {
        // The names in WarplyWire.Header are valid header tokens.
        HTTPField.Name(name) ?? .accept
    }
}

/// The platform headers sent with every request.
enum WarplyPlatformHeaders {
    /// The fixed headers; `unique-device-id` is added per request (it changes on reset).
    static func fields(bundleID: String) -> HTTPFields {
        var fields = HTTPFields()
        fields[WarplySigner.field(WarplyWire.Header.channel)] = "mobile"
        fields[WarplySigner.field(WarplyWire.Header.bundleID)] = "\(platform):\(bundleID)"
        fields[WarplySigner.field(WarplyWire.Header.vendor)] = vendor
        fields[WarplySigner.field(WarplyWire.Header.platform)] = platform
        fields[WarplySigner.field(WarplyWire.Header.osVersion)] = osVersion
        return fields
    }

    static var platform: String { DevicePlatform.name }

    static var vendor: String {
        #if canImport(Darwin)
            "apple"
        #else
            "other"
        #endif
    }

    static var osVersion: String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
    }
}
