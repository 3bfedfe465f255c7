/// The network a directory belongs to. Each network has its own files and sync bookkeeping, so
/// switching networks never serves the other network's merchants.
public enum ExploreNetwork: String, Codable, Sendable, CaseIterable {
    /// The production network.
    case mainnet
    /// The test network.
    case testnet
}
