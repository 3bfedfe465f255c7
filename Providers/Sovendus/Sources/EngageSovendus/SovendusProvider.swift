@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

/// Sovendus vouchers: the banner on the order-confirmation screen, coupon redemption and the benefits
/// list, for any web view the app uses.
///
/// ```swift
/// let sovendus = try await engage.provider(SovendusProvider.self)
/// let order = SovendusOrder(id: "Order-123", netValue: 120.5, currency: "EUR", couponCode: "WELCOME10")
/// let consumer = SovendusConsumer(salutation: .mrs, firstName: "Eva", email: "eva@example.com", country: "DE")
/// let page = try sovendus.bannerPage(for: order, consumer: consumer, platform: .ios)
/// // The app's web view loads page.html with page.baseURL, page.initialHeight points high.
/// let bridge = sovendus.bridge(
///     onHeight: { height in print("banner height:", height) },
///     openURL: { url in print("open in the system browser:", url) }
/// )
/// // Its message handler hands over each message as received; its navigation delegate asks the policy.
/// bridge.receive(["type": "height", "value": 420])
/// let decision = page.navigationPolicy.decision(for: URL(string: "https://shop.example/deal"), trigger: .userAction)
/// let receipt = try await sovendus.redeemCoupon(for: order, consumer: consumer)
/// ```
///
/// The library ships no view: ``bannerPage(for:consumer:platform:hasConsent:)`` writes the page,
/// ``SovendusBridge`` reads its messages and ``SovendusNavigationPolicy`` keeps the web view from
/// navigating, all platform-neutral, so the same page works in WKWebView, Android's WebView, Flutter
/// and React Native. Every order and consumer value is written into the page through an encoder that
/// keeps it a string (a `</script>` in a name stays text), and the page's Content-Security-Policy
/// allows scripts only from its own inline block and the configured script origin.
///
/// Network operations have completion-handler forms and publish
/// `custom_{success|error}_{benefits|redeem_coupon}_sovendus`. Failures of calls to Sovendus and
/// refused bridge messages are reported to Sovendus' error telemetry (at most three per provider
/// instance, without personal data) unless `reportsErrors` is off or the user switched analytics off.
public final class SovendusProvider: EngageProvider {
    /// The provider's settings: traffic numbers, Sovendus' URLs, banner heights, telemetry switch.
    public typealias Configuration = SovendusConfiguration

    /// Id `sovendus`: offers (the benefits, as vouchers).
    public static let descriptor = ProviderDescriptor(id: .sovendus, displayName: "Sovendus vouchers", version: "1.0.0")

    /// How the SDK names itself to Sovendus outside a page (`engagekit-swift-1.0.0`); a page says its platform instead.
    static let integrationType = "engagekit-swift-\(descriptor.version)"

    let context: ProviderContext
    let configuration: SovendusConfiguration
    let redemption: APIClient
    let benefitsClient: APIClient?
    let telemetry: SovendusTelemetry
    let pageBuilder: SovendusPageBuilder

    /// Checks the configuration and creates the clients of the redemption, benefits and telemetry APIs.
    @_spi(EngageProvider) public init(configuration: SovendusConfiguration, context: ProviderContext) async throws {
        try configuration.validate(for: .sovendus)
        // The page loads the script and trusts frames of its domain: plain HTTP only on loopback or
        // where insecure HTTP is allowed for development.
        try context.configuration.network.validate(baseURL: configuration.scriptURL, providerID: .sovendus)
        self.context = context
        self.configuration = configuration
        redemption = try context.makeAPIClient(
            baseURL: configuration.redemptionBaseURL,
            policy: ResponsePolicy { answer in
                guard !answer.response.isSuccess, answer.request.options.operation as? SovendusOperation == .redeemCoupon,
                    let error = Self.redemptionError(status: answer.response.status)
                else { return .accept }
                return .fail(error)
            },
            sensitiveKeys: ["email_hash", "coupon_code"]
        )
        benefitsClient = try configuration.benefitsBaseURL.map { try context.makeAPIClient(baseURL: $0) }
        let telemetryClient =
            configuration.reportsErrors ? try context.makeAPIClient(baseURL: configuration.telemetryBaseURL, retry: RetryPolicy.none) : nil
        telemetry = SovendusTelemetry(
            client: telemetryClient, trafficSource: configuration.trafficSourceNumber, trafficMedium: configuration.trafficMediumNumber,
            sdkVersion: Self.descriptor.version, implementationType: Self.integrationType, sandbox: configuration.sandbox,
            consent: context.consent, logger: context.logger
        )
        pageBuilder = SovendusPageBuilder(configuration: configuration, integrationVersion: Self.descriptor.version)
    }

