@_spi(EngageProvider) import EngageSandbox
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension WarplyEmulator {
    func addContextRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.post("api/mobile/v2/:appUUID/context") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(WarplyEmulatorContextRequest.self, from: data, expected: Self.contextShape)
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
                    let body = try self.decode(WarplyEmulatorContextRequest.self, from: data, expected: Self.contextShape)
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
    func answerStandard(_ body: WarplyEmulatorContextRequest) throws -> Response? {
        let language = ServedLanguage(requested: body.string("language"))
        switch (body.root, body.action) {
        case ("campaigns", "retrieve"):
            return try Self.contextAnswer("MAPP_CAMPAIGNING", campaigns(body, language: language))
        case ("campaigns", "retrieve_supermarket"):
            let supermarket = try catalogue().campaigns[language, default: []].filter { $0.isSupermarket }
            return try Self.contextAnswer("MAPP_CAMPAIGNING", supermarket)
        case ("coupon", "availability"):
            return try Self.contextAnswer("MAPP_COUPON", availabilityList())
        case ("coupon", "retrieve_multilingual"):
            return try Self.contextAnswer("MAPP_COUPON", catalogue().couponSets[language, default: []])
        case ("shops", "retrieve_multilingual"):
            return try Self.contextAnswer("MAPP_SHOPS", merchants(body, language: language))
        case ("shops", "get_merchant_categories"):
            return try Self.contextAnswer("MAPP_SHOPS", catalogue().categories[language, default: []])
        case ("content", "retrieve_multilingual"):
            return try Self.contextAnswer("MAPP_CONTENT", articles(body, language: language))
        default:
            return nil
        }
    }

    /// The answer to an authenticated-context action of `email`, or `nil` when `body` is not one.
    func answerAuthenticated(_ body: WarplyEmulatorContextRequest, email: String, environment: EmulatorEnvironment) throws -> Response? {
        let language = ServedLanguage(requested: body.string("language"))
        switch (body.root, body.action) {
        case ("campaigns", "retrieve_personalized"):
            return try Self.contextAnswer("MAPP_CAMPAIGNING", personalizedCampaigns(email: email, language: language))
        case ("coupon", "user_coupons"):
            return try Self.contextAnswer(
                "MAPP_COUPON", userCoupons(email: email, types: body.strings("couponset_types"), language: language))
        case ("coupon", "user_coupons_universal"):
            return try Self.contextAnswer("MAPP_COUPON", userCoupons(email: email, types: [], language: language))
        case ("coupon", "validate"):
            return try Self.contextAnswer(
                "MAPP_COUPON", validate(code: body.string("coupon") ?? "", email: email, language: language))
        case ("coupon", "redeem"):
            return try redeem(body, email: email, environment: environment)
        case ("coupon", "get_redeemed_sm_history"):
            return try Self.contextAnswer("MAPP_COUPON", supermarketHistory(email: email, language: language))
        case ("consumer_data", "handle_user_details"):
            return try profileAnswer(body, email: email)
        case ("consumer_data", "get_transaction_history"):
            return try Self.contextAnswer("MAPP_TRANSACTIONS", user(email).transactions)
        case ("consumer_data", "get_points_history"):
            return try Self.contextAnswer("MAPP_POINTS", user(email).pointsHistory)
        case ("consumer_data", "integration"):
            return try Self.contextAnswer("MAPP_MARKET_PASS", marketPass(email: email, language: language))
        case ("cards", "add_card"):
            return try addCard(body, email: email, environment: environment)
        case ("cards", "get_cards"):
            return try Self.contextAnswer("MAPP_CARDS", user(email).cards)
        case ("cards", "delete_card"):
            return try deleteCard(token: body.string("token") ?? "", email: email)
        default:
            return nil
        }
    }

    /// Whether `body` names an action only the authenticated context serves.
    static func isAuthenticatedAction(_ body: WarplyEmulatorContextRequest) -> Bool {
        let actions: [String: Set<String>] = [
            "campaigns": ["retrieve_personalized"],
            "coupon": [
                "user_coupons", "user_coupons_universal", "validate", "redeem", "get_redeemed_sm_history",
            ],
            "consumer_data": ["handle_user_details", "get_transaction_history", "get_points_history", "integration"],
            "cards": ["add_card", "get_cards", "delete_card"],
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
