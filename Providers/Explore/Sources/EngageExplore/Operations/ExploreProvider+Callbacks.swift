@_spi(EngageProvider) import EngageCore
import Foundation

/// The type of the completion handlers of the twins `Scripts/generate-callback-twins` writes in
/// `Generated/CallbackTwins.swift`.
extension ExploreProvider {
    /// A completion handler: receives the operation's value or its `EngageError`, run once on the main
    /// actor.
    public typealias Completion<Value> = @MainActor @Sendable (Result<Value, EngageError>) -> Void
}
