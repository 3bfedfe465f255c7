/// Which providers an aggregate operation succeeded with, and which failed and why.
public struct AggregateReport: Sendable {
    /// Providers whose part succeeded, in registration order.
    public var succeeded: [ProviderID]
    /// Providers whose part failed.
    public var failures: [ProviderID: EngageError]

    public init(succeeded: [ProviderID] = [], failures: [ProviderID: EngageError] = [:]) {
        self.succeeded = succeeded
        self.failures = failures
    }

    /// Whether every provider's part succeeded.
    public var isComplete: Bool { failures.isEmpty }
}

/// The merged items of an aggregate operation (each tagged with its provider) and its report.
public struct AggregateResult<Item: Sendable>: Sendable {
    public var items: [Item]
    public var report: AggregateReport

    public init(items: [Item], report: AggregateReport) {
        self.items = items
        self.report = report
    }

    /// Whether every provider's part succeeded.
    public var isComplete: Bool { report.isComplete }
}
