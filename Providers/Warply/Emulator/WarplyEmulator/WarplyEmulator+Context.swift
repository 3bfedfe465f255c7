@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) import EngageWarply
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension WarplyEmulator {
    func addContextRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.post("api/mobile/v2/:appUUID/context") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(WarplyContextRequest.self, from: data, expected: Self.contextShape)
                if let answer = try self.answerStandard(body) { return answer }
                if Self.isAuthenticatedAction(body) {
                    throw WarplyEmulatorRejection.refused("unknown action: \(body.root)/\(body.action) needs the authenticated context")
                }
                throw WarplyEmulatorRejection.refused("unknown action")
            }
        }
        // The scoped route, and the un-scoped `pay/context` older public clients use.
        for path in ["oauth/:appUUID/context", "pay/context"] {
            group.post(RouterPath(path)) { request, context in
                try await self.respond {
                    let data = try await self.readBody(request, context: context)
                    try self.verifySigned(request, environment: environment)
                    let session = try self.authenticate(request, environment: environment)
                    let body = try self.decode(WarplyContextRequest.self, from: data, expected: Self.contextShape)
                    if let answer = try self.answerStandard(body) { return answer }
                    if let answer = try self.answerAuthenticated(body, email: session.email, environment: environment) { return answer }
                    throw WarplyEmulatorRejection.refused("unknown action")
                }
            }
        }
    }

    /// The context body shape, for 400 messages.
    static let contextShape = #"{"<root>":{"action":"…",…}}"#

    /// The answer to a standard-context action, or `nil` when `body` is not one.
    func answerStandard(_ body: WarplyContextRequest) throws -> Response? {
        let language = WarplyLanguage(requested: body.string("language"))
        typealias Action = WarplyWire.Action
        switch (body.root, body.action) {
        case (WarplyWire.Root.campaigns, Action.retrieve):
            return try Self.contextAnswer(WarplyWire.Section.campaigning, campaigns(body, language: language))
        case (WarplyWire.Root.campaigns, Action.retrieveSupermarket):
            let supermarket = try catalogue().campaigns[language, default: []].filter(\.isSupermarket)
            return try Self.contextAnswer(WarplyWire.Section.campaigning, supermarket)
        case (WarplyWire.Root.coupon, Action.availability):
            return try Self.contextAnswer(WarplyWire.Section.coupon, availabilityList())
        case (WarplyWire.Root.coupon, Action.couponSets):
            return try Self.contextAnswer(WarplyWire.Section.coupon, catalogue().couponSets[language, default: []])
        case (WarplyWire.Root.shops, Action.retrieveMultilingual):
            return try Self.contextAnswer(WarplyWire.Section.shops, merchants(body, language: language))
        case (WarplyWire.Root.shops, Action.merchantCategories):
            return try Self.contextAnswer(WarplyWire.Section.shops, catalogue().categories[language, default: []])
        case (WarplyWire.Root.content, Action.retrieveMultilingual):
            return try Self.contextAnswer(WarplyWire.Section.content, articles(body, language: language))
        default:
            return nil
        }
    }

    /// The answer to an authenticated-context action of `email`, or `nil` when `body` is not one.
    func answerAuthenticated(_ body: WarplyContextRequest, email: String, environment: EmulatorEnvironment) throws -> Response? {
        let language = WarplyLanguage(requested: body.string("language"))
        typealias Action = WarplyWire.Action
        switch (body.root, body.action) {
        case (WarplyWire.Root.campaigns, Action.retrievePersonalized):
            return try Self.contextAnswer(WarplyWire.Section.campaigning, personalizedCampaigns(email: email, language: language))
        case (WarplyWire.Root.coupon, Action.userCoupons):
            return try Self.contextAnswer(
                WarplyWire.Section.coupon, userCoupons(email: email, types: body.strings("couponset_types"), language: language))
        case (WarplyWire.Root.coupon, Action.universalCoupons):
            return try Self.contextAnswer(WarplyWire.Section.coupon, userCoupons(email: email, types: [], language: language))
        case (WarplyWire.Root.coupon, Action.validate):
            return try Self.contextAnswer(
                WarplyWire.Section.coupon, validate(code: body.string("coupon") ?? "", email: email, language: language))
        case (WarplyWire.Root.coupon, Action.redeem):
            return try redeem(body, email: email, environment: environment)
        case (WarplyWire.Root.coupon, Action.redeemedSupermarketHistory):
            return try Self.contextAnswer(WarplyWire.Section.coupon, supermarketHistory(email: email, language: language))
        case (WarplyWire.Root.consumerData, Action.userDetails):
            return try profileAnswer(body, email: email)
        case (WarplyWire.Root.consumerData, Action.transactionHistory):
            return try Self.contextAnswer(WarplyWire.Section.transactions, user(email).transactions)
        case (WarplyWire.Root.consumerData, Action.pointsHistory):
            return try Self.contextAnswer(WarplyWire.Section.points, user(email).pointsHistory)
        case (WarplyWire.Root.consumerData, Action.marketPass):
            return try Self.contextAnswer(WarplyWire.Section.marketPass, marketPass(email: email, language: language))
        case (WarplyWire.Root.cards, Action.addCard):
            return try addCard(body, email: email, environment: environment)
        case (WarplyWire.Root.cards, Action.getCards):
            return try Self.contextAnswer(WarplyWire.Section.cards, user(email).cards)
        case (WarplyWire.Root.cards, Action.deleteCard):
            return try deleteCard(token: body.string("token") ?? "", email: email)
        default:
            return nil
        }
    }

    /// Whether `body` names an action only the authenticated context serves.
    static func isAuthenticatedAction(_ body: WarplyContextRequest) -> Bool {
        typealias Action = WarplyWire.Action
        let actions: [String: Set<String>] = [
            WarplyWire.Root.campaigns: [Action.retrievePersonalized],
            WarplyWire.Root.coupon: [
                Action.userCoupons, Action.universalCoupons, Action.validate, Action.redeem, Action.redeemedSupermarketHistory,
            ],
            WarplyWire.Root.consumerData: [Action.userDetails, Action.transactionHistory, Action.pointsHistory, Action.marketPass],
            WarplyWire.Root.cards: [Action.addCard, Action.getCards, Action.deleteCard],
        ]
        return actions[body.root]?.contains(body.action) == true
    }

    /// The stored user `email` (a live session always has one).
    func user(_ email: String) throws -> WarplyEmulatorUser {
        guard let user = state.withLock({ $0.users[email] }) else {
            throw WarplyEmulatorRejection.unauthorized("The session has ended: log in again.")
        }
        return user
    }
}
