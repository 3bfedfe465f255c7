@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@_spi(EngageProvider) import EngageCore

extension CroboxEmulator {
    func addPromotionRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.post("promotions") { request, context in
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            guard let text = String(bytes: body.readableBytesView, encoding: .utf8) else {
                return CroboxRejection.invalidRequest("The body must be UTF-8 text.").response
            }
            return try self.answerPromotions(
                rawQuery: request.uri.query ?? "", body: text, contentType: request.headers[.contentType],
                environment: environment
            )
        }
    }

    /// Verifies, records and answers one promotions request.
    func answerPromotions(
        rawQuery: String, body: String, contentType: String?, environment: EmulatorEnvironment
    ) throws -> Response {
        let request: CroboxPromotionRequest
        do {
            try Self.verifyChecksum(rawQuery: rawQuery)
            request = try CroboxPromotionRequest(
                rawQuery: rawQuery, body: body, contentType: contentType,
                knownContainerIDs: configuration.containerIDs, receivedAt: environment.now()
            )
        } catch {
            environment.logger.debug("Rejected promotions request: \(error.description)")
            return error.response
        }
        let sessionID = state.withLock { state in
            state.promotionRequests.append(request)
            return state.sessionID(for: request.visitorID, environment: environment)
        }
        let answer = response(to: request, sessionID: sessionID, environment: environment)
        let body =
            (try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return SandboxResponse.raw(body, status: .ok, headers: [.contentType: "application/json"])
    }

    /// The promotions for `request`: one per product in request order, or one for the page. The
    /// emulator writes the JSON itself, in the shape of the official SDK's test document
    /// (`PromotionResponseTests.swift` in crobox-sdk-ios; see the Crobox tests' `Fixtures`): `context`
    /// with `experiments`, `groupName`, `pid`, `sid`; each promotion with `id`, `productId`, `campaignId`,
    /// `variantId`, `experimentId`, `parameters`, and `content` (`id`, `component`, `config`) unless
    /// its campaign is a control group.
    func response(to request: CroboxPromotionRequest, sessionID: UUID, environment: EmulatorEnvironment) -> [String: Any] {
        let campaigns = configuration.campaigns
        var context: [String: Any] = [
            "experiments": campaigns.map { campaign -> [String: Any] in
                [
                    "id": campaign.id, "name": campaign.name, "variantId": campaign.variantID, "variantName": campaign.variantName,
                    "control": campaign.isControl,
                ]
            },
            "pid": request.visitorID.uuidString, "sid": sessionID.uuidString,
        ]
        if !campaigns.isEmpty { context["groupName"] = campaigns.map { "\($0.name) : \($0.variantName)" }.joined(separator: ", ") }
        let targets: [String?] = request.productIDs.isEmpty ? [nil] : request.productIDs
        var promotions: [[String: Any]] = []
        for (index, productID) in targets.enumerated() {
            // The page-level promotion is keyed by the placeholder id.
            let key = productID ?? request.placeholderID
            guard let campaign = Self.element(of: campaigns, for: key, hashSeed: 1) else { continue }
            let promotionID = Self.deterministicUUID(
                environment: environment, "promotion", request.containerID, request.visitorID.uuidString,
                request.viewID ?? "", request.placeholderID, productID ?? "", String(index)
            )
            var promotion: [String: Any] = [
                "id": promotionID.uuidString.lowercased(), "campaignId": campaign.id, "variantId": campaign.variantID,
                "experimentId": campaign.id, "parameters": [String: Any](),
            ]
            if let productID { promotion["productId"] = productID }
            if !campaign.isControl, let content = content(for: key, campaign: campaign, environment: environment) {
                promotion["content"] = content
            }
            promotions.append(promotion)
        }
        return ["context": context, "promotions": promotions]
    }

    /// The catalogue message for `key`, with a message id that depends on the message and the campaign.
    private func content(for key: String, campaign: Campaign, environment: EmulatorEnvironment) -> [String: Any]? {
        let catalogue = configuration.catalogue
        guard let messageIndex = Self.index(count: catalogue.count, for: key, hashSeed: 0) else { return nil }
        let message = catalogue[messageIndex]
        let messageID = Self.deterministicUUID(
            environment: environment, "message", String(messageIndex), String(campaign.id), String(campaign.variantID)
        )
        return ["id": messageID.uuidString.lowercased(), "component": message.componentName, "config": message.config]
    }

    /// A version-4-shaped UUID derived from the host's seed, the emulator id and `parts` (length-prefixed,
    /// so no two different part lists collide by concatenation).
    static func deterministicUUID(environment: EmulatorEnvironment, _ parts: String...) -> UUID {
        var generator = environment.makeGenerator(stream: parts.map { "\($0.utf8.count):\($0)" }.joined())
        var bytes: [UInt8] = []
        for word in [generator.next(), generator.next()] {
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }
}

extension CroboxEmulatorState {
    /// The session of `visitorID`, issued on first use: derived from the seed, the visitor and the
    /// session generation, so it is stable for the emulator's lifetime and independent of arrival order.
    mutating func sessionID(for visitorID: UUID, environment: EmulatorEnvironment) -> UUID {
        if let existing = sessions[visitorID] { return existing }
        let issued = CroboxEmulator.deterministicUUID(
            environment: environment, "session", String(sessionGeneration), visitorID.uuidString
        )
        sessions[visitorID] = issued
        return issued
    }
}
