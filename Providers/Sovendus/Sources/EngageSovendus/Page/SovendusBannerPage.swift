import Crypto
@_spi(EngageProvider) import EngageCore
import Foundation

/// A complete Sovendus banner page for one order, ready for the app's web view.
///
/// Load ``html`` with ``baseURL`` (WKWebView's `loadHTMLString(_:baseURL:)`, Android's
/// `loadDataWithBaseURL`), start the view at ``initialHeight``, hand what the page posts to a
/// ``SovendusBridge``, and decide navigation with ``navigationPolicy``. The page carries the
/// consumer's personal data, so its description, `dump` and mirror show only its size and platform.
public struct SovendusBannerPage: Sendable, Hashable {
    /// The HTML document.
    public let html: String
    /// The URL to load the document with: the script's origin, so that relative URLs and the page's
    /// origin are Sovendus'.
    public let baseURL: URL
    /// The web view the page was written for.
    public let platform: SovendusPlatform
    /// The height, in points, to give the web view until the page reports its own.
    public let initialHeight: Double
    /// The page's Content-Security-Policy (also in its `<meta>` tag): scripts only from the page's
    /// own inline block (by SHA-256 hash) and from the configured script origin.
    public let contentSecurityPolicy: String

    /// The navigation rules for a web view showing this page.
    public var navigationPolicy: SovendusNavigationPolicy { SovendusNavigationPolicy(pageURL: baseURL) }

    /// The platform, base URL and size; never the content.
    public var description: String {
        "SovendusBannerPage(platform: \(platform.rawValue), baseURL: \(baseURL.absoluteString), bytes: \(html.utf8.count))"
    }
}

/// What the page's inline script receives: the `sovIframes` entries (the Voucher Network banner's,
/// then the Checkout Benefits banner's when configured) and `sovConsumer`, every value a string, as
/// Sovendus' script expects.
struct SovendusPageData: Encodable {
    var iframes: [[String: String]]
    var consumer: [String: String]
    /// Sovendus' `hasConsent`, a boolean in every `sovIframes` entry (the official integration asks
    /// for a boolean, not a string).
    var hasConsent: Bool
    /// Whose `sovendus:integration` messages the page forwards: the script's `origin`, and https
    /// origins under its parent `domain` (empty for an IP address).
    var trust: [String: String]
}

/// Writes banner pages. Every order and consumer value goes through
/// ``SovendusPageEncoding/scriptJSON(_:)``; configuration values through
/// ``SovendusPageEncoding/attribute(_:)``; everything else is constant text.
struct SovendusPageBuilder: Sendable {
    let configuration: SovendusConfiguration
    /// `engagekit-<platform>-<version>`: `integrationType` with the platform filled in.
    let integrationVersion: String
    /// Whether the page carries its Content-Security-Policy (tests switch it off to show that the
    /// encoder alone keeps hostile values inert).
    var includesContentSecurityPolicy = true

    /// The Voucher Network banner's container.
    static let containerID = "sovendus-voucher-banner"
    /// The Checkout Benefits banner's container, on pages of a configuration that has its number.
    static let checkoutBenefitsContainerID = "sovendus-checkout-benefits-banner"

    func page(
        order: SovendusOrder, consumer: SovendusConsumer?, platform: SovendusPlatform, now: Date, hasConsent: Bool = false
    ) throws(EngageError) -> SovendusBannerPage {
        let issues = order.validationIssues() + (consumer?.validationIssues() ?? [])
        guard issues.isEmpty else {
            throw EngageError(
                .invalidInput, "The banner page cannot be built: " + issues.joined(separator: " "), providerID: .sovendus,
                recoverySuggestion: "Correct the order or consumer fields named."
            )
        }
        let data = SovendusPageData(
            iframes: iframeEntries(order: order, platform: platform, now: now),
            consumer: Self.consumerEntry(consumer ?? SovendusConsumer()), hasConsent: hasConsent,
            trust: ["origin": configuration.scriptOrigin, "domain": configuration.scriptParentDomain ?? ""]
        )
        let json: String
        do {
            json = try SovendusPageEncoding.scriptJSON(data)
        } catch {
            throw EngageError(.invalidInput, "The banner data could not be encoded.", providerID: .sovendus, underlyingError: error)
        }
        let script = Self.inlineScript(json: json, platform: platform)
        let hash = Data(SHA256.hash(data: Data(script.utf8))).base64EncodedString()
        let origin = configuration.scriptOrigin
        let policy = [
            "default-src 'none'", "script-src 'sha256-\(hash)' \(origin)", "style-src 'unsafe-inline' \(origin) https:",
            "img-src \(origin) https: data:", "font-src \(origin) https: data:", "frame-src \(origin) https:",
            "connect-src \(origin) https:", "base-uri 'none'", "form-action 'none'",
        ].joined(separator: "; ")
        let policyTag =
            includesContentSecurityPolicy
            ? "\n<meta http-equiv=\"Content-Security-Policy\" content=\"\(SovendusPageEncoding.attribute(policy))\">" : ""
        let checkoutBenefitsContainer =
            configuration.checkoutBenefitsTrafficMediumNumber == nil ? "" : "\n<div id=\"\(Self.checkoutBenefitsContainerID)\"></div>"
        let html = """
            <!DOCTYPE html>
            <html>
            <head>
            <meta charset="utf-8">\(policyTag)
            <meta name="viewport" content="width=device-width, initial-scale=1">
            </head>
            <body style="margin: 0; background-color: #fff">
            <div id="\(Self.containerID)"></div>\(checkoutBenefitsContainer)
            <script>\(script)</script>
            <script src="\(SovendusPageEncoding.attribute(configuration.scriptURL.absoluteString))" async></script>
            </body>
            </html>

            """
        guard let baseURL = URL(string: origin + "/") else {
            throw EngageError(.invalidConfiguration, "The script URL has no usable origin.", providerID: .sovendus)
        }
        return SovendusBannerPage(
            html: html, baseURL: baseURL, platform: platform, initialHeight: configuration.bannerInitialHeight,
            contentSecurityPolicy: policy
        )
    }

