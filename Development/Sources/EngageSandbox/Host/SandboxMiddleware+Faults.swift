import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension SandboxMiddleware {
    /// Thrown from a response body writer to cut a response short; the server then closes the
    /// connection.
    struct TruncatedResponse: Error {}

    /// The body of a `.malformedBody` fault: announced as JSON, but not JSON.
    static let malformedJSON = Data(#"{"data": [{"id": 1, "name": "unterminated"#.utf8)

    func apply(
        _ fault: Fault?, entry: JournalEntry, started: ContinuousClock.Instant, request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        switch fault {
        case nil:
            return record(
                entry, started: started,
                response: try await callEmulator(request, context: context, entry: entry, started: started, next: next))

        case .delay(let duration):
            try await sleep(duration)
            return record(
                entry, started: started,
                response: try await callEmulator(request, context: context, entry: entry, started: started, next: next))

        case .status(let code, let body, let headers):
            return record(entry, started: started, response: Self.statusResponse(code: code, body: body, headers: headers))

        case .malformedBody:
            return record(entry, started: started, response: SandboxResponse.raw(Self.malformedJSON))

        case .truncatedBody:
            let response = try await callEmulator(request, context: context, entry: entry, started: started, next: next)
            return record(entry, started: started, response: try await Self.truncate(response))

        case .trickle(let interval):
            let response = try await callEmulator(request, context: context, entry: entry, started: started, next: next)
            return record(entry, started: started, response: try await trickle(response, every: interval))

        case .dropConnection:
            recordNoResponse(entry, started: started)
            return await Self.drop(context)

        case .dropConnectionAfterHandling:
            _ = try await callEmulator(request, context: context, entry: entry, started: started, next: next)
            recordNoResponse(entry, started: started)
            return await Self.drop(context)
        }
    }

    /// A response for a `.status` fault; an out-of-range code becomes 500.
    static func statusResponse(code: Int, body: Data?, headers: [String: String]) -> Response {
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        let status = HTTPResponse.Status(code: (100...599).contains(code) ? code : 500)
        let responseBody = body.map { ResponseBody(byteBuffer: ByteBuffer(bytes: $0)) } ?? ResponseBody()
        return Response(status: status, headers: fields, body: responseBody)
    }

    /// Rewrites `response` to announce its full length but send only half of it, then fail the
    /// write so that the server closes the connection mid-body.
    static func truncate(_ response: Response) async throws -> Response {
        var bytes = try await collect(response.body)
        if bytes.count < 2 {
            bytes = Array(#"{"truncated": true}"#.utf8)
        }
        let sent = Array(bytes.prefix(bytes.count / 2))
        var headers = response.headers
        headers[.contentLength] = nil
        headers[.transferEncoding] = nil
        let body = ResponseBody(contentLength: bytes.count) { writer in
            try await writer.write(ByteBuffer(bytes: sent))
            throw TruncatedResponse()
        }
        return Response(status: response.status, headers: headers, body: body)
    }

    /// Rewrites `response` to send its body one byte at a time, sleeping `interval` before each.
    func trickle(_ response: Response, every interval: Duration) async throws -> Response {
        let bytes = try await Self.collect(response.body)
        var headers = response.headers
        headers[.contentLength] = nil
        headers[.transferEncoding] = nil
        let sleep = self.sleep
        let body = ResponseBody(contentLength: bytes.count) { writer in
            for byte in bytes {
                try await sleep(interval)
                try await writer.write(ByteBuffer(bytes: [byte]))
            }
        }
        return Response(status: response.status, headers: headers, body: body)
    }

    /// Closes the connection; the response returned afterwards cannot be written, so the client
    /// gets no response at all.
    static func drop(_ context: Context) async -> Response {
        try? await context.channel.close()
        return Response(status: .internalServerError)
    }

    /// Collects a response body into bytes.
    static func collect(_ body: ResponseBody) async throws -> [UInt8] {
        let collector = CollectingBodyWriter()
        try await body.write(collector)
        return collector.bytes
    }
}
