@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// Signs every Warply request: `loyalty-web-id`, `loyalty-date` (Unix seconds) and
/// `loyalty-signature = hex(sha256(api_key + loyalty-date))`.
///
/// With ``WarplyConfiguration/Signing-swift.enum/merchant`` signing (the official iOS SDK's), the web id is
/// the configured merchant id and the API key is empty: nothing is registered and nothing can be
/// renewed. With ``WarplyConfiguration/Signing-swift.enum/deviceRegistration`` it signs with the current
/// registration, registering first when there is none; when the server refuses it (status 9, read by
/// ``WarplyAnswerRules``), ``renewKey(after:)`` forgets the registration named by the refused request's
/// own `loyalty-web-id`, so the answer is traced to exactly the registration that signed it.
struct WarplySigner: RequestSigner {
    let signing: WarplyConfiguration.Signing
    let merchantID: String
    let registrar: WarplyRegistrar

    func signatureHeaders(for request: HTTPRequestMessage, at date: Date) async throws -> HTTPFields {
        switch signing {
        case .merchant:
            return Self.headers(webID: merchantID, apiKey: "", date: date)
        case .deviceRegistration:
            let registration = try await registrar.registration()
            return Self.headers(webID: registration.webID, apiKey: registration.apiKey, date: date)
        }
    }

    /// Forgets the registration that signed the refused request, so that the resend registers anew;
    /// `false` with merchant signing, which has no key to renew.
    func renewKey(after rejection: CredentialRejection) async throws -> Bool {
        guard signing == .deviceRegistration,
            let webID = rejection.request.head.headerFields[Self.field(WarplyWire.Header.webID)]
        else { return false }
        try await registrar.invalidate(webID: webID)
        return true
    }

    static func headers(webID: String, apiKey: String, date: Date) -> HTTPFields {
        let dateText = String(Int64(date.timeIntervalSince1970.rounded(.down)))
        var fields = HTTPFields()
        fields[field(WarplyWire.Header.webID)] = webID
        fields[field(WarplyWire.Header.date)] = dateText
        fields[field(WarplyWire.Header.signature)] = WarplyWire.signature(apiKey: apiKey, date: dateText)
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
