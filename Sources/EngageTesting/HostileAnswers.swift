@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// A transport for property tests of a provider's decoding against its emulator: it passes every
/// request on to a real transport and keeps the last answer of each path, and ``sweep(path:count:seed:operation:)``
/// runs an operation once for each hostile variation (``HostileJSON``) of that answer, served in its
/// place. The whole decoding path of the operation runs (the client's envelope checks, error mapping
/// and models), not one type in isolation.
///
/// ```swift
/// let answers = HostileAnswers()            // over URLSessionTransport()
/// // … start the registry with RegistryEnvironment(transport: answers) …
/// let outcomes = await answers.sweep(seed: 7) { try await provider.items() }
/// // the first run got the emulator's real answer; every later outcome is a value or an
/// // EngageError: the process is still here
/// ```
@_spi(EngageProvider) public final class HostileAnswers: HTTPTransport {
    private let base: any HTTPTransport
    private let state = Locked<State>(State())

    private struct State {
        /// The last 2xx answer body of each path.
        var answers: [String: Data] = [:]
        /// The path whose next answer is replaced, and the body that replaces it.
        var armed: (path: String, body: Data)?
        /// The path of the last 2xx answer.
        var lastPath: String?
    }

    /// Wraps `base` (a `URLSessionTransport` with its own session by default).
    @_spi(EngageProvider) public init(wrapping base: any HTTPTransport = URLSessionTransport()) {
        self.base = base
    }

    /// Whether `base` enforces timeouts itself.
    public var enforcesTimeouts: Bool { base.enforcesTimeouts }

    /// Sends through `base`; keeps a 2xx answer's body by path, or replaces it when the path is armed.
    @_spi(EngageProvider) public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        var response = try await base.send(request)
        let path = request.head.path.map { String($0.prefix { $0 != "?" }) } ?? "/"
        guard response.isSuccess else { return response }
        let replacement = state.withLock { state -> Data? in
            if let armed = state.armed, path.hasSuffix(armed.path) {
                state.armed = nil
                return armed.body
            }
            state.answers[path] = response.body
            state.lastPath = path
            return nil
        }
        if let replacement {
            response.body = replacement
            response.head.headerFields[.contentLength] = String(replacement.count)
        }
        return response
    }

    /// The last 2xx answer body of a request to `path`, or else of the first path (in sorted order)
    /// that ends with `path`, if one was seen.
    public func lastAnswer(path: String) -> Data? {
        state.withLock { state in
            state.answers[path] ?? state.answers.keys.sorted().first { $0.hasSuffix(path) }.flatMap { state.answers[$0] }
        }
    }

    /// Runs `operation` once for each of `count` hostile variations of the last answer to `path`
    /// (plus a too-deep and a truncated document), each served in place of the next 2xx answer to a
    /// request whose path ends with `path`, and returns the outcomes in order. Reaching the end is the
    /// property: no variation trapped.
    ///
    /// Without a `path`, `operation` first runs once as it is, and the path of the last answer it got
    /// is the one swept (for an operation that refreshes a token first, its own request's).
    ///
    /// - Returns: an empty list when there is no answer to vary (the first run failed, or `path` was
    ///   never answered).
    public func sweep<Value>(
        path: String? = nil, count: Int = 60, seed: UInt64, operation: () async throws(EngageError) -> Value
    ) async -> [Result<Value, EngageError>] {
        var swept = path
        if swept == nil {
            state.withLock { $0.lastPath = nil }
            guard (try? await operation()) != nil else { return [] }
            swept = state.withLock { $0.lastPath }
        }
        guard let swept, let answer = lastAnswer(path: swept) else { return [] }
        var outcomes: [Result<Value, EngageError>] = []
        for variation in HostileJSON.variations(of: answer, count: count, seed: seed) {
            state.withLock { $0.armed = (swept, variation) }
            do {
                outcomes.append(.success(try await operation()))
            } catch {
                outcomes.append(.failure(error))
            }
            state.withLock { $0.armed = nil }
        }
        return outcomes
    }
}