    // MARK: The banner

    /// The banner page for `order` and `consumer`, written for `platform`'s web view.
    ///
    /// Builds locally and sends nothing. Every order and consumer value reaches the page's
    /// `window.sovIframes` and `window.sovConsumer` exactly as given, as a string.
    ///
    /// `hasConsent` is Sovendus' `hasConsent`: whether the consumer agreed to Sovendus' full
    /// functionality (its documentation names user recognition, personalised offers and more analytics).
    /// Without it (the default) Sovendus keeps only anonymised usage data. Recognising the consumer
    /// across Sovendus' partner shops is tracking in Apple's sense: on iOS pass `true` only with the
    /// user's App Tracking Transparency permission, and declare it in the app's privacy details.
    ///
    /// - Throws: `.invalidInput` naming each field that cannot be sent: an empty order id, a net value
    ///   that is negative, not finite or above a trillion, a currency or country that is not an ISO
    ///   code, a year of birth outside 1900...2100, a text field above 64 KiB.
    public func bannerPage(
        for order: SovendusOrder, consumer: SovendusConsumer? = nil, platform: SovendusPlatform, hasConsent: Bool = false
    ) throws(EngageError) -> SovendusBannerPage {
        try pageBuilder.page(order: order, consumer: consumer, platform: platform, now: context.clock.now, hasConsent: hasConsent)
    }

    /// A bridge for a banner page's messages, ignoring heights at or below the configured minimum. A
    /// refused message is logged (without its content) and reported to Sovendus' error telemetry.
    public func bridge(onHeight: @escaping SovendusBridge.HeightHandler, openURL: @escaping SovendusBridge.URLOpener) -> SovendusBridge {
        let logger = context.logger
        let telemetry = telemetry
        let trust = SovendusFrameTrust(pageOrigin: configuration.scriptOrigin, domain: configuration.scriptParentDomain)
        return SovendusBridge(minimumHeight: configuration.minimumBannerHeight, trust: trust, onHeight: onHeight, openURL: openURL) {
            error in
            logger.warning("Sovendus banner message refused", metadata: ["reason": "\(error.message)"])
            telemetry.report(operation: .bridge, error: error)
        }
    }

    // MARK: Coupon redemption

    /// Tells Sovendus that the order's coupon was redeemed (`POST /redeem/{trafficSourceNumber}`):
    /// the consumer's e-mail goes only as its MD5 hash, the value as `"12.34"` whatever the locale.
    ///
    /// A redemption is never sent twice on its own, whatever the answer (even a 503 may come from a
    /// gateway after Sovendus recorded it): a failure says whether it is worth repeating
    /// (`isRetryable`), and repeating it is the app's decision. Any 2xx is a receipt, whatever its body.
    ///
    /// - Throws: `.notConfigured` without `trafficMediumPublicID`; `.invalidInput` for an order without
    ///   a coupon code, a consumer without an e-mail address, or an invalid order (nothing is sent);
    ///   `.sovendusInvalidTrafficSource` (404), `.sovendusRedemptionRejected` (422),
    ///   `.sovendusRedemptionFailed` (500); `.httpStatus` for other statuses.
    public func redeemCoupon(for order: SovendusOrder, consumer: SovendusConsumer) async throws(EngageError) -> SovendusRedemptionReceipt {
        try await context.perform(SovendusOperation.redeemCoupon) {
            let request = try redemptionRequest(order: order, consumer: consumer)
            return try await reportingFailures(.redeemCoupon) {
                let body = try await redemption.data(
                    .post, "/redeem/\(configuration.trafficSourceNumber)", body: .json(request),
                    // Never sent twice by the SDK: whether Sovendus recorded it cannot be known from here.
                    options: RequestOptions(allowsRetry: false)
                )
                // A 2xx means Sovendus took it, whatever the body says: reporting it as a failure would
                // invite the app to redeem twice.
                let message = try? JSONDecoder().decode(SovendusWire.RedemptionResponse.self, from: body).message
                return SovendusRedemptionReceipt(message: message)
            }
        }
    }

