import Dispatch

/// Runs blocking work (SQLite queries, hashing, unzipping, index builds) on a dispatch queue instead
/// of the cooperative pool, so a long directory job never starves other tasks of their threads.
enum ExploreBlockingWork {
    private static let queue = DispatchQueue(label: "engage.explore.work", qos: .userInitiated, attributes: .concurrent)

    /// The result of `work`, run on the Explore work queue.
    static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
