@_spi(EngageProvider) import EngageCore
import Foundation

/// The bearer secrets of a purchased gift card: whoever holds them can spend the card.
///
/// They are stored only sealed (``GiftCardVault``), their JSON keys are hidden by the clients'
/// redactors, and no printed form of this value shows them: `description`, `debugDescription` and the
/// reflection mirror (`dump`, debuggers) list which secrets are present, never their values.
public struct GiftCardSecrets: Codable, Sendable, Hashable {
    /// The card number (CTX `number`).
    public var number: String?
    /// The card PIN (CTX `pin`).
    public var pin: String?
    /// The claim code (PiggyCards `claimCode`).
    public var claimCode: String?
    /// The claim PIN (PiggyCards `claimPin`).
    public var claimPin: String?
    /// A link to the card's barcode image (CTX `barcodeUrl`, PiggyCards `barcodeLink`): it encodes the
    /// card number, so it is a secret too.
    public var barcodeURL: String?
    /// A link that redeems the card (CTX `redeemUrl`, PiggyCards `claimLink`): a bearer link.
    public var redeemURL: String?
    /// What the redeem link asks for before it shows the card (CTX `redeemUrlChallenge`).
    public var redeemURLChallenge: String?

    /// Secrets as delivered by a provider.
    public init(
        number: String? = nil, pin: String? = nil, claimCode: String? = nil, claimPin: String? = nil, barcodeURL: String? = nil,
        redeemURL: String? = nil, redeemURLChallenge: String? = nil
    ) {
        self.number = number
        self.pin = pin
        self.claimCode = claimCode
        self.claimPin = claimPin
        self.barcodeURL = barcodeURL
        self.redeemURL = redeemURL
        self.redeemURLChallenge = redeemURLChallenge
    }

    /// Whether no secret is present (the card is not delivered yet).
    public var isEmpty: Bool {
        [number, pin, claimCode, claimPin, barcodeURL, redeemURL, redeemURLChallenge].allSatisfy { $0 == nil }
    }

    /// The JSON keys under which the providers send these secrets, for `makeAPIClient(sensitiveKeys:)`.
    public static let wireKeys: Set<String> = [
        "number", "pin", "cardNumber", "cardPin", "claimCode", "claimPin", "claimLink", "barcodeUrl", "barcodeLink", "redeemUrl",
        "redeemUrlChallenge",
    ]

    private var presence: [(String, String)] {
        [
            ("number", number), ("pin", pin), ("claimCode", claimCode), ("claimPin", claimPin), ("barcodeURL", barcodeURL),
            ("redeemURL", redeemURL), ("redeemURLChallenge", redeemURLChallenge),
        ]
        .map { ($0.0, $0.1 == nil ? "nil" : "<redacted>") }
    }

    /// `GiftCardSecrets(number: <redacted>, pin: nil, …)`.
    public var description: String {
        "GiftCardSecrets(" + presence.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + ")"
    }

    /// A mirror whose children are the redacted markers, so `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(self, children: presence.map { (label: Optional($0.0), value: $0.1 as Any) }, displayStyle: .struct)
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension GiftCardSecrets: SecretBearing {}
