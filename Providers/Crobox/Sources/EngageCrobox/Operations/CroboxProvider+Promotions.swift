@_spi(EngageProvider) import EngageCore
import Foundation
import Logging
import HTTPTypes

extension CroboxProvider {
    /// The promotions Crobox's campaigns choose for a placeholder on `page`, for zero or more products
    /// (sent in the given order).
    ///
    /// - Throws: `.croboxUnknownContainer` when Crobox answers 405 for the container id; `.httpStatus`
    ///   (retryable) for 5xx; `.decoding` naming the field for a body that is not the promotions shape
    ///   (invalid UUIDs included); `.invalidInput` for an empty placeholder id or more than 100 products.
    public func promotions(
        placeholderID: String, page: CroboxPage, productIDs: [String] = []
    ) async throws(EngageError) -> CroboxPromotionsResponse {
        try await context.perform(CroboxOperation.promotions) {
            do {
                return try await fetchPromotions(placeholderID: placeholderID, page: page, productIDs: productIDs)
            } catch let error as EngageError where error.code != .invalidInput {
                reportOwnFailure(.promotions, error, page: page)
                throw error
            }
        }
    }

    private func fetchPromotions(placeholderID: String, page: CroboxPage, productIDs: [String]) async throws -> CroboxPromotionsResponse {
        guard !placeholderID.isEmpty, placeholderID.count <= 64 else {
            throw EngageError(.invalidInput, "The placeholder id must be 1 to 64 characters.", providerID: .crobox)
        }
        guard productIDs.count <= 100 else {
            throw EngageError(
                .invalidInput, "At most 100 product ids per promotions request (got \(productIDs.count)).", providerID: .crobox)
        }
        let query =
            commonQueryItems(page: page, at: context.clock.now)
            + [(CroboxWire.Key.placeholderID, placeholderID)]
            + customPropertyItems(page: page)
        let response = try await client.json(
            CroboxPromotionsResponse.self, .post, "/promotions", query: query.map { ($0.0, $0.1) },
            body: .data(Data(CroboxWire.promotionsBody(productIDs: productIDs).utf8), contentType: "application/x-www-form-urlencoded"),
            // Named here, not taken from the enclosing call: the 405 rule applies to this request alone.
            options: RequestOptions(operation: CroboxOperation.promotions)
        )
        if response.droppedPromotionCount > 0 || response.droppedValueCount > 0 {
            context.logger.warning(
                "Crobox's promotions answer had values this SDK could not read; they were left out, the rest is kept",
                metadata: [
                    "dropped_promotions": "\(response.droppedPromotionCount)", "dropped_values": "\(response.droppedValueCount)",
                    "kept_promotions": "\(response.promotions.count)",
                ])
        }
        return response
    }

    /// Queues one `t=error&tg=sdk` event for a failed operation, rate-limited per operation.
    func reportOwnFailure(_ operation: CroboxOperation, _ error: EngageError, page: CroboxPage) {
        guard configuration.reportsOwnErrors, errorReporter.shouldReport(operation.name.rawValue) else { return }
        let event = CroboxEvent.error(
            tag: "sdk", name: operation.name.rawValue, message: context.redactor.redact(text: String(error.message.prefix(200))))
        let query = eventQuery(event, page: page)
        let analytics = context.analytics
        Task { _ = try? await analytics.enqueue(Data(query.utf8), destination: Self.eventDestination) }
    }
}
