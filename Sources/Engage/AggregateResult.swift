@_spi(EngageProvider) import EngageCore
/// Which providers an aggregate operation succeeded with, which failed and why, and which it does not
/// apply to.
public struct AggregateReport: Sendable {
    /// Providers whose part succeeded, in registration order.
    public var succeeded: [ProviderID]
    /// Providers whose part failed.
    public var failures: [ProviderID: EngageError]
    /// Providers the operation does not apply to, with why: not a failure (Youll on `logIn`: its session
    /// belongs to the host app, which hands it over with `YoullProvider.setSession(_:)`).
    public var notApplicable: [ProviderID: String]

    /// A report of `succeeded` providers, `failures` by id, and the providers the operation does not
    /// apply to.
    public init(succeeded: [ProviderID] = [], failures: [ProviderID: EngageError] = [:], notApplicable: [ProviderID: String] = [:]) {
        self.succeeded = succeeded
        self.failures = failures
        self.notApplicable = notApplicable
    }

    /// Whether no provider's part failed (providers it does not apply to are not failures).
    public var isComplete: Bool { failures.isEmpty }
}

/// The merged items of an aggregate operation (each tagged with its provider) and its report.
public struct AggregateResult<Item: Sendable>: Sendable {
    /// The items of every provider that succeeded, tagged with their provider.
    public var items: [Item]
    /// Which providers succeeded and which failed.
    public var report: AggregateReport

    /// A result of `items` and `report`.
    public init(items: [Item], report: AggregateReport) {
        self.items = items
        self.report = report
    }

    /// Whether every provider's part succeeded.
    public var isComplete: Bool { report.isComplete }
}
