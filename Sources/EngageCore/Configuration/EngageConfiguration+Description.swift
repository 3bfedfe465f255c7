import Foundation

/// Printing a configuration never shows a secret: provider sections are JSON, so a typed section
/// stored with `setProvider(_:_:)` (say, partner credentials) would otherwise print its password.
extension EngageConfiguration {
    /// The settings, with every provider section redacted (see `redactedProviders`).
    public var description: String {
        let sections = redactedProviders.sorted { $0.key < $1.key }.map { id, section in
            "\(id): \(Self.compactJSON(section))"
        }
        return "EngageConfiguration(appID: \(appID), preset: \(preset.rawValue), storage: \(storage), network: \(network), "
            + "auth: \(auth), analytics: \(analytics), logLevel: \(logLevel), providers: [\(sections.joined(separator: ", "))], "
            + "links: \(links))"
    }

    /// Reflection (`dump`, debuggers) shows the settings and the redacted provider sections.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "appID": appID, "preset": preset, "storage": storage, "network": network, "auth": auth, "analytics": analytics,
                "logLevel": logLevel, "providers": redactedProviders, "links": links,
            ],
            displayStyle: .struct
        )
    }

    /// The provider sections with secrets hidden: the value of every member whose key looks secret
    /// (see ``isSecretKey(_:)``), at any depth, becomes `"<redacted>"`, and strings elsewhere have
    /// secret-shaped text (JSON Web Tokens, bearer credentials, e-mail addresses, card numbers) masked.
    var redactedProviders: [String: JSONValue] {
        let redactor = Redactor()
        return providers.mapValues { Self.redacted($0, redactor: redactor) }
    }

    /// Whether a configuration key names a secret: one of the `Redactor`'s sensitive keys (`password`,
    /// `token`, `apiKey`, `email`…), or a key (compared lowercase, ignoring `_`, `-` and `.`) that contains
    /// `password`, `passwd`, `secret`, `token`, `credential`, `apikey` or `privatekey`, or ends in `key`.
    static func isSecretKey(_ key: String) -> Bool {
        if Redactor().isSensitive(key: key) { return true }
        let normalized = key.lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." }
        return normalized.hasSuffix("key") || secretKeyFragments.contains { normalized.contains($0) }
    }

    private static let secretKeyFragments = ["password", "passwd", "secret", "token", "credential", "apikey", "privatekey"]

    private static func redacted(_ value: JSONValue, redactor: Redactor) -> JSONValue {
        switch value {
        case let .object(members):
            var copy = [String: JSONValue](minimumCapacity: members.count)
            for (key, member) in members {
                copy[key] = isSecretKey(key) ? .string(Redactor.mask) : redacted(member, redactor: redactor)
            }
            return .object(copy)
        case let .array(elements):
            return .array(elements.map { redacted($0, redactor: redactor) })
        case let .string(text):
            return .string(redactor.redact(text: text))
        case .null, .bool, .integer, .number:
            return value
        }
    }

    private static func compactJSON(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "<unprintable>" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension EngageConfiguration: SecretBearing {}
