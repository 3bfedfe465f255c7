@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

extension WarplyProvider {
    /// The user's transactions, newest first. Needs a logged-in user.
    ///
    /// - Parameter productDetail: The level of product detail Warply includes (`"min"` by default).
    public func transactionHistory(productDetail: String = "min") async throws(EngageError) -> [WarplyTransaction] {
        try await context.perform(WarplyOperation.transactionHistory) {
            try WarplyInput.identifier(productDetail, name: "productDetail", limit: 32)
            let transactions =
                try await client.context(
                    [WarplyTransaction].self,
                    WarplyContextRequest(
                        root: WarplyWire.Root.consumerData, action: WarplyWire.Action.transactionHistory,
                        fields: [
                            "product_detail": .string(productDetail)
                        ]),
                    section: WarplyWire.Section.transactions, credentials: .bearer
                ) ?? []
            return WarplyHistoryProcessing.newestFirst(transactions)
        }
    }

    /// The user's points history, newest first. Needs a logged-in user.
    public func pointsHistory() async throws(EngageError) -> [WarplyPointsEntry] {
        try await context.perform(WarplyOperation.pointsHistory) {
            let entries =
                try await client.context(
                    [WarplyPointsEntry].self,
                    WarplyContextRequest(root: WarplyWire.Root.consumerData, action: WarplyWire.Action.pointsHistory),
                    section: WarplyWire.Section.points, credentials: .bearer
                ) ?? []
            return WarplyHistoryProcessing.newestFirst(entries)
        }
    }
}
