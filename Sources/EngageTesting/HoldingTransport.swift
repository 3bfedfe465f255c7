@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// A transport that sends requests for real (through `URLSessionTransport`) and, once armed, holds back
/// the answer to the first request that matches until the test releases it: the backend has answered
/// by then, so the test can change the app's state (log out, reset, hand over a session) between the
/// answer and the moment the provider sees it.
///
/// ```swift
/// let transport = HoldingTransport(pathSuffix: "/users/me")
/// // … start the provider with `transport`, then:
/// transport.arm()
/// let load = Task { try await provider.profile() }
/// await transport.arrived.wait()   // answered, held
/// try await provider.logOut()
/// transport.release.open()
/// ```
@_spi(EngageProvider) public final class HoldingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let matches: @Sendable (HTTPRequestMessage) -> Bool
    /// `nil` until armed, then whether an answer was held.
    private let held = Locked<Bool?>(nil)
    /// Opened when the held answer has arrived.
    public let arrived = TestGate()
    /// Opened by the test to hand the held answer on.
    public let release = TestGate()

    /// Holds the answer to a request that `matches` (once armed); requests go through `base` (a
    /// `URLSessionTransport` with its own session by default).
    public init(
        wrapping base: any HTTPTransport = URLSessionTransport(), matching matches: @escaping @Sendable (HTTPRequestMessage) -> Bool
    ) {
        self.base = base
        self.matches = matches
    }

    /// Holds the answer to a request whose body contains `"<action>"` (a JSON string with that value).
    public convenience init(action: String) {
        let quoted = Data(#""\#(action)""#.utf8)
        self.init { $0.body?.range(of: quoted) != nil }
    }

    /// Holds the answer to a request to a path ending with `pathSuffix` (its query aside).
    public convenience init(wrapping base: any HTTPTransport = URLSessionTransport(), pathSuffix: String) {
        self.init(wrapping: base) { request in
            let path = (request.head.path ?? "").split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return path.hasSuffix(pathSuffix)
        }
    }

    /// Holds the next matching answer (the requests before pass straight through).
    public func arm() {
        held.withLock { $0 = false }
    }

    /// Whether an answer was held since ``arm()`` (it may have been released since).
    private var hasHeld: Bool {
        held.value == true
    }

    /// Arms the transport and runs `operation` until a run's matching answer is held, then returns
    /// that run once the answer has arrived (release it with ``release``). A run that joins work
    /// already in flight (a refresh whose request went out before) holds nothing: it is awaited and
    /// `operation` runs again.
    ///
    /// Each run is awaited on events, never on a clock: either its answer arrives and is held, or the
    /// run ends without one. A cancelled caller gets the last run back at once.
    public func holdAnswer(of operation: @escaping @Sendable () async -> Void) async -> Task<Void, Never> {
        arm()
        while true {
            let ended = TestGate()
            let run = Task {
                await operation()
                ended.open()
            }
            let held = await withTaskGroup(of: Bool.self) { group -> Bool in
                group.addTask {
                    await self.arrived.wait()
                    return true
                }
                group.addTask {
                    await ended.wait()
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            // A run that ended can still have had its answer held (the two finished together).
            if held || hasHeld || Task.isCancelled { return run }
        }
    }

    /// The base transport's timeouts.
    public var enforcesTimeouts: Bool { base.enforcesTimeouts }

    /// Sends `request`; holds its answer when it is the first match since ``arm()``.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        let response = try await base.send(request)
        let holds =
            matches(request)
            && held.withLock { held in
                guard held == false else { return false }
                held = true
                return true
            }
        if holds {
            arrived.open()
            await release.wait()
        }
        return response
    }
}
