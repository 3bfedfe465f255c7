@_spi(EngageProvider) import EngageCore
import Foundation

/// The social proof shown on the paywall.
public struct YoullSocialProof: Codable, Sendable, Hashable {
    /// The headline, e.g. "Join 120,000 members".
    public var headline: String
    /// How many members the app has.
    public var memberCount: Int
    /// The average store rating, 0 to 5.
    public var rating: Double

    init(wire: WireSocialProof) throws {
        guard wire.rating.isFinite, (0...5).contains(wire.rating) else {
            throw YoullDecoding.invalid("rating", "\(wire.rating)", of: "the social proof")
        }
        headline = wire.headline
        memberCount = max(0, wire.memberCount)
        rating = wire.rating
    }
}

/// A facilitator (coach, teacher, host).
public struct YoullFacilitator: Codable, Sendable, Hashable, Identifiable {
    /// The facilitator id.
    public var id: String
    /// Their name.
    public var name: String
    /// A short biography.
    public var bio: String?
    /// Their picture.
    public var imageURL: URL?

    init(wire: WireFacilitator) {
        id = wire.id
        name = wire.name
        bio = wire.bio
        imageURL = wire.imageUrl.flatMap(YoullLocalization.url)
    }
}

/// The user's profile (`GET /users/me`). Its `description`, `dump` and `Mirror` hide the email.
public struct YoullProfile: Codable, Sendable, Hashable, Identifiable, CustomStringConvertible, CustomReflectable {
    /// The user id.
    public var id: String
    /// The display name.
    public var name: String
    /// The email address, if the user gave one.
    public var email: String?
    /// The profile picture.
    public var pictureURL: URL?
    /// The statistics asked for, by name (e.g. `minutes`, `sessions`, `streak`).
    public var stats: [String: Int]
    /// When the account was created.
    public var createdAt: Date

    init(wire: WireProfile) throws {
        id = wire.id
        name = wire.name
        email = wire.email
        pictureURL = wire.pictureUrl.flatMap(YoullLocalization.url)
        stats = wire.stats
        createdAt = try YoullDecoding.date(wire.createdAt, field: "created_at", of: "the profile")
    }

    /// The profile with its email redacted.
    public var description: String {
        "YoullProfile(id: \(id), name: \(name), email: \(email == nil ? "nil" : Redactor.mask), stats: \(stats))"
    }

    /// The profile's fields but the email.
    public var customMirror: Mirror {
        Mirror(self, children: ["id": id, "name": name, "pictureURL": pictureURL as Any, "stats": stats, "createdAt": createdAt])
    }
}

/// A badge the user earned.
public struct YoullBadge: Codable, Sendable, Hashable, Identifiable {
    /// The badge id.
    public var id: String
    /// Its title.
    public var title: String
    /// Its picture.
    public var imageURL: URL?
    /// When the user earned it.
    public var earnedAt: Date

    init(wire: WireBadge) throws {
        id = wire.id
        title = wire.title
        imageURL = wire.imageUrl.flatMap(YoullLocalization.url)
        earnedAt = try YoullDecoding.date(wire.earnedAt, field: "earned_at", of: "badge \(wire.id)")
    }
}

/// Which notifications the user receives.
public struct YoullNotificationSettings: Codable, Sendable, Hashable {
    /// Push notifications.
    public var push: Bool
    /// Emails.
    public var email: Bool
    /// Daily practice reminders.
    public var reminders: Bool
    /// The hour (0–23, the user's time) of the daily reminder, if set.
    public var reminderHour: Int?

    /// Settings as given; ``YoullMutation/updateNotificationSettings(_:)`` refuses an hour outside 0–23.
    public init(push: Bool, email: Bool, reminders: Bool, reminderHour: Int? = nil) {
        self.push = push
        self.email = email
        self.reminders = reminders
        self.reminderHour = reminderHour
    }

    init(wire: WireNotificationSettings) {
        self.init(push: wire.push, email: wire.email, reminders: wire.reminders, reminderHour: wire.reminderHour)
    }

    var wire: WireNotificationSettings {
        WireNotificationSettings(push: push, email: email, reminders: reminders, reminderHour: reminderHour)
    }
}

/// A promotional offer (`GET /promo-offers`).
public struct YoullPromoOffer: Codable, Sendable, Hashable, Identifiable {
    /// The offer id.
    public var id: String
    /// Its title.
    public var title: String
    /// Its description.
    public var details: String?
    /// Its picture.
    public var imageURL: URL?
    /// Where it leads.
    public var actionURL: URL?
    /// The discount, 0 to 100 percent, if it is one.
    public var discountPercent: Int?
    /// When it ends.
    public var validUntil: Date?

    init(wire: WirePromoOffer) throws {
        if let percent = wire.discountPercent, !(0...100).contains(percent) {
            throw YoullDecoding.invalid("discount_percent", "\(percent)", of: "promo offer \(wire.id)")
        }
        id = wire.id
        title = wire.title
        details = wire.description
        imageURL = wire.imageUrl.flatMap(YoullLocalization.url)
        actionURL = wire.actionUrl.flatMap(YoullLocalization.url)
        discountPercent = wire.discountPercent
        validUntil = try wire.validUntil.map { try YoullDecoding.date($0, field: "valid_until", of: "promo offer \(wire.id)") }
    }

    /// The offer as a cross-provider `Offer` of kind `promotion`.
    public var offer: Offer {
        var attributes: [String: String] = [:]
        if let discountPercent { attributes["discount_percent"] = String(discountPercent) }
        return Offer(
            id: id, providerID: .youll, kind: .promotion, title: LocalizedText(title), details: details.map { LocalizedText($0) },
            imageURL: imageURL, actionURL: actionURL, validUntil: validUntil, attributes: attributes
        )
    }
}

/// A like or unlike's outcome.
public struct YoullLikeState: Codable, Sendable, Hashable {
    /// The content.
    public var contentID: String
    /// Whether the user likes it now.
    public var isLiked: Bool
    /// How many users like it now.
    public var likeCount: Int

    init(wire: WireLikeResult) {
        contentID = wire.contentId
        isLiked = wire.isLiked
        likeCount = max(0, wire.likeCount)
    }
}

/// A vector search hit: content and how close it is to the text, 0 to 1.
public struct YoullSearchMatch: Codable, Sendable, Hashable {
    /// The content.
    public var content: YoullContent
    /// Its similarity to the text, from 0 to 1.
    public var score: Double
}
