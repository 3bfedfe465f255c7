@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import Engage
import EngageSandbox

/// One provider's part of `engage-demo`: its configuration section (against the embedded sandbox or
/// the `--<id>-url` override) and its walk-through. `BuiltInScenarios`, generated from the provider
/// catalogue, lists the compiled-in ones; a built-in provider adds `<Name>Scenario.swift` here.
protocol DemoScenario {
    /// The emulator the provider talks to; `--<emulatorID>-url` replaces it where the demo offers one.
    static var emulatorID: String { get }
    /// Adds the provider's section to `configuration`.
    static func configure(_ configuration: inout EngageConfiguration, setup: DemoSetup) throws
    /// A scenario over `engage`; `sandbox` is the embedded sandbox when the provider talks to it.
    init(engage: Engage, sandbox: SandboxHost?)
    /// Runs the walk-through and adds its sections to `report`.
    func run(into report: inout DemoReport) async throws
}
