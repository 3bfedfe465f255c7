@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// The JSON shapes of the UI's API (docs/sandbox.md lists them).
enum SandboxUIModels {
    struct Overview: Encodable {
        struct Emulator: Encodable {
            var id: String
            var baseURL: String?
            var inspectable: Bool
        }

        var emulators: [Emulator]
        var tokenLifetimeLimitSeconds: Int?
    }

    /// One request in the list.
    struct RequestSummary: Encodable {
        var sequence: Int
        var emulatorID: String
        var method: String
        var path: String
        var query: String?
        var status: Int?
        var durationMs: Double?
        var receivedAt: Date
        var fault: String?
    }

    struct Field: Encodable {
        var name: String
        var value: String
        var redacted: Bool
    }

    struct Body: Encodable {
        var text: String
        var contentType: String?
        var bytes: Int
        var isJSON: Bool
        var redacted: Bool
    }

    /// One request in full: its summary's fields, then headers, query items and body.
    struct RequestDetail: Encodable {
        var summary: RequestSummary
        var headers: [Field]
        var queryItems: [Field]
        var body: Body
        var redactedCount: Int
        var revealed: Bool

        enum CodingKeys: String, CodingKey {
            case headers, queryItems, body, redactedCount, revealed
        }

        /// The summary's keys and the detail's in one object.
        func encode(to encoder: any Encoder) throws {
            try summary.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(headers, forKey: .headers)
            try container.encode(queryItems, forKey: .queryItems)
            try container.encode(body, forKey: .body)
            try container.encode(redactedCount, forKey: .redactedCount)
            try container.encode(revealed, forKey: .revealed)
        }
    }

    /// A fault as the API writes and reads it.
    struct FaultShape: Codable, Equatable {
        var kind: String
        var status: Int?
        var body: String?
        var headers: [String: String]?
        var milliseconds: Int?
    }

    struct TriggerShape: Codable, Equatable {
        var kind: String
        var count: Int?
        var value: Double?
    }

    /// A rule as `GET /faults` lists it.
    struct FaultRule: Encodable {
        var id: Int
        var emulatorID: String?
        var method: String?
        var path: String?
        var fault: FaultShape
        var trigger: TriggerShape
        var hits: Int
        var remaining: Int?
        var active: Bool
    }

    /// The body of `POST /faults`.
    struct NewFaultRule: Decodable {
        var emulatorID: String?
        var method: String?
        var path: String?
        var fault: FaultShape
        var trigger: TriggerShape?
    }

    struct Tokens: Codable {
        var lifetimeLimitSeconds: Int?
    }

    struct Problem: Encodable {
        var error: String
    }
}

extension SandboxUIModels.RequestSummary {
    /// The summary of `entry`, with the path and query redacted like the SDK's logs.
    init(_ entry: JournalEntry, redactor: Redactor) {
        let query = entry.rawQuery.map { raw in
            let redacted = redactor.redactPath("/?" + raw)
            return String(redacted.dropFirst(2))
        }
        self.init(
            sequence: entry.sequence, emulatorID: entry.emulatorID, method: entry.method, path: redactor.redact(text: entry.path),
            query: query, status: entry.status, durationMs: entry.duration.map(SandboxUIModels.milliseconds), receivedAt: entry.receivedAt,
            fault: entry.fault.map(SandboxUIModels.describe)
        )
    }
}

extension SandboxUIModels {
    static func milliseconds(_ duration: Duration) -> Double {
        let components = duration.components
        let value = Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15
        return (value * 10).rounded() / 10
    }

    /// `status 503`, `delay 500 ms`, … for the list.
    static func describe(_ fault: Fault) -> String {
        switch fault {
        case .status(let code, _, _): "status \(code)"
        case .delay(let duration): "delay \(Int(milliseconds(duration))) ms"
        case .malformedBody: "malformed body"
        case .truncatedBody: "truncated body"
        case .trickle(let interval): "trickle a byte every \(Int(milliseconds(interval))) ms"
        case .dropConnection: "dropped connection"
        case .dropConnectionAfterHandling: "dropped after handling"
        }
    }

    /// The detail of `entry`: redacted by `redactor` unless `reveal`.
    static func detail(_ entry: JournalEntry, redactor: Redactor, reveal: Bool) -> RequestDetail {
        var summary = RequestSummary(entry, redactor: redactor)
        if reveal {
            summary.path = entry.path
            summary.query = entry.rawQuery
        }
        var redactions = 0
        let headers = entry.headers.map { field -> Field in
            guard !reveal else { return Field(name: field.name, value: field.value, redacted: false) }
            let value = redactor.isSensitive(header: field.name) ? Redactor.mask : redactor.redact(text: field.value)
            let redacted = value != field.value
            if redacted { redactions += 1 }
            return Field(name: field.name, value: value, redacted: redacted)
        }
        let queryItems = entry.queryItems.map { item -> Field in
            guard !reveal else { return Field(name: item.name, value: item.value, redacted: false) }
            let value = redactor.isSensitive(key: item.name) ? Redactor.mask : redactor.redact(text: item.value)
            let redacted = value != item.value
            if redacted { redactions += 1 }
            return Field(name: item.name, value: value, redacted: redacted)
        }
        let contentType = entry.header("content-type")
        let raw = entry.bodyText ?? "<\(entry.body.count) bytes of binary data>"
        let shown = reveal ? raw : (entry.bodyText == nil ? raw : redactor.redact(body: entry.body, contentType: contentType))
        let (text, isJSON) = prettyPrinted(shown)
        let bodyRedacted = !reveal && shown != raw && shown.contains(Redactor.mask)
        if bodyRedacted { redactions += shown.components(separatedBy: Redactor.mask).count - 1 }
        return RequestDetail(
            summary: summary, headers: headers, queryItems: queryItems,
            body: Body(text: text, contentType: contentType, bytes: entry.body.count, isJSON: isJSON, redacted: bodyRedacted),
            redactedCount: redactions, revealed: reveal
        )
    }

    /// `text` indented when it is JSON, else unchanged.
    static func prettyPrinted(_ text: String) -> (String, Bool) {
        guard !text.isEmpty, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]),
            let pretty = String(data: data, encoding: .utf8)
        else { return (text, false) }
        return (pretty, true)
    }
}
