@_spi(EngageProvider) import EngageCore

extension CroboxEmulator {
    /// What the emulated backend knows: its containers, its campaigns and the messages (badges) it
    /// hands out.
    public struct Configuration: Sendable {
        /// The container id the default configuration knows.
        public static let defaultContainerID = "xlrc9t"

        /// The container ids `/promotions` accepts; any other (or none) is answered 405.
        public var containerIDs: Set<String>
        /// The running campaigns, in the order the response lists them (`context.experiments`). Each
        /// product's promotion belongs to one of them (see ``CroboxEmulator/campaign(forProductID:)``);
        /// a control-group campaign's promotions carry no content. With no campaigns there are no
        /// promotions.
        public var campaigns: [Campaign]
        /// The messages a promotion can carry; each product id gets one of them, chosen by a stable hash
        /// of the id (see ``CroboxEmulator/message(forProductID:)``). Empty: promotions carry no content.
        public var catalogue: [Message]

        /// Creates a configuration.
        /// - Parameters:
        ///   - containerIDs: Known container ids (default: `xlrc9t`).
        ///   - campaigns: Running campaigns (default: ``defaultCampaigns``).
        ///   - catalogue: Messages handed out (default: ``defaultCatalogue``).
        public init(
            containerIDs: Set<String> = [Configuration.defaultContainerID],
            campaigns: [Campaign] = Configuration.defaultCampaigns,
            catalogue: [Message] = Configuration.defaultCatalogue
        ) {
            self.containerIDs = containerIDs
            self.campaigns = campaigns
            self.catalogue = catalogue
        }

        /// One campaign: id 1 `Campaign 1`, variant 1 `Crobox`, not a control group.
        public static let defaultCampaigns = [
            Campaign(id: 1, name: "Campaign 1", variantID: 1, variantName: "Crobox", isControl: false)
        ]

        /// One campaign like ``defaultCampaigns`` whose variant is the control group (no content shown).
        public static let controlGroupCampaigns = [
            Campaign(id: 1, name: "Campaign 1", variantID: 2, variantName: "Control", isControl: true)
        ]

        /// Every kind of content the mobile SDKs know, plus one component they do not:
        ///
        /// | index | component | config |
        /// |---|---|---|
        /// | 0 | `mob-app-text-badge.tsx` | `text`, `fontColor` `#RRGGBB` |
        /// | 1 | `mob-app-text-badge.tsx` | `text`, `fontColor`, `backgroundColor` `#AARRGGBB` |
        /// | 2 | `mob-app-text-badge.tsx` | `text`, `fontColor`, `borderColor` `rgba(204, 204, 204, 0.5)` |
        /// | 3 | `mob-app-image-badge.tsx` | `image` URL, `altText` |
        /// | 4 | `mob-app-secondary-messaging.tsx` | `text`, `fontColor` |
        /// | 5 | `component1.tsx` (unknown to the SDKs) | `image`, `altText` |
        public static let defaultCatalogue: [Message] = [
            Message(
                componentName: "mob-app-text-badge.tsx",
                config: ["text": "Best seller", "fontColor": "#0e1111"]
            ),
            Message(
                componentName: "mob-app-text-badge.tsx",
                config: ["text": "Only a few left", "fontColor": "#FFFFFF", "backgroundColor": "#E6D32F2F"]
            ),
            Message(
                componentName: "mob-app-text-badge.tsx",
                config: ["text": "Popular choice", "fontColor": "#1A237E", "borderColor": "rgba(204, 204, 204, 0.5)"]
            ),
            Message(
                componentName: "mob-app-image-badge.tsx",
                config: ["image": "https://cdn.crobox.example/badges/free-shipping.png", "altText": "Free shipping"]
            ),
            Message(
                componentName: "mob-app-secondary-messaging.tsx",
                config: ["text": "Order before 22:00, delivered tomorrow", "fontColor": "#2E7D32"]
            ),
            Message(
                componentName: "component1.tsx",
                config: ["image": "https://cdn.crobox.example/badges/new-arrival.png", "altText": "New arrival"]
            ),
        ]
    }

    /// A running campaign (an "experiment" on the wire) and the variant the visitors get.
    public struct Campaign: Sendable, Hashable {
        /// The campaign id (`id`, also each promotion's `campaignId` and `experimentId`).
        public var id: Int
        /// The campaign's name.
        public var name: String
        /// The variant id (`variantId`).
        public var variantID: Int
        /// The variant's name.
        public var variantName: String
        /// Whether the variant is the control group: its promotions carry no content.
        public var isControl: Bool

        /// A campaign.
        public init(id: Int, name: String, variantID: Int, variantName: String, isControl: Bool) {
            self.id = id
            self.name = name
            self.variantID = variantID
            self.variantName = variantName
            self.isControl = isControl
        }
    }

    /// A message of the catalogue: a component and its visual configuration, as the Crobox admin app
    /// manages them.
    public struct Message: Sendable, Hashable {
        /// The component name, e.g. `mob-app-text-badge.tsx`.
        public var componentName: String
        /// The configuration items sent as `content.config`.
        public var config: [String: String]

        /// Creates a message.
        public init(componentName: String, config: [String: String]) {
            self.componentName = componentName
            self.config = config
        }
    }
}

extension CroboxEmulator {
    /// The catalogue message a product gets, or `nil` when the catalogue is empty.
    ///
    /// It depends only on the product id and the catalogue (MurmurHash3 of the id's UTF-8 bytes, seed
    /// 0, modulo the catalogue size), never on the seed, the visitor or the campaign, so a test can
    /// pick product ids for each kind of badge once and for all. With the default catalogue:
    /// `Product7` text badge, `Product5` text badge with an `#AARRGGBB` background, `Product1` text
    /// badge with an `rgba(…)` border, `Product3` image badge, `Product6` secondary messaging,
    /// `Product8` the unknown `component1.tsx`. The page-level promotion (a request without products)
    /// uses the placeholder id as the key.
    public func message(forProductID productID: String) -> Message? {
        Self.element(of: configuration.catalogue, for: productID, hashSeed: 0)
    }

    /// The campaign a product's promotion belongs to, or `nil` when no campaign runs (MurmurHash3 of the
    /// id, seed 1, modulo the number of campaigns; always the only campaign when there is one). The
    /// page-level promotion uses the placeholder id as the key.
    public func campaign(forProductID productID: String) -> Campaign? {
        Self.element(of: configuration.campaigns, for: productID, hashSeed: 1)
    }

    /// `elements[murmur(key) % count]`, or `nil` when `elements` is empty.
    static func element<T>(of elements: [T], for key: String, hashSeed: UInt32) -> T? {
        index(count: elements.count, for: key, hashSeed: hashSeed).map { elements[$0] }
    }

    /// `murmur(key) % count` (MurmurHash3 x86 32-bit of the UTF-8 bytes), or `nil` when `count` is 0.
    static func index(count: Int, for key: String, hashSeed: UInt32) -> Int? {
        guard count > 0 else { return nil }
        return Int(CroboxEmulatorWire.murmur3(Array(key.utf8), seed: hashSeed) % UInt32(count))
    }
}
