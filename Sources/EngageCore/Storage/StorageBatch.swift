import Foundation
import GRDB

/// Storage writes made as one transaction: inside ``atomically(_:)`` every ``StorageNamespace`` write
/// and removal of the running task is collected instead of committed, then all are committed together
/// in one transaction of their database (or none, when the body throws).
///
/// For data that must never be half-written, such as a session's tokens and the provider data of the
/// same session (`TokenManager.setTokens(_:alongside:)`). Reads inside the body see the stored values,
/// not the collected ones.
package final class StorageBatch: Sendable {
    /// The batch of the running task, if any.
    @TaskLocal package static var current: StorageBatch?

    /// One collected write.
    enum Operation: Sendable {
        case upsert(namespace: String, key: String, value: Data, isSealed: Bool, updatedAt: Double)
        case delete(namespace: String, key: String)
    }

    private let state = Locked<(operations: [Operation], writer: (any DatabaseWriter)?)>(([], nil))

    private init() {}

    /// Runs `body` collecting its storage writes, then commits them in one transaction. Nothing is
    /// written when `body` throws; a write that targets another database than the first one's fails.
    package static func atomically<Result>(_ body: () throws -> Result) throws -> Result {
        if current != nil { return try body() }  // already collecting: the outer batch commits
        let batch = StorageBatch()
        let result = try $current.withValue(batch) { try body() }
        try batch.commit()
        return result
    }

    /// Collects `operation` for `writer`'s database.
    func stage(_ operation: Operation, on writer: any DatabaseWriter) throws {
        try state.withLock { state in
            if let first = state.writer, first !== writer {
                throw EngageError(.storage, "A storage batch spans two databases; it cannot be committed as one transaction.")
            }
            state.writer = writer
            state.operations.append(operation)
        }
    }

    private func commit() throws {
        let (operations, writer) = state.withLock { ($0.operations, $0.writer) }
        guard let writer, !operations.isEmpty else { return }
        do {
            try writer.write { db in
                for operation in operations {
                    switch operation {
                    case let .upsert(namespace, key, value, isSealed, updatedAt):
                        try StorageNamespace.upsert(
                            db, namespace: namespace, key: key, value: value, isSealed: isSealed, updatedAt: updatedAt)
                    case let .delete(namespace, key):
                        try db.execute(sql: "DELETE FROM engage_kv WHERE namespace = ? AND key = ?", arguments: [namespace, key])
                    }
                }
            }
        } catch {
            throw EngageError(.storage, "The batch of \(operations.count) storage writes could not be committed.", underlyingError: error)
        }
    }
}