    func redemptionRequest(order: SovendusOrder, consumer: SovendusConsumer) throws(EngageError) -> SovendusWire.RedemptionRequest {
        guard let mediumID = configuration.trafficMediumPublicID else {
            throw EngageError(
                .notConfigured, "Coupon redemption needs the traffic medium's public id.", providerID: .sovendus,
                recoverySuggestion: "Set trafficMediumPublicID in the Sovendus configuration (Sovendus gives it with the traffic numbers)."
            )
        }
        var issues = order.validationIssues()
        if (order.couponCode ?? "").isEmpty { issues.append("The order has no coupon code to redeem.") }
        guard let emailHash = consumer.emailHash, !(consumer.email ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw EngageError(
                .invalidInput, (issues + ["A redemption needs the consumer's e-mail address."]).joined(separator: " "),
                providerID: .sovendus)
        }
        guard issues.isEmpty else { throw EngageError(.invalidInput, issues.joined(separator: " "), providerID: .sovendus) }
        return SovendusWire.RedemptionRequest(
            emailHash: emailHash, trafficMediumPublicID: mediumID.uuidString.lowercased(), orderValue: order.formattedNetValue,
            orderCurrency: order.currency, orderID: order.id, couponCode: order.couponCode ?? ""
        )
    }

    static func redemptionError(status: Int) -> EngageError? {
        switch status {
        case 404:
            return EngageError(
                .sovendusInvalidTrafficSource, "Sovendus does not accept the traffic source number.", providerID: .sovendus,
                httpStatus: 404,
                recoverySuggestion: "Check trafficSourceNumber against the numbers Sovendus gave you."
            )
        case 422:
            return EngageError(
                .sovendusRedemptionRejected, "Sovendus rejected the redemption's input.", providerID: .sovendus, httpStatus: 422,
                recoverySuggestion: "Check the traffic medium id, the order value and currency, the order id and the coupon code."
            )
        case 500:
            return EngageError(
                .sovendusRedemptionFailed, "Sovendus could not process the redemption: it does not know an id, or failed itself.",
                providerID: .sovendus, httpStatus: 500,
                recoverySuggestion:
                    "Check trafficMediumPublicID and the coupon. The redemption may have been recorded: do not repeat it blindly."
            )
        default:
            return nil
        }
    }

    // MARK: Benefits

    /// The vouchers Sovendus offers the shop's customers, and its banner (`POST /benefits`).
    ///
    /// The request says only which of the consumer's fields the app has, never their values, as the
    /// native Sovendus SDK does (its `language` too). `language` (e.g. `de`) asks for texts in that
    /// language.
    ///
    /// - Throws: `.notConfigured` without `benefitsBaseURL`; `.invalidInput` for an invalid language
    ///   code; `.decoding` naming the field of an answer with a wrong value, currency or date.
    public func benefits(for consumer: SovendusConsumer? = nil, language: String? = nil) async throws(EngageError) -> SovendusBenefits {
        try await context.perform(SovendusOperation.benefits) {
            guard let client = benefitsClient else {
                throw EngageError(
                    .notConfigured, "Sovendus benefits need benefitsBaseURL.", providerID: .sovendus,
                    recoverySuggestion: "Set benefitsBaseURL in the Sovendus configuration to the benefits service Sovendus named."
                )
            }
            // Only the language asked for: the consumer's own language is personal data.
            if let language, !SovendusConsumer.isLanguageCode(language) {
                throw EngageError(.invalidInput, "The language must be a code such as de or de-AT.", providerID: .sovendus)
            }
            let request = SovendusWire.BenefitsRequest(
                trafficSourceNumber: String(configuration.trafficSourceNumber),
                trafficMediumNumber: String(configuration.trafficMediumNumber),
                integrationType: Self.integrationType, language: language,
                consumer: (consumer ?? SovendusConsumer()).presentFields, sandbox: configuration.sandbox
            )
            return try await reportingFailures(.benefits) {
                try await client.json(
                    SovendusWire.BenefitsResponse.self, .post, "/benefits", body: .json(request)
                ).benefits()
            }
        }
    }

    /// The benefits as `Offer`s of kind `.voucher`, for `engage.offers(_:)`: `query.language` picks the
    /// language and `query.page` the slice; no consumer fields are sent.
    public func offers(_ query: OfferQuery) async throws -> [Offer] {
        let benefits = try await benefits(language: query.language)
        return Array(benefits.products.dropFirst(query.page.offset).prefix(query.page.limit)).map(\.offer)
    }

    /// Runs `body`, reporting a failure that came from talking to Sovendus to the error telemetry.
    private func reportingFailures<Value>(_ operation: SovendusOperation, _ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch {
            let engageError = EngageError.wrapping(error, providerID: .sovendus)
            if engageError.code != .cancelled { telemetry.report(operation: operation, error: engageError) }
            throw engageError
        }
    }
}

// The capabilities the facade fans out to: the provider-author surface.
@_spi(EngageProvider) extension SovendusProvider: OffersProviding {}
