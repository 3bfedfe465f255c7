@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

/// `URLSessionTransport` never leaves a caller waiting on URLSession alone: a cancelled call ends at
/// once, and a silent transfer is abandoned by its watchdog even when URLSession's own timer would
/// wait much longer. The server holds its answer on a ``SleepGate`` until the test releases it.
@Suite("URLSessionTransport: cancellation and stalled transfers", .bounded(deadline: .seconds(60)), .bounded)
struct TransportStallTests {
    private static func request(_ url: URL, timeout: Duration) -> HTTPRequestMessage {
        HTTPRequestMessage(head: HTTPRequest(method: .get, url: url), options: RequestOptions(timeout: timeout))
    }

    @Test("a transfer silent past its stall limit fails with .timeout while URLSession would still wait")
    func stalledTransferIsAbandoned() async throws {
        let gate = SleepGate()
        try await withSandbox(configuration: SandboxConfiguration(sleep: gate.sleep)) { host, endpoints in
            _ = host.faults.inject(FaultRule(.delay(.seconds(3600)), path: "/echo"))
            // URLSession's timer is set to 10 minutes; only the watchdog can end this call.
            let transport = URLSessionTransport(session: nil, defaultTimeout: .seconds(600), stallLimit: { _ in .milliseconds(300) })
            let url = try endpoints.reference("/echo?held=1")
            let error = await #expect(throws: EngageError.self) {
                try await transport.send(Self.request(url, timeout: .seconds(600)))
            }
            #expect(error?.code == .timeout)
            #expect(error?.isRetryable == true)
            #expect(error?.message.contains("No answer arrived") == true)
            gate.release()
        }
    }

    @Test("a transfer that keeps moving is not abandoned; a fast answer arrives unchanged")
    func movingTransferIsKept() async throws {
        try await withSandbox { _, endpoints in
            let transport = URLSessionTransport(session: nil, defaultTimeout: .seconds(30), stallLimit: { _ in .seconds(30) })
            let response = try await transport.send(Self.request(try endpoints.reference("/echo?probe=1"), timeout: .seconds(30)))
            #expect(response.head.status.code == 200)
            #expect(String(decoding: response.body, as: UTF8.self).contains("probe"))
        }
    }

    @Test("cancelling the caller ends the call with .cancelled while the server still holds its answer")
    func cancellationEndsTheCallAtOnce() async throws {
        let gate = SleepGate()
        try await withSandbox(configuration: SandboxConfiguration(sleep: gate.sleep)) { host, endpoints in
            _ = host.faults.inject(FaultRule(.delay(.seconds(3600)), path: "/echo"))
            // Neither URLSession's timer nor the watchdog ends this call within the test.
            let transport = URLSessionTransport(session: nil, defaultTimeout: .seconds(600), stallLimit: { $0 })
            let url = try endpoints.reference("/echo?held=1")
            let call = Task { try await transport.send(Self.request(url, timeout: .seconds(600))) }
            #expect(await gate.nextSleeper(timeout: .seconds(30)) != nil)  // the server holds the request
            call.cancel()
            let result = await call.result
            #expect(throws: EngageError.self) { try result.get() }
            if case .failure(let error as EngageError) = result { #expect(error.code == .cancelled) }
            gate.release()
        }
    }

    @Test("a call from an already cancelled task sends nothing")
    func cancelledBeforeStart() async throws {
        try await withSandbox { host, endpoints in
            let transport = URLSessionTransport()
            let url = try endpoints.reference("/echo?early=1")
            let call = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(Self.request(url, timeout: .seconds(30)))
            }
            let result = await call.result
            if case .failure(let error as EngageError) = result {
                #expect(error.code == .cancelled)
            } else {
                Issue.record("expected .cancelled, got \(result)")
            }
            #expect(host.journal.entries.isEmpty)
        }
    }

    @Test("the transport's own session and its delegate are released once the last copy of the transport is gone")
    func ownSessionIsReleased() async throws {
        weak var delegate: SizeLimitingSessionDelegate?
        try await withSandbox { _, endpoints in
            var transport: URLSessionTransport? = URLSessionTransport()
            delegate = transport?.limiter
            let copy = transport
            _ = try await copy?.send(Self.request(try endpoints.reference("/echo?before=1"), timeout: .seconds(30)))
            transport = nil
            #expect(delegate != nil, "a copy is still alive")
            _ = copy
        }
        var released = false
        for _ in 0..<500 where !released {
            released = delegate == nil
            if !released { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(released, "URLSession keeps its delegate until it is invalidated: one leaked session per transport")
    }
}
