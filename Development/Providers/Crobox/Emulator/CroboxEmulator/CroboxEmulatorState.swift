import Foundation

/// The Crobox emulator's mutable state, kept behind its lock.
struct CroboxEmulatorState {
    /// Accepted events, in arrival order.
    var events: [CroboxReceivedEvent] = []
    /// Answered promotions requests, in arrival order.
    var promotionRequests: [CroboxPromotionRequest] = []
    /// The session id of each visitor that asked for promotions.
    var sessions: [UUID: UUID] = [:]
    /// Bumped by `expireSessions()` so new sessions get new ids.
    var sessionGeneration = 0
}
