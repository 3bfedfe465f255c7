import EngageCore
import EngageTesting
import Foundation
import HTTPTypes

/// An unsigned JWT whose `exp` is `expiry` (the client never verifies signatures).
func makeJWT(expiresAt expiry: Date, subject: String = "user-1") -> String {
    let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8).base64URLEncodedString()
    let payload = Data(#"{"sub":"\#(subject)","exp":\#(Int(expiry.timeIntervalSince1970))}"#.utf8).base64URLEncodedString()
    return "\(header).\(payload).c2lnbmF0dXJl"
}

/// A counter safe to bump from many tasks.
final class Counter: Sendable {
    private let value = Locked(0)
    @discardableResult
    func increment() -> Int { value.withLock { $0 += 1; return $0 } }
    var count: Int { value.value }
}

/// A one-shot gate: tasks wait until `open()` is called.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

extension HTTPRequestMessage {
    static func get(_ path: String, authorization: RequestOptions.Authorization = .ifAvailable) -> HTTPRequestMessage {
        HTTPRequestMessage(
            head: HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: path),
            options: RequestOptions(authorization: authorization)
        )
    }

    static func post(_ path: String, body: String = "{}") -> HTTPRequestMessage {
        HTTPRequestMessage(
            head: HTTPRequest(method: .post, scheme: "https", authority: "api.example.com", path: path),
            body: Data(body.utf8)
        )
    }

    var bearerToken: String? {
        head.headerFields[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
    }
}

/// Whether `body` throws an `EngageError` with `code`; any other error is rethrown, no error is `false`.
func throwsCode(_ code: EngageError.Code, _ body: () throws -> Void) throws -> Bool {
    do {
        try body()
        return false
    } catch let error as EngageError {
        return error.code == code
    }
}
