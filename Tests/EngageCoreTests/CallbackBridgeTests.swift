import EngageCore
import EngageTesting
import Foundation
import Testing

@Suite("CallbackBridge")
struct CallbackBridgeTests {
    let queue = DispatchQueue(label: "callback-tests")

    @Test("completion runs once on the callback queue with the value or the EngageError")
    func deliversOnQueue() async throws {
        let success: Result<Int, EngageError> = await withCheckedContinuation { continuation in
            CallbackBridge.run(on: .queue(queue), completion: { result in
                dispatchPrecondition(condition: .onQueue(queue))
                continuation.resume(returning: result)
            }) { 42 }
        }
        #expect(try success.get() == 42)

        let failure: Result<Int, EngageError> = await withCheckedContinuation { continuation in
            CallbackBridge.run(on: .queue(queue), providerID: "crobox", completion: { continuation.resume(returning: $0) }) {
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

    @Test("an operation that completes is delivered even if the handle was cancelled meanwhile")
    func completionWinsOverLateCancel() async throws {
        let handle = Locked<(any EngageCancellable)?>(nil)
        let stored = TestGate()
        let result: Result<Int, EngageError> = await withCheckedContinuation { continuation in
            let cancellable = CallbackBridge.run(on: .queue(queue), completion: { continuation.resume(returning: $0) }) {
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
        let started = DispatchSemaphore(value: 0)
        let result: Result<Int, EngageError> = await withCheckedContinuation { continuation in
            let handle = CallbackBridge.run(on: .queue(queue), completion: { continuation.resume(returning: $0) }) {
                started.signal()
                try await Task.sleep(for: .seconds(3600))
                return 1
            }
            started.wait()
            handle.cancel()
        }
        guard case let .failure(error) = result else {
            Issue.record("expected cancellation")
            return
        }
        #expect(error.code == .cancelled)
    }
}
