@_spi(EngageProvider) import EngageCore
import Foundation

extension Engage {
    /// Offers from every provider with the `offers` capability (campaigns, coupons, promotions,
    /// vouchers), concatenated in registration order. Throws `.unsupported` only when no running
    /// provider offers them; individual failures are in `report`.
    public func offers(_ query: OfferQuery = OfferQuery()) async throws(EngageError) -> AggregateResult<Offer> {
        try await fanOut(.offers, operation: FacadeOperation.offers) { (provider: any OffersProviding) in
            try await provider.offers(query)
        }
    }

    /// Sends `event` to every provider with the `eventTracking` capability. Each provider stores it in
    /// the durable queue before this returns.
    ///
    /// Before the providers are ready (an instance from `configure`), the event is stored durably at
    /// once, the report is empty, and the providers receive it when they are ready.
    public func track(_ event: TrackedEvent) async throws(EngageError) -> AggregateReport {
        try refuseIfUnconfigured("track")
        if let key = event.properties.first(where: { !$0.value.isFinite })?.key {
            throw EngageError(
                .invalidInput, "The event '\(event.name)' has a property '\(key)' holding NaN or infinity, which JSON cannot carry.",
                recoverySuggestion: "Send a finite number, or leave the property out.")
        }
        guard isReady else {
            do {
                try await registry.analytics.enqueue(try JSONEncoder().encode(event), destination: StagedEventsDeliverer.destination)
            } catch {
                throw EngageError.wrapping(error)
            }
            return AggregateReport()
        }
        return try await trackReady(event)
    }

    /// `track` once the providers are ready.
    func trackReady(_ event: TrackedEvent) async throws(EngageError) -> AggregateReport {
        try await fanOut(.eventTracking, operation: FacadeOperation.track) { (provider: any EventTracking) -> [Never] in
            try await provider.track(event)
            return []
        }.report
    }

    /// Merchants from every merchant directory. With a query centre, the merged list is sorted by
    /// distance (unknown distances last), then by name.
    public func merchants(_ query: MerchantQuery) async throws(EngageError) -> AggregateResult<MerchantSummary> {
        var result = try await fanOut(.merchantDirectory, operation: FacadeOperation.merchants) { (provider: any MerchantDirectory) in
            try await provider.merchants(query).items
        }
        if query.center != nil {
            result.items.sort { lhs, rhs in
                switch (lhs.distanceMeters, rhs.distanceMeters) {
                case let (left?, right?) where left != right: return left < right
                case (.some, nil): return true
                case (nil, .some): return false
                default: return (lhs.name, lhs.providerID, lhs.id) < (rhs.name, rhs.providerID, rhs.id)
                }
            }
        }
        return result
    }

    /// Merchants within `radiusMeters` of `point`, nearest first.
    public func merchants(
        near point: GeoPoint, radiusMeters: Double, page: PageRequest = PageRequest()
    ) async throws(EngageError)
        -> AggregateResult<MerchantSummary>
    {
        try await merchants(.near(point, radiusMeters: radiusMeters, page: page))
    }

    /// Content from every content provider, concatenated in registration order.
    public func content(_ query: ContentQuery = ContentQuery()) async throws(EngageError) -> AggregateResult<ContentItem> {
        try await fanOut(.content, operation: FacadeOperation.content) { (provider: any ContentProviding) in
            try await provider.content(query)
        }
    }

    /// A screen view: `name` is the screen, sent to every event-tracking provider like ``track(_:)``
    /// (Crobox as a page view, Warply as an event of kind `screen_view`), queued while offline.
    ///
    /// ```swift
    /// .onAppear { Task { try? await engage.screen("Cart", properties: ["items": 3]) } }
    /// ```
    @discardableResult
    public func screen(_ name: String, properties: [String: JSONValue] = [:]) async throws(EngageError) -> AggregateReport {
        try await track(TrackedEvent(.screenView, name: name, properties: properties))
    }

    /// Hands the device's push token (from `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`)
    /// to every provider whose backend sends notifications, hex-encoded; `nil` when the app has none any
    /// more. Each provider keeps it sealed and sends it again when its backend forgets the device. With
    /// no such provider running, nothing is sent and the report is empty.
    ///
    /// ```swift
    /// func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken token: Data) {
    ///     Task { try? await Engage.shared.setPushToken(token) }
    /// }
    /// ```
    @discardableResult
    public func setPushToken(_ token: Data?) async throws(EngageError) -> AggregateReport {
        try refuseIfUnconfigured(FacadeOperation.setPushToken.name.rawValue)
        if let token, token.isEmpty || token.count > 1_024 {
            throw EngageError(.invalidInput, "A push token has 1 to 1 024 bytes; this one has \(token.count).")
        }
        try await awaitStart(for: FacadeOperation.setPushToken.name.rawValue)
        guard await !registry.providers(with: .pushToken).isEmpty else { return AggregateReport() }
        let hex = token.map { $0.map { String(format: "%02x", $0) }.joined() }
        return try await fanOut(.pushToken, operation: FacadeOperation.setPushToken) { (provider: any PushTokenReceiving) -> [Never] in
            try await provider.setPushToken(hex)
            return []
        }.report
    }

    /// Tells every identity-aware provider that `identity` logged in.
    public func logIn(_ identity: UserIdentity) async throws(EngageError) -> AggregateReport {
        let report = try await fanOut(.identity, operation: FacadeOperation.logIn) { (provider: any IdentityAware) -> [Never] in
            try await provider.logIn(identity)
            return []
        }.report
        stateTracker.update { $0.user = identity }
        return report
    }

