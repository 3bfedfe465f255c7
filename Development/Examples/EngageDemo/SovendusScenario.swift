#if Sovendus
    @_spi(EngageProvider) import Engage
    import EngageEmulators
    import EngageSandbox
    import Foundation
    import SovendusEmulator

    /// Sovendus: the order-confirmation banner page, the benefits list, and a coupon redemption.
    struct SovendusScenario: DemoScenario {
        static let emulatorID = "sovendus"

        let engage: Engage
        /// The embedded sandbox, when the scenario runs against it (to show what the backend received).
        let sandbox: SandboxHost?

        static func configure(_ configuration: inout EngageConfiguration, setup: DemoSetup) throws {
            try configuration.setProvider(.sovendus, SovendusEmulator().providerConfiguration(baseURL: setup.baseURL(for: emulatorID)))
        }

        func run(into report: inout DemoReport) async throws {
            let sovendus = try await engage.provider(SovendusProvider.self)
            let order = SovendusOrder(id: "Order-1001", netValue: Decimal(string: "59.90") ?? 0, currency: "EUR", couponCode: "WELCOME10")
            let consumer = SovendusConsumer(
                salutation: .mrs, firstName: "Eva", lastName: "Muster", email: "eva@example.com", country: "DE", language: "de")
            let page = try sovendus.bannerPage(for: order, consumer: consumer, platform: .ios)
            let benefits = try await sovendus.benefits(for: consumer)
            let receipt = try await sovendus.redeemCoupon(for: order, consumer: consumer)
            report.section("Sovendus vouchers") {
                $0.line(
                    "Banner page for \(order.id): \(page.html.utf8.count) bytes, base \(page.baseURL.absoluteString), start height \(Int(page.initialHeight))"
                )
                $0.line("Benefits: \(benefits.products.map(\.name).joined(separator: "; "))")
                if let banner = benefits.banner { $0.line("Banner: \(banner.title)") }
                $0.line("Coupon redemption: \(receipt.message ?? "received")")
                if let sandbox {
                    let received = sandbox.journal.entries(for: "sovendus")
                    $0.line(
                        "Backend received \(received.count) request(s): \(received.map { "\($0.method) \($0.path)" }.joined(separator: ", "))"
                    )
                }
            }
        }
    }
#endif
