@_spi(EngageProvider) import EngageCore
import Foundation

/// A context-form response: `{"status":"1","context":{"MAPP_X":{"result":<payload>},"MAPP_X-status":1}}`.
///
/// The backend wraps every context payload in a named section. Decoding reads the section named in
/// the decoder's `userInfo` (use ``decode(_:section:)``) and also accepts the flattened form the old
/// SDK produced (`{"status":1,"MAPP_X":{...},"MAPP_X-status":1}`). Encoding writes the context form,
/// `status` as a string and the section status as a number, as the server does.
package struct WarplyContextResponse<Payload: Codable & Sendable>: Codable, Sendable {
    /// The body status (1 = success, 9 = unknown registration).
    package var status: Int
    /// The server's message, if any.
    package var message: String?
    /// The section name, e.g. `MAPP_CAMPAIGNING`.
    package var section: String
    /// The section's own status (`MAPP_X-status`), if sent.
    package var sectionStatus: Int?
    /// The section's `result`, if sent.
    package var result: Payload?
    /// `status` as the body sent it: `nil` when it had none (``status`` then reads 0).
    var sentStatus: Int?

    /// A response carrying `result` in `section`.
    package init(status: Int = 1, section: String, sectionStatus: Int? = 1, result: Payload?, message: String? = nil) {
        self.status = status
        self.sentStatus = status
        self.section = section
        self.sectionStatus = sectionStatus
        self.result = result
        self.message = message
    }

    /// The `userInfo` key holding the section name to decode.
    package static var sectionKey: CodingUserInfoKey { warplySectionUserInfoKey }

    /// Decodes `data`, reading `section`.
    package static func decode(_ data: Data, section: String) throws -> Self {
        let decoder = JSONDecoder()
        decoder.userInfo[sectionKey] = section
        return try decoder.decode(Self.self, from: data)
    }

    /// Decodes either form, reading the section named in `userInfo[sectionKey]`.
    ///
    /// A `context` or a section that is not an object (the backend sends `[]` for an empty object) reads
    /// as empty: no section status and no result. Throws when no section name was given, when the body
    /// is not an object, or when the section's `result` does not decode as `Payload`.
    package init(from decoder: any Decoder) throws {
        guard let section = decoder.userInfo[Self.sectionKey] as? String else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "No Warply section name was given to the decoder."))
        }
        let root = try decoder.container(keyedBy: AnyKey.self)
        self.section = section
        sentStatus = try root.looseInt(forKey: AnyKey("status"))
        status = sentStatus ?? 0
        message = try? root.looseString(forKey: AnyKey("msg"))
        // The context form nests the section; the flattened form (no or a null `context`) has it at the top.
        let holder: KeyedDecodingContainer<AnyKey>?
        if root.contains(AnyKey("context")), try !root.decodeNil(forKey: AnyKey("context")) {
            holder = try Self.object(AnyKey("context"), in: root)
        } else {
            holder = root
        }
        sectionStatus = try holder?.looseInt(forKey: AnyKey(WarplyWire.Section.statusKey(section)))
        if let holder, let body = try Self.object(AnyKey(section), in: holder) {
            result = try body.decodeIfPresent(Payload.self, forKey: AnyKey("result"))
            if message == nil { message = try? body.looseString(forKey: AnyKey("msg")) }
        } else {
            result = nil
        }
    }

    /// The object under `key`; `nil` when the key is absent, `null`, or holds anything but an object
    /// (`[]` included).
    private static func object(_ key: AnyKey, in container: KeyedDecodingContainer<AnyKey>) throws -> KeyedDecodingContainer<AnyKey>? {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        do {
            return try container.nestedContainer(keyedBy: AnyKey.self, forKey: key)
        } catch DecodingError.typeMismatch {
            return nil
        }
    }

    /// Encodes the context form: `status` as a string, the section with its `result`, and the section
    /// status as a number.
    package func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: AnyKey.self)
        try root.encode(String(status), forKey: AnyKey("status"))
        try root.encodeIfPresent(message, forKey: AnyKey("msg"))
        var context = root.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("context"))
        var body = context.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(section))
        try body.encodeIfPresent(result, forKey: AnyKey("result"))
        try context.encodeIfPresent(sectionStatus, forKey: AnyKey(WarplyWire.Section.statusKey(section)))
    }
}

/// A result-form response: `{"status":1,"msg":"...","result":<payload>}` (user management, partner
/// logins, sessions).
package struct WarplyResultResponse<Payload: Codable & Sendable>: Codable, Sendable {
    /// The body status (1 = success).
    package var status: Int
    /// The server's message, if any.
    package var message: String?
    /// The payload, if any.
    package var result: Payload?
    /// `status` as the body sent it: `nil` when it had none (``status`` then reads 0).
    var sentStatus: Int?

    /// A response carrying `result`.
    package init(status: Int = 1, result: Payload?, message: String? = nil) {
        self.status = status
        self.sentStatus = status
        self.result = result
        self.message = message
    }

    enum CodingKeys: String, CodingKey {
        case status, message = "msg", result
    }

    /// Decodes the result form: `status` (string or number, 0 when missing), `msg` and `result`.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sentStatus = try container.looseInt(forKey: .status)
        status = sentStatus ?? 0
        message = try? container.looseString(forKey: .message)
        result = try container.decodeIfPresent(Payload.self, forKey: .result)
    }
}

/// A response with no payload of interest: only its status and message are read.
package struct WarplyStatusResponse: Codable, Sendable, Hashable {
    /// The body status, if sent.
    package var status: Int?
    /// The server's message, if any.
    package var message: String?

    /// A response with `status`.
    package init(status: Int?, message: String? = nil) {
        self.status = status
        self.message = message
    }

    enum CodingKeys: String, CodingKey {
        case status, message = "msg"
    }

    /// Decodes `status` and `msg` leniently: a missing or unreadable value is `nil`.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try? container.looseInt(forKey: .status)
        message = try? container.looseString(forKey: .message)
    }
}

/// A coding key made at run time.
struct AnyKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// The seed's context-response flattening, for callers that read responses generically.
package enum WarplyContextFlattening {
    /// `{"status":"1","context":{"MAPP_X":{...},"MAPP_X-status":1}}` becomes
    /// `{"status":1,"MAPP_X":{...},"MAPP_X-status":1}`: the context's entries move to the top level
    /// (where they win over top-level keys of the same name) and a numeric-string `status` becomes a
    /// number. Bodies without a `context` object are returned with only `status` normalised (a `context`
    /// that is not an object, e.g. `[]` or a string, is kept as it is). Throws
    /// `.decoding` when the body is not a JSON object.
    package static func flatten(_ data: Data) throws(EngageError) -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw EngageError(.decoding, "The Warply response is not JSON.", providerID: .warply, underlyingError: error)
        }
        guard case var .object(object) = value else {
            throw EngageError(.decoding, "The Warply response is not a JSON object.", providerID: .warply)
        }
        if case let .object(context)? = object["context"] {
            object.removeValue(forKey: "context")
            object.merge(context) { _, contextValue in contextValue }
        }
        if case let .string(text)? = object["status"], let number = Int64(text.trimmingCharacters(in: .whitespaces)) {
            object["status"] = .integer(number)
        }
        return object
    }
}

/// The `userInfo` key naming the section a ``WarplyContextResponse`` decodes.
let warplySectionUserInfoKey: CodingUserInfoKey = {
    // `CodingUserInfoKey(rawValue:)` is failable in signature only: it accepts every string.
    guard let key = CodingUserInfoKey(rawValue: "warply.section") else { preconditionFailure("CodingUserInfoKey refused a raw value") }
    return key
}()
