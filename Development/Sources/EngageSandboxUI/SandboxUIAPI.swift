@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The UI's JSON API under `/_sandbox/api/`: requests (list, detail, live events, clear), fault
/// rules (list, add, remove), emulator state (read, reset) and the token lifetime limit.
struct SandboxUIAPI: Sendable {
    let host: SandboxHost
    let redactor: Redactor

    /// The most requests `GET /requests` returns (the newest).
    static let listLimit = 2_000

    func addRoutes(to api: RouterGroup<SandboxRequestContext>) {
        let host = host
        let redactor = redactor

        api.get("overview") { _, _ in
            let endpoints = host.endpoints
            let emulators = host.emulators.map { emulator in
                SandboxUIModels.Overview.Emulator(
                    id: emulator.id, baseURL: endpoints?.baseURL(for: emulator.id)?.absoluteString,
                    inspectable: emulator is any InspectableEmulator
                )
            }
            return try SandboxResponse.json(
                SandboxUIModels.Overview(emulators: emulators, tokenLifetimeLimitSeconds: Self.seconds(host.jwt.accessTokenLifetimeLimit)))
        }

        api.get("requests") { _, _ in
            let entries = host.journal.entries.suffix(Self.listLimit)
            return try SandboxResponse.json(entries.map { SandboxUIModels.RequestSummary($0, redactor: redactor) })
        }

        api.get("requests/:sequence") { request, context in
            guard let sequence = context.parameters.get("sequence").flatMap(Int.init), let entry = host.journal.entry(sequence: sequence)
            else {
                return try Self.problem(.notFound, "No such request (it may have been cleared).")
            }
            let reveal = request.uri.queryParameters.get("reveal") == "1"
            return try SandboxResponse.json(SandboxUIModels.detail(entry, redactor: redactor, reveal: reveal))
        }

        api.delete("requests") { _, _ in
            host.journal.clear()
            return Response(status: .noContent)
        }

        api.get("events") { _, _ in
            SandboxUIEvents.response(host: host, redactor: redactor)
        }

        api.get("faults") { _, _ in
            try SandboxResponse.json(host.faults.snapshots.map(SandboxUIFaults.rule))
        }

        api.post("faults") { request, context in
            let body: SandboxUIModels.NewFaultRule
            do {
                body = try await request.decode(as: SandboxUIModels.NewFaultRule.self, context: context)
            } catch {
                return try Self.problem(.badRequest, "The rule is not valid JSON of the documented shape.")
            }
            do {
                let rule = try SandboxUIFaults.rule(from: body, emulatorIDs: Set(host.emulators.map(\.id)))
                let id = host.faults.inject(rule)
                let created = host.faults.snapshots.first { $0.id == id }.map(SandboxUIFaults.rule)
                return try SandboxResponse.json(created, status: .created)
            } catch let problem as SandboxUIFaults.InvalidRule {
                return try Self.problem(.badRequest, problem.message)
            }
        }

        api.delete("faults") { _, _ in
            host.faults.removeAll()
            return Response(status: .noContent)
        }

        api.delete("faults/:id") { _, context in
            guard let raw = context.parameters.get("id").flatMap(Int.init),
                let snapshot = host.faults.snapshots.first(where: { $0.id.rawValue == raw })
            else {
                return try Self.problem(.notFound, "No such fault rule.")
            }
            host.faults.remove(snapshot.id)
            return Response(status: .noContent)
        }

        api.get("state/:emulator") { _, context in
            guard let emulator = Self.inspectable(context.parameters.get("emulator"), in: host) else {
                return try Self.problem(.notFound, "No emulator with that id shows its state.")
            }
            return try SandboxResponse.json(emulator.inspect())
        }

        api.post("state/:emulator/reset") { _, context in
            guard let emulator = Self.inspectable(context.parameters.get("emulator"), in: host) else {
                return try Self.problem(.notFound, "No emulator with that id can be reset.")
            }
            emulator.reset()
            return Response(status: .noContent)
        }

        api.get("tokens") { _, _ in
            try SandboxResponse.json(SandboxUIModels.Tokens(lifetimeLimitSeconds: Self.seconds(host.jwt.accessTokenLifetimeLimit)))
        }

        api.put("tokens") { request, context in
            guard let body = try? await request.decode(as: SandboxUIModels.Tokens.self, context: context) else {
                return try Self.problem(.badRequest, #"Send {"lifetimeLimitSeconds": N} or {"lifetimeLimitSeconds": null}."#)
            }
            if let seconds = body.lifetimeLimitSeconds, !(1...86_400).contains(seconds) {
                return try Self.problem(.badRequest, "lifetimeLimitSeconds must be between 1 and 86400, or null.")
            }
            host.jwt.setAccessTokenLifetimeLimit(body.lifetimeLimitSeconds.map { .seconds($0) })
            return try SandboxResponse.json(SandboxUIModels.Tokens(lifetimeLimitSeconds: Self.seconds(host.jwt.accessTokenLifetimeLimit)))
        }
    }

    static func inspectable(_ id: String?, in host: SandboxHost) -> (any InspectableEmulator)? {
        host.emulators.first { $0.id == id }.flatMap { $0 as? any InspectableEmulator }
    }

    static func seconds(_ duration: Duration?) -> Int? {
        duration.map { Int($0.components.seconds) }
    }

    static func problem(_ status: HTTPResponse.Status, _ message: String) throws -> Response {
        try SandboxResponse.json(SandboxUIModels.Problem(error: message), status: status)
    }
}
