@_spi(EngageProvider) import EngageCore
import Foundation

/// A review of a content item: a rating and, when the reviewer wrote one, a text.
public struct YoullReview: Codable, Sendable, Hashable, Identifiable {
    /// The review's id.
    public var id: String
    /// The reviewed content item's id.
    public var contentID: String
    /// The rating, 1 to 5.
    public var rating: Int
    /// What the reviewer wrote, if anything.
    public var text: String?
    /// The reviewer's display name, when Youll shows it.
    public var authorName: String?
    /// When the review was written (or last changed).
    public var createdAt: Date
    /// Whether the current user wrote it.
    public var isMine: Bool

    init(wire: WireReview) throws {
        let what = "review \(wire.id.prefix(64))"
        guard (1...5).contains(wire.rating) else { throw YoullDecoding.invalid("rating", "\(wire.rating)", of: what) }
        id = wire.id
        contentID = wire.contentId
        rating = wire.rating
        text = wire.text
        authorName = wire.authorName
        createdAt = try YoullDecoding.date(wire.createdAt, field: "created_at", of: what)
        isMine = wire.isMine
    }
}

/// A stretch of time the user spent in the app, for Youll's engagement tracking (the Youll SDK's
/// tracking sessions; timer sessions, per content item, are `.timerSession`).
public struct YoullTrackingSession: Sendable, Hashable, Identifiable {
    /// The session's id, chosen by the app: sending the same id again records it once.
    public var id: String
    /// When the session began.
    public var startedAt: Date
    /// When it ended (not before `startedAt`, at most 24 hours after it).
    public var endedAt: Date
    /// How many screens the user saw, if the app counts them.
    public var screenCount: Int?

    /// A session; `id` defaults to a new UUID.
    public init(id: String = UUID().uuidString, startedAt: Date, endedAt: Date, screenCount: Int? = nil) {
        self.id = id
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.screenCount = screenCount
    }

    /// How long it lasted: zero when it ends before it starts or the dates are not finite, and at
    /// most about 285 years for dates further apart (such a session is refused when sent).
    public var duration: Duration { .seconds(double: endedAt.timeIntervalSince(startedAt)) }
}

/// A link that opens a content item for whoever receives it (the Youll SDK's `EnvoyURL`): share it
/// with the system's share sheet.
public struct YoullShareLink: Codable, Sendable, Hashable {
    /// The link, always `https`.
    public var url: URL
    /// When the link stops working, if it does.
    public var expiresAt: Date?

    init(wire: WireShareLink) throws {
        guard let url = URL(string: wire.url), url.scheme?.lowercased() == "https", url.host?.isEmpty == false else {
            throw YoullDecoding.invalid("url", wire.url, of: "a share link")
        }
        self.url = url
        expiresAt = try wire.expiresAt.map { try YoullDecoding.date($0, field: "expires_at", of: "a share link") }
    }
}
