@_spi(EngageProvider) import EngageSandbox
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension WarplyEmulator {
    /// `cards`/`add_card`: stores the card with its number masked (`ServedCard.mask`) and a fresh token;
    /// a number that is not 12 to 19 digits (spaces and dashes ignored) is a section status 2 refusal.
    func addCard(_ body: WarplyEmulatorContextRequest, email: String, environment: EmulatorEnvironment) throws -> Response {
        let digits = (body.string("card_number") ?? "").filter { $0 != " " && $0 != "-" }
        guard (12...19).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return try Self.sectionFailure("MAPP_CARDS", "Invalid card number.")
        }
        let card = state.withLock { state -> ServedCard? in
            guard var user = state.users[email] else { return nil }
            user.cardCount += 1
            var generator = environment.makeGenerator(stream: "card/\(email)/\(user.cardCount)")
            let card = ServedCard(
                token: "card_" + generator.nextHex(byteCount: 12), maskedNumber: ServedCard.mask(digits),
                issuer: body.string("card_issuer"), holder: body.string("cardholder"),
                expirationMonth: body.string("expiration_month"), expirationYear: body.string("expiration_year"),
                isDefault: user.cards.isEmpty
            )
            user.cards.append(card)
            state.users[email] = user
            return card
        }
        guard let card else { throw WarplyEmulatorRejection.unauthorized("The session has ended: log in again.") }
        return try Self.contextAnswer("MAPP_CARDS", card)
    }

    /// `cards`/`delete_card`: removes the card `token` and answers the remaining cards, or a section
    /// status 2 refusal for an unknown token.
    func deleteCard(token: String, email: String) throws -> Response {
        let remaining = state.withLock { state -> [ServedCard]? in
            guard var user = state.users[email], let index = user.cards.firstIndex(where: { $0.token == token }) else { return nil }
            let removed = user.cards.remove(at: index)
            if removed.isDefault, !user.cards.isEmpty { user.cards[0].isDefault = true }
            state.users[email] = user
            return user.cards
        }
        guard let remaining else { return try Self.sectionFailure("MAPP_CARDS", "Unknown card.") }
        return try Self.contextAnswer("MAPP_CARDS", remaining)
    }
}
