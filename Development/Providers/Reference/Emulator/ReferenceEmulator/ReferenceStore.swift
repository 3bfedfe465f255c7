@_spi(EngageProvider) import EngageCore
import Foundation
@_spi(EngageProvider) import EngageSandbox
/// The reference emulator's mutable state, kept behind its lock.
struct ReferenceStore {
    var generator = SeededGenerator(seed: 0)
    /// Outstanding refresh tokens and the subject each belongs to.
    var refreshTokens: [String: String] = [:]
    /// Used refresh tokens: their subject and when they were used (for the reuse interval).
    var spentRefreshTokens: [String: (subject: String, spentAt: Date)] = [:]
    var refreshCount = 0
    var loginCount = 0
    var events: [ReferenceEvent] = []
    var eventIDs: Set<String> = []
    var duplicateEventCount = 0

    /// Creates and remembers a single-use refresh token for `subject`.
    mutating func makeRefreshToken(for subject: String) -> String {
        let token = "rt_" + generator.nextHex(byteCount: 24)
        refreshTokens[token] = subject
        return token
    }
}
