@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("CallbackBridge", .bounded)
struct CallbackBridgeTests {
    @Test("completion runs once on the main actor with the value or the EngageError")
    func deliversOnMainActor() async throws {
        let model = ScreenModel()
        let success: Result<Int, EngageError> = await withCheckedContinuation { continuation in
            CallbackBridge.run(completion: { result in
                dispatchPrecondition(condition: .onQueue(.main))
                model.value = (try? result.get()) ?? -1  // main-actor state, no assumeIsolated
                continuation.resume(returning: result)
            }) { 42 }
        }
        #expect(try success.get() == 42)
        #expect(await model.value == 42)

        let failure: Result<Int, EngageError> = await withCheckedContinuation { continuation in
            CallbackBridge.run(providerID: "crobox", completion: { continuation.resume(returning: $0) }) {
                throw URLError(.notConnectedToInternet)
            }
        }
        guard case let .failure(error) = failure else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .network)
        #expect(error.providerID == "crobox")
    }

    @Test("completions arrive in the order their operations finished")
    func completionOrder() async {
        let order = Locked<[Int]>([])
        let gates = (0..<20).map { _ in TestGate() }
        let done = TestCounter()
        for index in 0..<20 {
            CallbackBridge.run(completion: { (result: Result<Int, EngageError>) in
                order.withLock { $0.append((try? result.get()) ?? -1) }
                done.increment()
            }) {
                await gates[index].wait()
                return index
            }
        }
        // Finish the operations in reverse order, each after the previous one's completion arrived.
        for index in (0..<20).reversed() {
            gates[index].open()
            #expect(await waitUntil { done.count == 20 - index })  // generous: the main queue is shared
        }
        #expect(order.value == Array((0..<20).reversed()))
    }

    @Test("an operation that completes is delivered even if the handle was cancelled meanwhile")
    func completionWinsOverLateCancel() async throws {
        let handle = Locked<(any EngageCancellable)?>(nil)
        let stored = TestGate()
        let result: Result<Int, EngageError> = await withCheckedContinuation { continuation in
            let cancellable = CallbackBridge.run(completion: { continuation.resume(returning: $0) }) {
                await stored.wait()
                // The work is done (say, a coupon was redeemed) when the app cancels.
                handle.value?.cancel()
                return 42
            }
            handle.withLock { $0 = cancellable }
            stored.open()
        }
        #expect(try result.get() == 42)
        #expect((handle.value as? TaskCancellable)?.isCancelled == true)
    }

    @Test("cancelling the returned handle before the operation completes delivers .cancelled")
    func cancellation() async {
        // Waits without blocking a thread: a semaphore here held one of the cooperative pool's threads
        // (two on a 2-core machine) until the operation started, which needs a thread of that pool.
        let started = TestGate()
        let handle = Locked<(any EngageCancellable)?>(nil)
        async let outcome: Result<Int, EngageError> = withCheckedContinuation { continuation in
            let cancellable = CallbackBridge.run(completion: { continuation.resume(returning: $0) }) {
                started.open()
                try await Task.sleep(for: .seconds(3600))
                return 1
            }
            handle.withLock { $0 = cancellable }
        }
        await started.wait()
        #expect(await waitUntil { handle.value != nil })
        handle.value?.cancel()
        let result = await outcome
        guard case let .failure(error) = result else {
            Issue.record("expected cancellation")
            return
        }
        #expect(error.code == .cancelled)
    }
}

/// Main-actor state of the kind a view model holds: set from completions without `assumeIsolated`.
@MainActor
private final class ScreenModel {
    var value = 0
}
