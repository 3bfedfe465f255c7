import Foundation

/// What the host does to a request that a ``FaultRule`` selected.
public enum Fault: Sendable, Hashable, Codable {
    /// Answers with this status, body and headers instead of calling the emulator, e.g.
    /// `.status(503, headers: ["Retry-After": "1"])`.
    case status(Int, body: Data? = nil, headers: [String: String] = [:])
    /// Waits this long (with the host's injectable sleep) and then lets the emulator answer normally.
    case delay(Duration)
    /// Answers 200 with `Content-Type: application/json` and a body that is not valid JSON, instead
    /// of calling the emulator.
    case malformedBody
    /// Lets the emulator answer, then sends its status and headers with a `Content-Length` larger than
    /// the bytes that follow (half of its body) and closes the connection: the client sees a
    /// truncated transfer. The emulator's side effects did happen.
    case truncatedBody
    /// Lets the emulator answer, then sends its status and headers at once and its body one byte at a
    /// time, waiting this long (with the host's injectable sleep) before each byte: a server that
    /// keeps a call alive without ever finishing it. The emulator's side effects did happen.
    case trickle(every: Duration)
    /// Closes the connection without any response and without calling the emulator.
    ///
    /// A client that reused a kept-alive connection may transparently resend a request whose
    /// connection died before any response byte (libcurl, under URLSession on Linux, does so once);
    /// the journal then shows both attempts, and each consumes a `.times` count.
    case dropConnection
    /// Lets the emulator handle the request (its side effects happen), then closes the connection
    /// without any response: the case of a request that reached the server but whose answer was lost.
    case dropConnectionAfterHandling

    /// `503 Service Unavailable` with `Retry-After: seconds`.
    public static func serviceUnavailable(retryAfter seconds: Int) -> Fault {
        .status(503, headers: ["Retry-After": String(seconds)])
    }

    /// `429 Too Many Requests` with `Retry-After: seconds`.
    public static func tooManyRequests(retryAfter seconds: Int) -> Fault {
        .status(429, headers: ["Retry-After": String(seconds)])
    }
}
