import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The host's middleware in front of every route: it finds the emulator a request is addressed to,
/// enforces the body size limit, applies injected faults and records the request in the journal.
/// Requests outside every emulator prefix pass through untouched (and are not journaled).
struct SandboxMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let emulatorIDs: Set<String>
    let journal: RequestJournal
    let faults: FaultInjector
    let maxBodySize: Int
    let now: @Sendable () -> Date
    let sleep: @Sendable (Duration) async throws -> Void
    let logger: Logger

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let (emulatorID, path) = Self.split(request.uri.path, emulatorIDs: emulatorIDs) else {
            return try await next(request, context)
        }
        let started = ContinuousClock.now
        var context = context
        context.emulatorID = emulatorID
        context.maxBodySize = maxBodySize
        var request = request
        var entry = makeEntry(for: request, emulatorID: emulatorID, path: path)

        if let announced = request.headers[.contentLength].flatMap({ Int($0) }), announced > maxBodySize {
            return record(entry, started: started, response: tooLarge())
        }
        do {
            let buffer = try await request.collectBody(upTo: maxBodySize)
            entry.body = Data(buffer.readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            return record(entry, started: started, response: tooLarge())
        }

        let fault = faults.nextFault(emulatorID: emulatorID, method: entry.method, path: path)
        entry.fault = fault
        return try await apply(fault, entry: entry, started: started, request: request, context: context, next: next)
    }

    /// Calls the emulator, turning Hummingbird's HTTP errors into the responses they stand for so the
    /// journal sees the real status.
    func callEmulator(
        _ request: Request, context: Context, entry: JournalEntry, started: ContinuousClock.Instant,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        } catch {
            var failed = entry
            failed.status = 500
            failed.duration = .now - started
            journal.record(failed)
            throw error
        }
    }

    /// Records `entry` with the status of `response` and the time since `started`, and returns the
    /// response.
    func record(_ entry: JournalEntry, started: ContinuousClock.Instant, response: Response) -> Response {
        var entry = entry
        entry.status = Int(response.status.code)
        entry.duration = .now - started
        log(journal.record(entry))
        return response
    }

    /// Records `entry` as answered with no response at all.
    func recordNoResponse(_ entry: JournalEntry, started: ContinuousClock.Instant) {
        var entry = entry
        entry.status = nil
        entry.duration = .now - started
        log(journal.record(entry))
    }

    private func log(_ entry: JournalEntry) {
        logger.debug("\(entry.redactedDescription)")
    }

    private func tooLarge() -> Response {
        SandboxResponse.error(
            .contentTooLarge, code: "request_too_large",
            description: "The request body exceeds \(maxBodySize) bytes."
        )
    }

    private func makeEntry(for request: Request, emulatorID: String, path: String) -> JournalEntry {
        let rawQuery = request.uri.query
        return JournalEntry(
            sequence: 0,
            emulatorID: emulatorID,
            method: request.method.rawValue,
            path: path,
            rawQuery: rawQuery,
            queryItems: rawQuery.map(QueryString.decode) ?? [],
            headers: request.headers.map { HeaderField(name: $0.name.rawName, value: $0.value) },
            body: Data(),
            receivedAt: now(),
            status: nil,
            fault: nil
        )
    }

    /// Splits `/<id>/rest` into the emulator id and `/rest` (`/` when there is no rest), or returns
    /// `nil` when the first segment is not a served emulator.
    static func split(_ path: String, emulatorIDs: Set<String>) -> (String, String)? {
        guard path.hasPrefix("/") else { return nil }
        let afterSlash = path.dropFirst()
        let segmentEnd = afterSlash.firstIndex(of: "/") ?? afterSlash.endIndex
        let id = String(afterSlash[..<segmentEnd])
        guard emulatorIDs.contains(id) else { return nil }
        let rest = afterSlash[segmentEnd...]
        return (id, rest.isEmpty ? "/" : String(rest))
    }
}
