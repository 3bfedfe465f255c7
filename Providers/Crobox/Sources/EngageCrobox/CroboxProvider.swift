@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB
import Logging

/// Crobox promotions: product badges chosen by Crobox campaigns, and the page and commerce events
/// that feed them.
///
/// ```swift
/// let crobox = try await engage.provider(CroboxProvider.self)
/// let page = CroboxPage(pageType: .overview, pageName: "Sneakers")
/// try await crobox.send(.pageView(title: "Sneakers", impressions: ["sku-1", "sku-2"]), on: page)
/// let response = try await crobox.promotions(placeholderID: "14", page: page, productIDs: ["sku-1", "sku-2"])
/// for promotion in response.promotions {
///     if let badge = promotion.content?.textBadge { show(badge.text, badge.fontRGBA) }
/// }
/// ```
///
/// Events are stored in the durable queue before they are sent, so a failed send is retried later
/// rather than lost, and they survive a restart of the app. Every operation also has a
/// completion-handler form and publishes `custom_{success|error}_<operation>_crobox`.
public final class CroboxProvider: EngageProvider {
    public typealias Configuration = CroboxConfiguration

    public static let descriptor = ProviderDescriptor(
        id: .crobox, displayName: "Crobox promotions", version: "1.0.0"
    )

    /// The durable queue destination of Crobox events.
    public static let eventDestination = "crobox.events"

    let context: ProviderContext
    let configuration: CroboxConfiguration
    let client: APIClient
    /// The visitor id (`pid`): configured, or generated once and persisted (and anew by ``reset()``).
    public var visitorID: UUID { storedVisitorID.value }
    private let storedVisitorID: Locked<UUID>
    /// The visitor id's storage (a UUID, kept under its first key).
    private let installation: InstallationID
    /// The page the facade's `track` uses: its view id and event counter belong to the current visitor,
    /// so ``reset()`` starts a new one.
    public var defaultPage: CroboxPage { currentDefaultPage.value }
    private let currentDefaultPage = Locked(CroboxPage(pageType: .other))
    private let userID: Locked<String?>
    let errorReporter: CroboxErrorReporter

    @_spi(EngageProvider) public init(configuration: CroboxConfiguration, context: ProviderContext) async throws {
        try configuration.validate(for: .crobox)
        self.context = context
        self.configuration = configuration
        let containerID = configuration.containerID
        client = try context.makeAPIClient(
            baseURL: configuration.baseURL,
            policy: ResponsePolicy { answer in
                // Crobox answers a promotions request for a container it does not know with 405.
                guard answer.response.status == 405, answer.request.options.operation as? CroboxOperation == .promotions else {
                    return .accept
                }
                return .fail(
                    EngageError(
                        .croboxUnknownContainer, "Crobox does not know the container id '\(containerID)'.", providerID: .crobox,
                        httpStatus: 405,
                        recoverySuggestion: "Check containerID in the Crobox configuration against the Crobox admin app."
                    ))
            })
        installation = context.installationID(storedUnder: "visitor_id", configured: configuration.visitorID?.uuidString) {
            $0.uuidString
        }
        storedVisitorID = Locked(try Self.visitorID(installation))
        userID = Locked(configuration.userID)
        errorReporter = CroboxErrorReporter(clock: context.clock, interval: .seconds(300))
    }

    @_spi(EngageProvider) public func start() async throws {
        try await context.analytics.register(
            destination: Self.eventDestination,
            deliverer: CroboxEventDeliverer(client: client, logger: context.logger)
        )
        // Deliver what an earlier run left behind.
        await context.analytics.scheduleFlushSoon(after: .zero)
    }

    @_spi(EngageProvider) public func shutdown() async {
        await context.analytics.unregister(destination: Self.eventDestination)
    }

    /// The user id sent as `uid` from now on (`nil` to stop sending one).
    public func setUserID(_ userID: String?) {
        self.userID.withLock { $0 = userID }
    }

    /// The current user id.
    public var currentUserID: String? { userID.value }

    /// Forgets the visitor: a new visitor id (unless one is configured), persisted, no user id, and a new
    /// ``defaultPage`` (a new view id, its counter from 0), so nothing links the old visitor to the new
    /// one. Events already queued keep the ids they were tracked with; the facade's `reset()` purges
    /// them. Pages the app made itself are the app's: start new ones after a reset.
    public func reset() async throws {
        try await context.local {
            let fresh = try Self.visitorID(installation, renewing: true)
            storedVisitorID.withLock { $0 = fresh }
            userID.withLock { $0 = nil }
            currentDefaultPage.withLock { $0 = CroboxPage(pageType: .other) }
        }
    }

    /// The visitor id `installation` holds (a new one when `renewing`); a stored id that is not a UUID
    /// is replaced.
    private static func visitorID(_ installation: InstallationID, renewing: Bool = false) throws(EngageError) -> UUID {
        if !renewing, let id = UUID(uuidString: try installation.value()) { return id }
        guard let id = UUID(uuidString: try installation.renew()) else {
            throw EngageError(.internal, "A new visitor id is not a UUID.", providerID: .crobox)
        }
        return id
    }

    /// The query items every request carries, in wire order, taking the page's next counter value.
    func commonQueryItems(page: CroboxPage, at date: Date) -> [(String, String)] {
        typealias Key = CroboxWire.Key
        var items: [(String, String)] = [
            (Key.containerID, configuration.containerID),
            (Key.visitorID, visitorID.uuidString),
            (Key.eventCounter, String(page.nextEventIndex())),
            (Key.viewID, page.viewID.uuidString),
            (Key.pageType, String(page.pageType.rawValue)),
            (Key.sdk, String(configuration.dialect.rawValue)),
        ]
        if let currency = configuration.currency { items.append((Key.currency, currency)) }
        if let locale = configuration.locale { items.append((Key.locale, locale)) }
        if let userID = userID.value { items.append((Key.userID, userID)) }
        if let offset = configuration.timezoneOffsetHours { items.append((Key.timezone, String(offset))) }
        items.append((Key.timestamp, CroboxWire.timestamp(date)))
        if let pageName = page.pageName { items.append((Key.pageName, pageName)) }
        return items
    }

    /// Custom properties: configuration, then page, then event, later ones winning; sorted by key.
    func customPropertyItems(page: CroboxPage, event: [String: String] = [:]) -> [(String, String)] {
        configuration.customProperties
            .merging(page.customProperties) { _, new in new }
            .merging(event) { _, new in new }
            .sorted { $0.key < $1.key }
            .map { (CroboxWire.Key.customProperty($0.key), $0.value) }
    }
}

// The capabilities the facade fans out to: the provider-author surface.
@_spi(EngageProvider) extension CroboxProvider: OffersProviding, EventTracking, Resettable, IdentityAware {}

extension CroboxProvider {
    /// The app logged `identity` in (`engage.logIn`): its `userID` is sent as `uid` from now on
    /// (``setUserID(_:)``). Crobox has no login of its own; nothing is sent now.
    @_spi(EngageProvider) public func logIn(_ identity: UserIdentity) async throws {
        setUserID(identity.userID)
    }

    /// The app logged out (`engage.logOut`): no user id is sent from now on. The visitor id stays; the
    /// facade's `reset()` renews it.
    @_spi(EngageProvider) public func logOut() async throws {
        setUserID(nil)
    }
}
