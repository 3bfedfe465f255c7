/// A provider that offers things to the user (campaigns, coupons, promotions, vouchers).
@_spi(EngageProvider) public protocol OffersProviding: EngageProvider {
    /// The offers matching `query`, each tagged with this provider's id.
    func offers(_ query: OfferQuery) async throws -> [Offer]
}

/// A provider that receives analytics events.
@_spi(EngageProvider) public protocol EventTracking: EngageProvider {
    /// Records `event` for delivery. Providers enqueue it on the durable queue, so this returns once
    /// the event is stored, not once it is delivered.
    func track(_ event: TrackedEvent) async throws
}

/// A provider with a directory of merchants.
@_spi(EngageProvider) public protocol MerchantDirectory: EngageProvider {
    /// One page of the merchants matching `query`, with distances when it has a centre.
    func merchants(_ query: MerchantQuery) async throws -> Page<MerchantSummary>
}

/// A provider of content (articles, videos...).
@_spi(EngageProvider) public protocol ContentProviding: EngageProvider {
    /// The content matching `query`, each item tagged with this provider's id.
    func content(_ query: ContentQuery) async throws -> [ContentItem]
}

/// A provider that follows the app's log in and log out.
@_spi(EngageProvider) public protocol IdentityAware: EngageProvider {
    /// The app logged `identity` in. Providers that need their own login do it here.
    func logIn(_ identity: UserIdentity) async throws
    /// The app logged out: forget the session and any user data.
    func logOut() async throws
}

/// A provider that can forget its user entirely, as when the user deletes their account.
@_spi(EngageProvider) public protocol Resettable: EngageProvider {
    /// Logs the user out and deletes what the provider keeps about them on this device (sessions,
    /// caches, purchased items' secrets, stored ids), and starts over with new anonymous ids where it
    /// generates them (a configured id stays). Queued analytics are the facade's to purge.
    func reset() async throws
}

/// A provider whose backend sends push notifications to the device: it receives the device's push token
/// (APNs or FCM) from `engage.setPushToken(_:)`, keeps it, and sends it again when its backend forgets
/// the device.
@_spi(EngageProvider) public protocol PushTokenReceiving: EngageProvider {
    /// The device's push token, hex-encoded (`nil`: the app has none any more, for example after the
    /// user turned notifications off). Providers store it sealed and send it to their backend.
    func setPushToken(_ token: String?) async throws
}
