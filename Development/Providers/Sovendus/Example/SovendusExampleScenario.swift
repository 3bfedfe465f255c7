@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageSovendus
import Foundation
import Logging

/// The order-confirmation scenario, on a registry with only the Sovendus provider (in memory: the
/// provider keeps nothing on the device).
struct SovendusExampleScenario {
    let registry: ProviderRegistry
    let sovendus: SovendusProvider

    static let appID = "org.engagekit.sovendus-example"

    init(configuration sovendusConfiguration: SovendusConfiguration) async throws {
        var configuration = EngageConfiguration.preset(.development, appID: Self.appID)
        configuration.storage = .inMemory
        configuration.logLevel = .error
        try configuration.setProvider(.sovendus, sovendusConfiguration)
        registry = try ProviderRegistry(
            configuration: configuration, environment: RegistryEnvironment(logger: ExampleBackend.quietLogger(label: "sovendus-example"))
        )
        try await registry.register(.provider(SovendusProvider.self, from: configuration))
        let report = await registry.start()
        if let failure = report.failures[.sovendus] { throw failure }
        sovendus = try await registry.provider(SovendusProvider.self)
    }

    /// What `--json` prints.
    struct Report: Encodable {
        var page: String
        var benefits: [SovendusBenefit]
        /// Why the benefits could not be listed, when they could not: they are optional, and never
        /// stop the page or the redemption.
        var benefitsError: String?
        var redemption: SovendusRedemptionReceipt?
    }

    /// Writes the page to `out`, lists the benefits and, with `redeem`, redeems the coupon; returns the page.
    func run(
        order: SovendusOrder, consumer: SovendusConsumer, platform: SovendusPlatform, out: URL, redeem: Bool, output: ExampleOutput
    ) async throws -> SovendusBannerPage {
        let page = try sovendus.bannerPage(for: order, consumer: consumer, platform: platform)
        do {
            try Data(page.html.utf8).write(to: out, options: .atomic)
        } catch {
            throw EngageError(.storage, "The page could not be written to \(out.path).", providerID: .sovendus, underlyingError: error)
        }
        // Benefits are an optional extra: a backend without them (as Sovendus' own redemption host)
        // must not stop the page or the redemption.
        let benefits: SovendusBenefits?
        let benefitsError: EngageError?
        do {
            benefits = try await sovendus.benefits(for: consumer)
            benefitsError = nil
        } catch {
            benefits = nil
            benefitsError = error
        }
        let receipt = redeem ? try await sovendus.redeemCoupon(for: order, consumer: consumer) : nil
        if output.json {
            try output.printJSON(
                Report(page: out.path, benefits: benefits?.products ?? [], benefitsError: benefitsError?.description, redemption: receipt))
            return page
        }
        output.section("Banner page")
        output.line(
            "\(out.path): \(page.html.utf8.count) bytes for \(platform.rawValue), load with base URL \(page.baseURL.absoluteString)")
        output.line("start height \(Int(page.initialHeight)) pt; Content-Security-Policy: \(page.contentSecurityPolicy)")
        output.section("Benefits")
        if let benefitsError { output.line("unavailable (the page and the redemption do not need them): \(benefitsError.description)") }
        for benefit in benefits?.products ?? [] {
            let value = benefit.value.map { " (\($0))" } ?? ""
            output.line("\(benefit.id): \(benefit.name)\(value)\(benefit.partner.map { " at \($0)" } ?? "")")
        }
        if let banner = benefits?.banner { output.line("banner: \(banner.title)") }
        if let receipt { output.section("Coupon redemption"); output.line(receipt.message ?? "Sovendus received it (no message).") }
        return page
    }

    func shutdown() async {
        await registry.shutdown()
    }
}
