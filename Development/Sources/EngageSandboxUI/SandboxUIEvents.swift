@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /_sandbox/api/events`: server-sent events, so the page updates as requests arrive without
/// polling. `request` carries a recorded request's summary, `faults` the whole rule list after any
/// change (added, removed, fired), `cleared` says the journal was emptied. The stream ends when the
/// browser goes away or the host stops.
enum SandboxUIEvents {
    /// Messages kept for a browser that reads slowly; older ones are dropped (it resyncs on reconnect).
    static let buffered = 2_000

    static func response(host: SandboxHost, redactor: Redactor) -> Response {
        // Subscribed before answering: nothing recorded after the browser saw the stream open is missed.
        let updates = host.journal.updates()
        let changes = host.faults.changes()
        let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingNewest(buffered))
        continuation.yield(ByteBuffer(string: "retry: 2000\n: connected\n\n"))
        let journalTask = Task {
            for await update in updates {
                switch update {
                case .recorded(let entry):
                    continuation.yield(message("request", SandboxUIModels.RequestSummary(entry, redactor: redactor)))
                case .cleared:
                    continuation.yield(ByteBuffer(string: "event: cleared\ndata: {}\n\n"))
                }
            }
            continuation.finish()
        }
        let faultTask = Task {
            for await _ in changes {
                continuation.yield(message("faults", host.faults.snapshots.map(SandboxUIFaults.rule)))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            journalTask.cancel()
            faultTask.cancel()
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(asyncSequence: stream))
    }

    /// One event: `event: <name>` and its JSON on one `data:` line (JSON text has no raw newlines).
    static func message(_ name: String, _ value: some Encodable) -> ByteBuffer {
        let json = (try? SandboxResponse.makeEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        return ByteBuffer(string: "event: \(name)\ndata: \(json)\n\n")
    }
}
