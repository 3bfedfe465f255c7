import Foundation

/// How long to wait for a purchased card to be delivered: `maxPolls` status requests, `interval`
/// apart on the injected clock (5 s × 60 = about 5 minutes by default).
///
/// Always usable, however it is made: the initialiser and assignments clamp (`maxPolls >= 1`,
/// `interval >= 0`), and decoding refuses values outside that range with a `DecodingError`.
public struct GiftCardPolling: Codable, Sendable, Hashable {
    /// The pause between two status requests (a negative value is stored as zero).
    public var interval: Duration {
        didSet { interval = max(.zero, interval) }
    }

    /// The most status requests made before giving up with `.exploreGiftCardPending` (at least 1).
    public var maxPolls: Int {
        didSet { maxPolls = max(1, maxPolls) }
    }

    /// A polling policy; `maxPolls` is at least 1 and `interval` at least zero.
    public init(interval: Duration = .seconds(5), maxPolls: Int = 60) {
        self.interval = max(.zero, interval)
        self.maxPolls = max(1, maxPolls)
    }

    /// Decodes both fields, refusing a negative interval or fewer than one poll.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let interval = try container.decode(Duration.self, forKey: .interval)
        guard interval >= .zero else {
            throw DecodingError.dataCorruptedError(forKey: .interval, in: container, debugDescription: "interval must not be negative.")
        }
        let maxPolls = try container.decode(Int.self, forKey: .maxPolls)
        guard maxPolls >= 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .maxPolls, in: container, debugDescription: "maxPolls must be 1 or more, not \(maxPolls).")
        }
        self.init(interval: interval, maxPolls: maxPolls)
    }

    private enum CodingKeys: String, CodingKey {
        case interval, maxPolls
    }
}
