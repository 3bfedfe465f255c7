@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// Fault rules between the host's types and the API's JSON, with the API's checks.
enum SandboxUIFaults {
    struct InvalidRule: Error {
        var message: String
    }

    /// The methods a rule may name.
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    static func rule(_ snapshot: FaultRuleSnapshot) -> SandboxUIModels.FaultRule {
        SandboxUIModels.FaultRule(
            id: snapshot.id.rawValue, emulatorID: snapshot.rule.emulatorID, method: snapshot.rule.method, path: snapshot.rule.path,
            fault: shape(of: snapshot.rule.fault), trigger: shape(of: snapshot.rule.trigger), hits: snapshot.hits,
            remaining: snapshot.remaining, active: snapshot.isActive
        )
    }

    static func shape(of fault: Fault) -> SandboxUIModels.FaultShape {
        switch fault {
        case .status(let code, let body, let headers):
            SandboxUIModels.FaultShape(
                kind: "status", status: code, body: body.map { String(decoding: $0, as: UTF8.self) },
                headers: headers.isEmpty ? nil : headers
            )
        case .delay(let duration):
            SandboxUIModels.FaultShape(kind: "delay", milliseconds: Int(SandboxUIModels.milliseconds(duration)))
        case .malformedBody: SandboxUIModels.FaultShape(kind: "malformedBody")
        case .truncatedBody: SandboxUIModels.FaultShape(kind: "truncatedBody")
        case .trickle(let interval): SandboxUIModels.FaultShape(kind: "trickle", milliseconds: Int(SandboxUIModels.milliseconds(interval)))
        case .dropConnection: SandboxUIModels.FaultShape(kind: "dropConnection")
        case .dropConnectionAfterHandling: SandboxUIModels.FaultShape(kind: "dropConnectionAfterHandling")
        }
    }

    static func shape(of trigger: FaultTrigger) -> SandboxUIModels.TriggerShape {
        switch trigger {
        case .always: SandboxUIModels.TriggerShape(kind: "always")
        case .times(let count): SandboxUIModels.TriggerShape(kind: "times", count: count)
        case .probability(let value): SandboxUIModels.TriggerShape(kind: "probability", value: value)
        }
    }

    /// The host's rule for the API's `body`, or the reason it is refused.
    static func rule(from body: SandboxUIModels.NewFaultRule, emulatorIDs: Set<String>) throws(InvalidRule) -> FaultRule {
        let emulatorID = body.emulatorID.flatMap { $0.isEmpty ? nil : $0 }
        if let emulatorID, !emulatorIDs.contains(emulatorID) {
            throw InvalidRule(message: "This sandbox serves no emulator with that id.")
        }
        let method = body.method.flatMap { $0.isEmpty ? nil : $0.uppercased() }
        if let method, !methods.contains(method) {
            throw InvalidRule(message: "method must be one of \(methods.sorted().joined(separator: ", ")), or absent for any.")
        }
        let path = body.path.flatMap { $0.isEmpty ? nil : $0 }
        if let path, !path.hasPrefix("/") || path.count > 1_024 || path.contains(where: { $0.isWhitespace || $0 == "?" }) {
            throw InvalidRule(message: "path must start with / (a trailing * matches a prefix), without spaces or a query.")
        }
        return FaultRule(
            try fault(from: body.fault), emulatorID: emulatorID, method: method, path: path, trigger: try trigger(from: body.trigger))
    }

    static func fault(from shape: SandboxUIModels.FaultShape) throws(InvalidRule) -> Fault {
        switch shape.kind {
        case "status":
            guard let code = shape.status, (100...599).contains(code) else {
                throw InvalidRule(message: "A status fault needs status between 100 and 599.")
            }
            let headers = shape.headers ?? [:]
            guard headers.count <= 20, headers.allSatisfy({ !$0.key.isEmpty && $0.key.count <= 64 && $0.value.count <= 1_024 }) else {
                throw InvalidRule(message: "A status fault has at most 20 headers, with names up to 64 and values up to 1024 characters.")
            }
            guard (shape.body?.utf8.count ?? 0) <= 64 * 1_024 else {
                throw InvalidRule(message: "A status fault's body is at most 64 KiB.")
            }
            return .status(code, body: shape.body.map { Data($0.utf8) }, headers: headers)
        case "delay":
            guard let milliseconds = shape.milliseconds, (0...600_000).contains(milliseconds) else {
                throw InvalidRule(message: "A delay fault needs milliseconds between 0 and 600000.")
            }
            return .delay(.milliseconds(milliseconds))
        case "malformedBody": return .malformedBody
        case "truncatedBody": return .truncatedBody
        case "trickle":
            guard let milliseconds = shape.milliseconds, (1...600_000).contains(milliseconds) else {
                throw InvalidRule(message: "A trickle fault needs milliseconds (between bytes) between 1 and 600000.")
            }
            return .trickle(every: .milliseconds(milliseconds))
        case "dropConnection": return .dropConnection
        case "dropConnectionAfterHandling": return .dropConnectionAfterHandling
        default:
            throw InvalidRule(
                message:
                    "fault.kind must be status, delay, malformedBody, truncatedBody, trickle, dropConnection or dropConnectionAfterHandling."
            )
        }
    }

    static func trigger(from shape: SandboxUIModels.TriggerShape?) throws(InvalidRule) -> FaultTrigger {
        guard let shape else { return .always }
        switch shape.kind {
        case "always": return .always
        case "times":
            guard let count = shape.count, (1...1_000_000).contains(count) else {
                throw InvalidRule(message: "A times trigger needs count between 1 and 1000000.")
            }
            return .times(count)
        case "probability":
            guard let value = shape.value, value.isFinite, (0...1).contains(value) else {
                throw InvalidRule(message: "A probability trigger needs value between 0 and 1.")
            }
            return .probability(value)
        default:
            throw InvalidRule(message: "trigger.kind must be always, times or probability.")
        }
    }
}
