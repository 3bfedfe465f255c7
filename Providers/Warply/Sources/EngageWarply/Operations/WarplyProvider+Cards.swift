@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

/// A payment card to add. The number is sent once, in the request body, and never logged or stored:
/// `description`, `debugDescription` and reflection show only its last four digits and the issuer.
public struct WarplyNewCard: Sendable, Hashable {
    /// The card number (spaces and dashes allowed). Secret: never log it.
    public var number: String
    /// The issuer, e.g. `VISA`.
    public var issuer: String
    /// The holder's name as printed. Personal: never log it.
    public var holder: String
    /// The expiration month, 1...12.
    public var expirationMonth: Int
    /// The expiration year, four digits.
    public var expirationYear: Int

    /// A card.
    public init(number: String, issuer: String, holder: String, expirationMonth: Int, expirationYear: Int) {
        self.number = number
        self.issuer = issuer
        self.holder = holder
        self.expirationMonth = expirationMonth
        self.expirationYear = expirationYear
    }

    /// The masked number and the issuer.
    public var description: String { "WarplyNewCard(\(WarplyCard.mask(number)), \(issuer))" }
}

extension WarplyProvider {
    /// Adds a card to the user's account and returns it as Warply stores it (masked). Needs a
    /// logged-in user.
    ///
    /// - Throws: `.invalidInput` for a number that fails the Luhn check, an expiry in the past, or an
    ///   empty holder — checked before anything is sent.
    public func addCard(_ card: WarplyNewCard) async throws(EngageError) -> WarplyCard {
        try await context.perform(WarplyOperation.addCard) {
            let number = try WarplyInput.cardNumber(card.number)
            try WarplyInput.identifier(card.holder, name: "holder", limit: 128)
            try WarplyInput.identifier(card.issuer, name: "issuer", limit: 64)
            let now = Calendar(identifier: .gregorian).dateComponents(in: WarplyTimestamp.serverTimeZone, from: context.clock.now)
            guard (1...12).contains(card.expirationMonth), (2000...2100).contains(card.expirationYear),
                (card.expirationYear, card.expirationMonth) >= (now.year ?? 0, now.month ?? 0)
            else {
                throw EngageError(.invalidInput, "The card's expiry must be a month from now on.", providerID: .warply)
            }
            let month = card.expirationMonth < 10 ? "0\(card.expirationMonth)" : "\(card.expirationMonth)"
            let request = WarplyContextRequest(
                root: WarplyWire.Root.cards, action: WarplyWire.Action.addCard,
                fields: [
                    "card_number": .string(number), "card_issuer": .string(card.issuer), "cardholder": .string(card.holder),
                    "expiration_month": .string(month), "expiration_year": .string(String(card.expirationYear)),
                ])
            guard
                let added = try await client.context(
                    WarplyCard.self, request, section: WarplyWire.Section.cards, credentials: .bearer
                )
            else {
                throw EngageError(.decoding, "Warply's add card answer is empty.", providerID: .warply)
            }
            logger.debug("Card added", metadata: ["card": "\(WarplyCard.mask(number))"])
            return added
        }
    }

    /// The user's cards (masked). Needs a logged-in user.
    public func cards() async throws(EngageError) -> [WarplyCard] {
        try await context.perform(WarplyOperation.getCards) {
            try await client.context(
                [WarplyCard].self, WarplyContextRequest(root: WarplyWire.Root.cards, action: WarplyWire.Action.getCards),
                section: WarplyWire.Section.cards, credentials: .bearer
            ) ?? []
        }
    }

    /// Deletes the card with `token` (``WarplyCard/token``). Needs a logged-in user.
    public func deleteCard(token: String) async throws(EngageError) {
        try await context.perform(WarplyOperation.deleteCard) {
            try WarplyInput.identifier(token, name: "token", limit: 256)
            _ = try await client.context(
                JSONValue.self,
                WarplyContextRequest(root: WarplyWire.Root.cards, action: WarplyWire.Action.deleteCard, fields: ["token": .string(token)]),
                section: WarplyWire.Section.cards, credentials: .bearer
            )
        }
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension WarplyNewCard: SecretBearing {}