    /// Tells every identity-aware provider that the user logged out.
    public func logOut() async throws(EngageError) -> AggregateReport {
        let report = try await fanOut(.identity, operation: FacadeOperation.logOut) { (provider: any IdentityAware) -> [Never] in
            try await provider.logOut()
            return []
        }.report
        stateTracker.update { $0.user = nil }
        return report
    }

    // MARK: - Fan-out

    // callback-twin: none (a building block: the operations built on it have the twins)
    /// Calls `body` on every running provider that adopts the protocol `Capability`, concurrently, and
    /// merges the results in registration order, with each provider's failure in the report instead of
    /// failing the call. `operation` names the fan-out in errors. Throws `.unsupported` when no running
    /// provider adopts `Capability`, and `.cancelled` when the caller was cancelled while providers were
    /// answering (never a partial result that reads as a success).
    ///
    /// The facade's own operations (``offers(_:)``, ``track(_:)``…) are built on it, and a third party
    /// defines a capability of its own the same way: a name, a protocol, and a call named by one of its
    /// declared operations (this is the Acme example package's; `AcmeOperation` is its
    /// `ProviderOperation` enum):
    ///
    /// ```swift
    /// extension ProviderCapability {
    ///     /// Discounted deals: providers adopting ``DealsProviding``; `engage.deals()` fans out to them.
    ///     public static let deals: Self = "acme.deals"
    /// }
    ///
    /// /// A provider of deals: any provider, Acme's or another's, that adopts it is reached by `engage.deals()`.
    /// public protocol DealsProviding: Sendable {
    ///     /// Up to `limit` current deals.
    ///     func deals(limit: Int) async throws -> [AcmeDeal]
    /// }
    ///
    /// extension Engage {
    ///     /// Deals from every running provider with the deals capability, with each provider's failure
    ///     /// reported apart.
    ///     public func deals(limit: Int = 20) async throws(EngageError) -> AggregateResult<AcmeDeal> {
    ///         try await fanOut(.deals, operation: AcmeOperation.deals) { (provider: any DealsProviding) in
    ///             try await provider.deals(limit: limit)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Provider-author API (`@_spi(EngageProvider)`): apps call the facade's operations instead.
    @_spi(EngageProvider) public func fanOut<Capability: Sendable, Item: Sendable>(
        _ capability: ProviderCapability,
        operation: some ProviderOperation,
        _ body: @escaping @Sendable (Capability) async throws -> [Item]
    ) async throws(EngageError) -> AggregateResult<Item> {
        let operation = operation.name.rawValue
        try await awaitStart(for: operation)
        // A provider has a capability when it adopts the capability's protocol: nothing is declared twice.
        let providers = await registry.providers.compactMap { provider -> (ProviderID, Capability)? in
            (provider as? Capability).map { (type(of: provider).descriptor.id, $0) }
        }
        guard !providers.isEmpty else { throw await noProvider(offering: capability, for: operation) }
        let outcomes = await withTaskGroup(of: (Int, ProviderID, Result<[Item], EngageError>).self) { group in
            for (index, (id, provider)) in providers.enumerated() {
                group.addTask {
                    do {
                        // Bound first, then returned: Swift 6.3.1 with -O miscompiles the
                        // one-expression form `return (..., .success(try await ...))` in a task group.
                        let items = try await body(provider)
                        return (index, id, .success(items))
                    } catch {
                        return (index, id, .failure(EngageError.wrapping(error, providerID: id)))
                    }
                }
            }
            var outcomes: [(Int, ProviderID, Result<[Item], EngageError>)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }
        }
        // A caller cancelled while providers were answering gets `.cancelled`, not a partial result
        // that would read as a success with some providers failed.
        let cancelled = outcomes.contains { outcome in
            if case let .failure(error) = outcome.2 { error.code == .cancelled } else { false }
        }
        if cancelled, Task.isCancelled {
            throw EngageError(.cancelled, "\(operation) was cancelled before every provider answered.")
        }
        var result = AggregateResult<Item>(items: [], report: AggregateReport())
        for (_, id, outcome) in outcomes {
            switch outcome {
            case let .success(items):
                result.items += items
                result.report.succeeded.append(id)
            case let .failure(error) where error.code == .notApplicable:
                result.report.notApplicable[id] = error.message
            case let .failure(error):
                result.report.failures[id] = error
            }
        }
        return result
    }
}

extension Engage {
    /// `.unsupported` for a fan-out that found no running provider with `capability`: names the
    /// providers that failed to start, when some did, and where to read why.
    func noProvider(offering capability: ProviderCapability, for operation: String) async -> EngageError {
        let failures = await waitUntilReady().failures
        guard !failures.isEmpty else {
            return EngageError(
                .unsupported, "No running provider offers '\(capability)' (needed by \(operation)).",
                recoverySuggestion:
                    "Give a provider with this capability a section in EngageConfiguration.providers, and build it in with its package trait."
            )
        }
        let failed = failures.keys.map(\.rawValue).sorted().joined(separator: ", ")
        return EngageError(
            .unsupported,
            "No running provider offers '\(capability)' (needed by \(operation)); these providers failed to start: \(failed).",
            recoverySuggestion: "Read engage.waitUntilReady().failures for why each one failed (each error names the setting or the cause)."
        )
    }
}
