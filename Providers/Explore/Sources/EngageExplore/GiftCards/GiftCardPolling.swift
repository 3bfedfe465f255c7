import Foundation

/// How long to wait for a purchased card to be delivered: `maxPolls` status requests, `interval`
/// apart on the injected clock (5 s × 60 = about 5 minutes by default).
public struct GiftCardPolling: Codable, Sendable, Hashable {
    /// The pause between two status requests.
    public var interval: Duration
    /// The most status requests made before giving up with `.exploreGiftCardPending`.
    public var maxPolls: Int

    /// A polling policy; `maxPolls` is at least 1.
    public init(interval: Duration = .seconds(5), maxPolls: Int = 60) {
        self.interval = interval
        self.maxPolls = max(1, maxPolls)
    }
}
