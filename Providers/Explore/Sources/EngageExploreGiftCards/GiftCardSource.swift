@_spi(EngageProvider) import EngageCore

/// A gift-card API through which the Explore provider sells the directory's gift cards: CTX
/// (`EngageExploreCTX`, built with the `Explore` trait) and PiggyCards (`EngageExplorePiggyCards`,
/// built with the `PiggyCards` trait). Each source is its own module; the Explore provider creates
/// the sources whose settings are in `ExploreConfiguration.giftCards` and hands them its context,
/// so their operations publish the provider's events and keep their sessions and delivered cards in
/// its sealed storage. Only the provider creates sources (there is one of each per provider).
///
/// Apps reach a source through the provider, then call its own operations:
///
/// ```swift
/// let ctx = try explore.giftCardSource(CTXGiftCards.self)   // .notConfigured without its settings
/// try await ctx.requestCode(email: "ana@example.com")
/// ```
public protocol GiftCardSource: AnyObject, Sendable {
    /// The source's settings, kept in ``GiftCardSettings`` under ``configurationKey``; `validationIssues()`
    /// names each bad setting.
    associatedtype Configuration: ProviderConfiguration & Equatable

    /// Which directory offers the source sells; the vault keeps its cards under this id.
    static var id: ExploreGiftCardProviderID { get }

    /// The key of the source's settings in the Explore section of a configuration (`ctx`,
    /// `piggyCards`).
    static var configurationKey: String { get }

    /// Whether a session with the source is stored (nothing is sent).
    func isSignedIn() async throws(EngageError) -> Bool

    /// Forgets the session with the source; delivered cards stay in the vault.
    func signOut() async throws(EngageError)
}

extension GiftCardSource {
    /// The completion handler of a source's callback twins, called once on the main actor.
    public typealias Completion<Value> = @MainActor @Sendable (Result<Value, EngageError>) -> Void
}

/// A gift-card source the Explore provider creates itself: only the provider makes sources, one per
/// source over its own context, so that no second session manager ever rotates the same tokens.
package protocol BuiltInGiftCardSource: GiftCardSource {
    /// Creates the source over the Explore provider's context (transport stack, storage namespace,
    /// events, clock); delivered cards are sealed in a ``GiftCardVault`` over the same namespace.
    ///
    /// - Throws: `.invalidConfiguration` for settings the source or the network settings refuse.
    init(configuration: Configuration, context: ProviderContext) throws(EngageError)

    /// Fetches the card the vault keeps as `cardID` from the source again (which seals it in the
    /// vault) and returns whether its secrets came back. Needs the source's session.
    func fetchAgain(cardID: String) async throws -> Bool
}

/// The settings of each gift-card source, by source, as the Explore section of a configuration
/// carries them (`{"ctx": {...}, "piggyCards": {...}}`).
///
/// ```swift
/// var explore = ExploreConfiguration(feedURL: feedURL)
/// explore.giftCards[CTXGiftCards.self] = CTXConfiguration(baseURL: ctxURL, clientID: "dash-wallet")
/// ```
///
/// Settings are kept as JSON, so a configuration read on a build without a source keeps that source's
/// section intact instead of failing.
public struct GiftCardSettings: Sendable, Hashable {
    /// Each source's settings as JSON, by ``GiftCardSource/configurationKey``, as read from a
    /// configuration (also the sections of sources this build lacks).
    public package(set) var sections: [String: JSONValue]

    /// No settings: every gift-card source is off.
    public init() {
        sections = [:]
    }

    /// The settings of `source`, or `nil` when it has none or they cannot be read (see
    /// ``settings(of:)`` for the reason). Setting `nil` removes them.
    public subscript<Source: GiftCardSource>(source: Source.Type) -> Source.Configuration? {
        get { try? settings(of: source) }
        set {
            // A Codable struct of URLs and strings always encodes; `.null` is reported by validation.
            sections[Source.configurationKey] = newValue.map { (try? JSONValue(encoding: $0)) ?? .null }
        }
    }

    /// The settings of `source`, decoded, or `nil` when it has none.
    ///
    /// - Throws: `.invalidConfiguration` naming the source and the bad field when its section cannot
    ///   be decoded.
    public func settings<Source: GiftCardSource>(of source: Source.Type) throws(EngageError) -> Source.Configuration? {
        guard let section = sections[Source.configurationKey] else { return nil }
        do {
            return try section.decode(Source.Configuration.self)
        } catch let error as DecodingError {
            throw EngageError(
                decodingError: error, providerID: .explore, what: "'\(Source.configurationKey)' gift-card settings",
                code: .invalidConfiguration)
        } catch {
            throw EngageError(
                .invalidConfiguration, "The '\(Source.configurationKey)' gift-card settings could not be read.", providerID: .explore,
                underlyingError: error)
        }
    }

    /// Every problem with the settings of `source`, each sentence naming the setting (`ctx.baseURL …`).
    public func validationIssues<Source: GiftCardSource>(of source: Source.Type) -> [String] {
        do {
            return try settings(of: source)?.validationIssues() ?? []
        } catch {
            return ["\(Source.configurationKey): \(error.message)"]
        }
    }
}
