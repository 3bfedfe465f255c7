@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageExplore
import Foundation

/// Buys one CTX gift card from the CTX service at `--ctx-url` (the real one, `https://spend.ctx.com/`,
/// or the sandbox's emulator): e-mail sign-in with the code from `CTX_CODE` or a terminal, the
/// merchant, the purchase, the payment request to pay with a Dash wallet, and polling until the card is
/// delivered or rejected. Prints the merchant, the amounts, the currency and the status; never the
/// card's number, PIN or links (they are sealed in the vault).
struct ExploreExampleRealPurchase {
    /// What the run prints with `--json`: one document.
    struct Summary: Encodable {
        var cardID: String
        var merchantID: String
        var merchant: String
        var cardAmount: String?
        var cardCurrency: String?
        var paidAmount: String?
        var paidCurrency: String?
        var dashAmount: String?
        var status: String
    }

    let explore: ExploreProvider
    let email: String
    let merchantID: String
    let amount: Decimal
    let output: ExampleOutput

    /// Signs in, buys and waits; returns what is printed.
    func run(environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> Summary {
        let ctx = try explore.giftCardSource(CTXGiftCards.self)
        let code = try await Self.code(
            from: "CTX_CODE", environment: environment, prompt: "The code CTX sent to \(email): ",
            sent: "CTX sent a sign-in code to \(email). Run again with CTX_CODE=<the code> in the environment."
        ) { try await ctx.requestCode(email: email) }
        try await ctx.verify(email: email, code: code)
        output.line("Signed in to CTX as \(email)")
        let merchant = try await ctx.merchant(id: merchantID)
        let card = try await ctx.buyGiftCard(merchantID: merchant.id, fiatAmount: amount)
        output.line("Ordered a \(amount) card at \(merchant.name): \(card.status)")
        if let request = card.paymentURLs?.values.sorted().first {
            output.line("Pay it with a Dash wallet: \(request)")
        }
        output.line("Waiting for the card (polling every 2 s, up to 15 minutes)…")
        let delivered = try await ctx.waitForGiftCard(id: card.id, polling: GiftCardPolling(interval: .seconds(2), maxPolls: 450))
        return Summary(
            cardID: delivered.id, merchantID: merchant.id, merchant: delivered.merchantName ?? merchant.name,
            cardAmount: (delivered.cardFiatAmount ?? card.cardFiatAmount).map(Self.text),
            cardCurrency: delivered.cardFiatCurrency ?? card.cardFiatCurrency,
            paidAmount: (delivered.fiatAmount ?? card.fiatAmount).map(Self.text), paidCurrency: delivered.fiatCurrency ?? card.fiatCurrency,
            dashAmount: (delivered.cryptoAmount ?? card.cryptoAmount).map(Self.text), status: delivered.status.rawValue
        )
    }

    /// The exit status of a run that asked for a code and has no way to read it (no terminal, no
    /// environment variable): run again with the code.
    static let codeSentExitCode: Int32 = 3

    /// The e-mailed code: the environment's `variable` when set (the code of an earlier request; nothing
    /// is asked for), else `request()` then a line from the terminal; without a terminal the run ends
    /// with ``codeSentExitCode`` and `sent`.
    static func code(
        from variable: String, environment: [String: String], prompt: String, sent: String, request: () async throws -> Void
    ) async throws -> String {
        if let code = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !code.isEmpty { return code }
        try await request()
        guard isatty(STDIN_FILENO) == 1 else { throw ExploreExampleError(message: sent, exitCode: codeSentExitCode) }
        FileHandle.standardError.write(Data(prompt.utf8))
        guard let code = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !code.isEmpty else {
            throw ExploreExampleError(message: "No code was entered.")
        }
        return code
    }

    /// Prints the summary as lines, or as one JSON document.
    func print(_ summary: Summary) throws {
        if output.json { return try output.printJSON(summary) }
        output.line("Card \(summary.cardID) at \(summary.merchant): \(summary.status)")
        output.line(
            "  value \(summary.cardAmount ?? "?") \(summary.cardCurrency ?? ""), paid \(summary.paidAmount ?? "?") "
                + "\(summary.paidCurrency ?? ""), \(summary.dashAmount ?? "?") DASH; number and PIN sealed in the vault")
    }

    /// `value` in its shortest decimal form (`25`, `0.80833334`), whatever the locale.
    static func text(_ value: Decimal) -> String {
        NSDecimalNumber(decimal: value).description(withLocale: Locale(identifier: "en_US_POSIX"))
    }
}
