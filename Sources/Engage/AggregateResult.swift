@_spi(EngageProvider) import EngageCore
/// Which providers an aggregate operation succeeded with, and which failed and why.
public struct AggregateReport: Sendable {
    /// Providers whose part succeeded, in registration order.
    public var succeeded: [ProviderID]
    /// Providers whose part failed.
    public var failures: [ProviderID: EngageError]

    /// A report of `succeeded` providers and `failures` by id.
    public init(succeeded: [ProviderID] = [], failures: [ProviderID: EngageError] = [:]) {
        self.succeeded = succeeded
        self.failures = failures
    }

    /// Whether every provider's part succeeded.
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