    /// The `sovIframes` entries: the Voucher Network banner's with the order, then, when configured,
    /// the Checkout Benefits banner's, which carries only its numbers and container (as in Sovendus'
    /// generic native-app page).
    func iframeEntries(order: SovendusOrder, platform: SovendusPlatform, now: Date) -> [[String: String]] {
        var entries = [iframeEntry(order: order, platform: platform, now: now)]
        if let checkoutBenefits = configuration.checkoutBenefitsTrafficMediumNumber {
            entries.append([
                "trafficSourceNumber": String(configuration.trafficSourceNumber),
                "trafficMediumNumber": String(checkoutBenefits),
                "iframeContainerId": Self.checkoutBenefitsContainerID,
            ])
        }
        return entries
    }

    func iframeEntry(order: SovendusOrder, platform: SovendusPlatform, now: Date) -> [String: String] {
        [
            "trafficSourceNumber": String(configuration.trafficSourceNumber),
            "trafficMediumNumber": String(configuration.trafficMediumNumber),
            "iframeContainerId": Self.containerID,
            // The order time is validated (1970...2100); the clock's time cannot be NaN, but is converted without trapping anyway.
            "timestamp": Int64(exactly: (order.placedAt ?? now).timeIntervalSince1970.rounded(.down)).map(String.init) ?? "0",
            "sessionId": order.sessionID ?? "",
            "orderId": order.id,
            "orderValue": order.formattedNetValue,
            "orderCurrency": order.currency,
            "usedCouponCode": order.couponCode ?? "",
            "integrationType": "engagekit-\(platform.rawValue)-\(integrationVersion)",
        ]
    }

    static func consumerEntry(_ consumer: SovendusConsumer) -> [String: String] {
        [
            "consumerSalutation": consumer.salutation?.rawValue ?? "",
            "consumerFirstName": consumer.firstName ?? "",
            "consumerLastName": consumer.lastName ?? "",
            "consumerEmail": consumer.email ?? "",
            "consumerEmailHash": consumer.emailHash ?? "",
            "consumerPhone": consumer.phone ?? "",
            "consumerYearOfBirth": consumer.yearOfBirth.map(String.init) ?? "",
            "consumerDateOfBirth": consumer.dateOfBirth?.description ?? "",
            "consumerStreet": consumer.street ?? "",
            "consumerStreetNumber": consumer.streetNumber ?? "",
            "consumerZipcode": consumer.zipCode ?? "",
            "consumerCity": consumer.city ?? "",
            "consumerCountry": consumer.country ?? "",
            "consumerLanguage": consumer.language ?? "",
        ]
    }

    /// The page's only inline script: the data, the transport, the message forwarder (for messages from
    /// the page itself, the script's origin or https origins under its parent domain) and the height
    /// observer. `json` comes from the script encoder; the rest is constant.
    static func inlineScript(json: String, platform: SovendusPlatform) -> String {
        """

        (function () {
          "use strict";
          var data = \(json);
          function send(type, value) {
            try {
              \(platform.transportScript)
            } catch (error) {}
          }
          window.sovApi = "v1";
          window.sovIframes = [];
          data.iframes.forEach(function (entry) { entry.hasConsent = data.hasConsent === true; window.sovIframes.push(entry); });
          window.sovConsumer = data.consumer;
          function trusted(origin) {
            if (origin === window.location.origin || origin === data.trust.origin) { return true; }
            var domain = data.trust.domain;
            return domain !== "" && typeof origin === "string" && origin.indexOf("https://") === 0 &&
              (origin === "https://" + domain || origin.slice(-(domain.length + 1)) === "." + domain);
          }
          window.addEventListener("message", function (event) {
            if (!trusted(event.origin)) { return; }
            var message = event.data;
            if (!message || typeof message !== "object" || message.channel !== "sovendus:integration") { return; }
            var payload = message.payload;
            if (!payload || payload.action !== "openInNativeBrowser" || typeof payload.url !== "string") { return; }
            send("openUrl", payload.url);
          });
          // Sovendus' script also asks for links with a window event, { detail: { url } }. Only a script
          // of this document can dispatch it on this window (frames of other origins cannot), so it
          // is the page's own request; the native bridge checks the URL like any other.
          window.addEventListener("openInNativeBrowser", function (event) {
            var detail = event && event.detail;
            if (!detail || typeof detail.url !== "string") { return; }
            send("openUrl", detail.url);
          });
          if (typeof ResizeObserver === "function") {
            new ResizeObserver(function () { send("height", document.body.scrollHeight); }).observe(document.body);
          }
        })();

        """
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension SovendusBannerPage: SecretBearing {}
