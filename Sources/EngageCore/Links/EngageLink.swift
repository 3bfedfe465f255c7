import Foundation

/// A link that belongs to a provider: what ``LinkSettings`` recognise in a URL the app was opened
/// with (a universal link, a custom scheme) or that a notification carried.
///
/// `Engage.handle(_:)` publishes it on the instance's event bus; the app shows what it points to:
///
/// ```swift
/// let subscription = engage.events.subscribe(to: EngageLink.self) { link in
///     if link.provider == "warply", link.destination == .campaign { router.showCampaign(link.identifier) }
/// }
/// ```
public struct EngageLink: EngageEvent, Hashable {
    /// What a link points to. The cases here are the ones the built-in providers have; a route may
    /// name any other in its configuration.
    public struct Destination: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The name, as written in a route (`campaign`).
        public let rawValue: String

        /// The destination named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The destination written as a literal.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// The name.
        public var description: String { rawValue }

        /// A campaign or its web page (Warply's campaigns, by session UUID).
        public static let campaign: Self = "campaign"
        /// A coupon or a coupon set.
        public static let coupon: Self = "coupon"
        /// A content item (Youll's videos and articles, by id).
        public static let content: Self = "content"
        /// A merchant of a directory (Explore's, by merchant id).
        public static let merchant: Self = "merchant"
        /// A promotion or an offer.
        public static let offer: Self = "offer"
        /// A voucher (Sovendus').
        public static let voucher: Self = "voucher"
    }

    /// Where the link came from.
    public enum Origin: String, Hashable, Sendable, Codable {
        /// A URL the app was opened with (`handle(_:)`).
        case url
        /// A notification's payload (`handleNotification(_:)`).
        case notification
    }

    /// The provider whose link it is.
    public var provider: ProviderID
    /// What it points to.
    public var destination: Destination
    /// The id the route's `{id}` matched, percent-decoded (a session UUID, a content id…).
    public var identifier: String
    /// The URL's query items (the last value of a repeated name), for the app's own use.
    public var parameters: [String: String]
    /// The URL itself.
    public var url: URL
    /// Where it came from.
    public var origin: Origin

    /// A link of `provider` to `destination` `identifier`, read from `url`.
    public init(
        provider: ProviderID, destination: Destination, identifier: String, parameters: [String: String] = [:], url: URL,
        origin: Origin = .url
    ) {
        self.provider = provider
        self.destination = destination
        self.identifier = identifier
        self.parameters = parameters
        self.url = url
        self.origin = origin
    }

    /// `engage_link_opened`.
    public var name: String { "engage_link_opened" }

    /// ``provider``, as every provider event names its provider.
    public var providerID: ProviderID? { provider }

    /// The destination and where the link came from. Neither the URL nor the id is included: a link
    /// may carry a personal token, and attributes go to analytics.
    public var attributes: [String: String] { ["destination": destination.rawValue, "origin": origin.rawValue] }
}
