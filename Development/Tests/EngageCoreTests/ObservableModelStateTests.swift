@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Observation
import EngageTestTraits
import Testing

/// The state behind every provider model: observable where the OS has Observation, and a stream of
/// snapshots everywhere (the iOS 16 form).
@MainActor
@Suite("Observable model state", .bounded)
struct ObservableModelStateTests {
    struct Snapshot: Sendable, Equatable {
        var count = 0
        var error: EngageError?
    }

    static let fields: [ObservableModelState<Snapshot>.Field] = [.field(\.count), .field(\.error)]

    @Test("a change reaches the trackers of its field once; other fields' trackers and updates that change nothing reach none")
    func observation() {
        let state = ObservableModelState(Snapshot(), fields: Self.fields)
        let countReaders = TestCounter()
        let errorReaders = TestCounter()
        let wholeReaders = TestCounter()
        withObservationTracking {
            _ = state[\.count]
        } onChange: {
            _ = countReaders.increment()
        }
        withObservationTracking {
            _ = state[\.error]
        } onChange: {
            _ = errorReaders.increment()
        }
        withObservationTracking {
            _ = state.value
        } onChange: {
            _ = wholeReaders.increment()
        }
        state.update { $0.count = 0 }
        #expect(countReaders.count == 0 && wholeReaders.count == 0)
        state.update { $0.count = 1 }
        #expect(countReaders.count == 1 && errorReaders.count == 0 && wholeReaders.count == 1 && state[\.count] == 1)
    }

    @Test("updates starts with the current snapshot, then one per change, and skips updates that change nothing")
    func updates() async {
        let state = ObservableModelState(Snapshot(count: 1), fields: Self.fields)
        var updates = state.updates.makeAsyncIterator()
        #expect(await updates.next()?.count == 1)
        state.update { $0.count = 2 }
        #expect(await updates.next()?.count == 2)
        state.update { $0.count = 2 }
        state.update { $0.count = 3 }
        #expect(await updates.next()?.count == 3)
    }

    @Test("an error equal to the shown one (same code) still replaces it, without a notification")
    func equalErrorsAreKept() {
        let state = ObservableModelState(Snapshot(error: EngageError(.network, "first")), fields: Self.fields)
        let notified = TestCounter()
        withObservationTracking {
            _ = state[\.error]
        } onChange: {
            _ = notified.increment()
        }
        state.update { $0.error = EngageError(.network, "second") }
        #expect(state[\.error]?.message == "second" && notified.count == 0)
    }

    @Test("the stream ends when the model's state is released")
    func streamEndsWithTheState() async throws {
        var state: ObservableModelState<Snapshot>? = ObservableModelState(Snapshot(), fields: Self.fields)
        let updates = try #require(state?.updates)
        state?.update { $0.count = 1 }
        state = nil
        var received: [Int] = []
        for await snapshot in updates {
            received.append(snapshot.count)
        }
        // The newest value buffered before the end, then the end.
        #expect(received == [1])
    }
}
