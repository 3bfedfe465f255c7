@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

extension SovendusEmulator: InspectableEmulator {
    /// Four tables, newest first: `Redemptions` (order, value, currency, the coupon code by its last
    /// four, the e-mail hash and the traffic numbers), `Error reports` (the telemetry's counter and
    /// message), `Benefit requests` (which consumer fields the app said it has, and which not; Sovendus
    /// never receives their values) and `Hosted pages`. ``reset()`` empties them all.
    public func inspect() -> EmulatorStateView {
        let (redemptions, reports, benefitRequests, pageSizes) = state.withLock { state in
            (
                Array(state.redemptions.suffix(EmulatorStateView.rowLimit)), Array(state.errorReports.suffix(EmulatorStateView.rowLimit)),
                Array(state.benefitRequests.suffix(EmulatorStateView.rowLimit)), state.pages.map(\.utf8.count)
            )
        }
        let redemptionRows = redemptions.reversed().map { redemption -> [String] in
            [
                redemption.orderID, redemption.orderValue, redemption.orderCurrency, EmulatorStateView.lastFour(redemption.couponCode),
                redemption.emailHash, redemption.trafficSourceNumber, redemption.trafficMediumPublicID,
            ]
        }
        let reportRows = reports.reversed().map { [String($0.counter), $0.message, String($0.body.count)] }
        let benefitRows = benefitRequests.reversed().map { fields -> [String] in
            [
                fields.filter { $0.value }.keys.sorted().joined(separator: ", "),
                fields.filter { !$0.value }.keys.sorted().joined(separator: ", "),
            ]
        }
        let pageRows = pageSizes.enumerated().reversed().prefix(EmulatorStateView.rowLimit).map {
            ["pages/\($0.offset + 1)", String($0.element)]
        }
        return EmulatorStateView(tables: [
            .init(
                title: "Redemptions",
                columns: ["order", "value", "currency", "coupon code", "e-mail hash", "traffic source", "traffic medium"],
                rows: redemptionRows
            ),
            .init(title: "Error reports", columns: ["counter", "message", "bytes"], rows: reportRows),
            .init(title: "Benefit requests", columns: ["consumer fields present", "consumer fields absent"], rows: benefitRows),
            .init(title: "Hosted pages", columns: ["path", "bytes"], rows: Array(pageRows)),
        ])
    }
}
