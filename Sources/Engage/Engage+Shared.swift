@_spi(EngageProvider) import EngageCore
import Foundation

extension Engage {
    static let sharedInstance = BootstrapOnce<Engage>(name: "Engage.shared")

    /// Whether ``configure(with:providers:)`` has made the shared instance: ``shared`` is then
    /// that instance.
    public static var isConfigured: Bool { sharedInstance.valueIfBootstrapped != nil }

    /// The instance ``configure(with:providers:)`` made, read without `try`.
    ///
    /// Read before `configure` has returned, it is a stand-in, never a crash: every operation on it
    /// fails with `.notConfigured` (its message names the operation), ``isReady`` is `false`, and
    /// ``waitUntilReady()`` returns a report whose `failures` holds that error. Read it again after `configure` to get the real instance;
    /// check ``isConfigured`` where the order is not certain.
    ///
    /// ```swift
    /// // application(_:didFinishLaunchingWithOptions:)
    /// try Engage.configure(with: configuration)
    ///
    /// // anywhere later
    /// let offers = try await Engage.shared.offers()
    /// ```
    public static var shared: Engage { sharedInstance.valueIfBootstrapped ?? unconfigured }

    /// The stand-in ``shared`` returns before `configure`: no providers, nothing stored.
    static let unconfigured = Engage(unconfiguredStandIn: ())
}
