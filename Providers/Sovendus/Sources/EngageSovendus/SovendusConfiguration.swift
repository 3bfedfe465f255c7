@_spi(EngageProvider) import EngageCore
import Foundation

/// How the Sovendus provider reaches Sovendus, and who the app is to it.
///
/// In JSON (the `sovendus` section of `EngageConfiguration.providers`) only the two traffic numbers
/// are required:
/// ```json
/// { "trafficSourceNumber": 5432, "trafficMediumNumber": 1, "checkoutBenefitsTrafficMediumNumber": 2,
///   "trafficMediumPublicID": "6f1f8a52-8a40-4d3c-b1a3-2f0c6c1c9d10",
///   "benefitsBaseURL": "https://benefits.example.com" }
/// ```
public struct SovendusConfiguration: ProviderConfiguration, Equatable {
    /// The traffic source number Sovendus gave the shop (a positive number of at most 9 digits).
    public var trafficSourceNumber: Int
    /// The traffic medium number of this app within that source (a positive number of at most 9 digits):
    /// the Voucher Network banner's.
    public var trafficMediumNumber: Int
    /// The traffic medium number of the Checkout Benefits banner, when Sovendus gave the shop one (a
    /// positive number of at most 9 digits). With it, the banner page shows a second banner,
    /// `sovendus-checkout-benefits-banner`, below the Voucher Network one, as Sovendus' generic
    /// native-app page does; without it, the page has the Voucher Network banner only.
    public var checkoutBenefitsTrafficMediumNumber: Int?
    /// The traffic medium's public id, a UUID: coupon redemption sends it as `traffic_medium_public_id`.
    /// Without it, ``SovendusProvider/redeemCoupon(for:consumer:)`` fails with `.notConfigured`.
    public var trafficMediumPublicID: UUID?
    /// The banner script every page loads (`flexibleIframe.js`). Its origin is the only script origin
    /// the page's Content-Security-Policy allows, and the page's base URL.
    public var scriptURL: URL
    /// The coupon redemption API (`POST /redeem/{trafficSourceNumber}` under it).
    public var redemptionBaseURL: URL
    /// The error telemetry API (`POST /error` under it).
    public var telemetryBaseURL: URL
    /// The benefits API (`POST /benefits` under it). Sovendus does not publish the native SDK's
    /// endpoint, so there is no default: without it, benefits fail with `.notConfigured`.
    public var benefitsBaseURL: URL?
    /// The banner's height, in points, until the page reports one (348, as Sovendus' own SDKs).
    public var bannerInitialHeight: Double
    /// Reported heights at or below this many points are ignored (100): a banner that has not laid
    /// out yet reports a tiny height, and applying it would collapse the view.
    public var minimumBannerHeight: Double
    /// Whether the provider reports its own failures to Sovendus' error telemetry (at most 3 reports
    /// per provider instance, never with personal data).
    public var reportsErrors: Bool
    /// Sovendus' sandbox mode, as the official SDK's `SovendusConfig(sandbox:)`: the benefits request
    /// says `"sandbox": true` so that Sovendus answers test content and counts nothing, and error
    /// reports say they come from a sandboxed app. The banner page and coupon redemption are not
    /// changed by it (Sovendus publishes no sandbox form of them): point `scriptURL` and
    /// `redemptionBaseURL` at a test service (such as the emulator) while testing.
    public var sandbox: Bool

    /// Sovendus' banner script.
    public static let defaultScriptURL = URL(literal: "https://api.sovendus.com/sovabo/common/js/flexibleIframe.js")
    /// Sovendus' coupon redemption API.
    public static let defaultRedemptionBaseURL = URL(literal: "https://coupon-api.sovendus.com")
    /// Sovendus' error telemetry API.
    public static let defaultTelemetryBaseURL = URL(literal: "https://press-tracking-api.sovendus.com")

    /// A configuration for the shop's traffic source and this app's traffic medium, speaking to
    /// Sovendus' production services unless URLs are given.
    public init(
        trafficSourceNumber: Int,
        trafficMediumNumber: Int,
        checkoutBenefitsTrafficMediumNumber: Int? = nil,
        trafficMediumPublicID: UUID? = nil,
        scriptURL: URL = SovendusConfiguration.defaultScriptURL,
        redemptionBaseURL: URL = SovendusConfiguration.defaultRedemptionBaseURL,
        telemetryBaseURL: URL = SovendusConfiguration.defaultTelemetryBaseURL,
        benefitsBaseURL: URL? = nil,
        bannerInitialHeight: Double = 348,
        minimumBannerHeight: Double = 100,
        reportsErrors: Bool = true,
        sandbox: Bool = false
    ) {
        self.trafficSourceNumber = trafficSourceNumber
        self.trafficMediumNumber = trafficMediumNumber
        self.checkoutBenefitsTrafficMediumNumber = checkoutBenefitsTrafficMediumNumber
        self.trafficMediumPublicID = trafficMediumPublicID
        self.scriptURL = scriptURL
        self.redemptionBaseURL = redemptionBaseURL
        self.telemetryBaseURL = telemetryBaseURL
        self.benefitsBaseURL = benefitsBaseURL
        self.bannerInitialHeight = bannerInitialHeight
        self.minimumBannerHeight = minimumBannerHeight
        self.reportsErrors = reportsErrors
        self.sandbox = sandbox
    }

    enum CodingKeys: String, CodingKey {
        case trafficSourceNumber, trafficMediumNumber, checkoutBenefitsTrafficMediumNumber, trafficMediumPublicID, scriptURL,
            redemptionBaseURL, telemetryBaseURL
        case benefitsBaseURL, bannerInitialHeight, minimumBannerHeight, reportsErrors, sandbox
    }

    /// Decodes the JSON form; everything but the two traffic numbers may be left out
    /// (`checkoutBenefitsTrafficMediumNumber` too). A
    /// `trafficMediumPublicID` that is not a UUID fails decoding.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            trafficSourceNumber: try container.decode(Int.self, forKey: .trafficSourceNumber),
            trafficMediumNumber: try container.decode(Int.self, forKey: .trafficMediumNumber),
            checkoutBenefitsTrafficMediumNumber: try container.decodeIfPresent(Int.self, forKey: .checkoutBenefitsTrafficMediumNumber),
            trafficMediumPublicID: try container.decodeIfPresent(UUID.self, forKey: .trafficMediumPublicID),
            scriptURL: try container.decodeIfPresent(URL.self, forKey: .scriptURL) ?? Self.defaultScriptURL,
            redemptionBaseURL: try container.decodeIfPresent(URL.self, forKey: .redemptionBaseURL) ?? Self.defaultRedemptionBaseURL,
            telemetryBaseURL: try container.decodeIfPresent(URL.self, forKey: .telemetryBaseURL) ?? Self.defaultTelemetryBaseURL,
            benefitsBaseURL: try container.decodeIfPresent(URL.self, forKey: .benefitsBaseURL),
            bannerInitialHeight: try container.decodeIfPresent(Double.self, forKey: .bannerInitialHeight) ?? 348,
            minimumBannerHeight: try container.decodeIfPresent(Double.self, forKey: .minimumBannerHeight) ?? 100,
            reportsErrors: try container.decodeIfPresent(Bool.self, forKey: .reportsErrors) ?? true,
            sandbox: try container.decodeIfPresent(Bool.self, forKey: .sandbox) ?? false
        )
    }

    /// The largest banner height a page may report, in points; a larger one is a broken or hostile page.
    public static let maximumBannerHeight: Double = 20_000

    /// Names what cannot work: traffic numbers outside 1...999 999 999, relative or non-HTTP URLs, a
    /// script URL with a query or fragment, heights that are not finite, negative or out of order.
    public func validationIssues() -> [String] {
        var issues: [String] = []
        var numbers = [("trafficSourceNumber", trafficSourceNumber), ("trafficMediumNumber", trafficMediumNumber)]
        if let checkoutBenefitsTrafficMediumNumber {
            numbers.append(("checkoutBenefitsTrafficMediumNumber", checkoutBenefitsTrafficMediumNumber))
        }
        for (name, number) in numbers {
            if !Self.trafficNumbers.contains(number) {
                issues.append("\(name) must be a positive number of at most 9 digits (got \(number)).")
            }
        }
        let urls = [
            ("scriptURL", scriptURL), ("redemptionBaseURL", redemptionBaseURL), ("telemetryBaseURL", telemetryBaseURL),
            ("benefitsBaseURL", benefitsBaseURL),
        ]
        for case let (name, url?) in urls {
            if !["http", "https"].contains(url.scheme?.lowercased() ?? "") || (url.host ?? "").isEmpty {
                issues.append("\(name) must be an absolute http(s) URL (got '\(Redactor().redact(url: url).prefix(120))').")
            }
        }
        if scriptURL.query != nil || scriptURL.fragment != nil {
            issues.append("scriptURL must have no query or fragment.")
        }
        // The script's origin is written into the page's Content-Security-Policy: a host name or an
        // IP address only, nothing that could end a policy directive.
        if let host = scriptURL.host, !host.unicodeScalars.allSatisfy({ Self.hostCharacters.contains($0) }) {
            issues.append("scriptURL's host must be a host name or an IP address.")
        }
        if !bannerInitialHeight.isFinite || bannerInitialHeight <= 0 || bannerInitialHeight > Self.maximumBannerHeight {
            issues.append("bannerInitialHeight must be a height between 0 and \(Int(Self.maximumBannerHeight)) points.")
        }
        if !minimumBannerHeight.isFinite || minimumBannerHeight < 0 || minimumBannerHeight >= Self.maximumBannerHeight {
            issues.append("minimumBannerHeight must be at least 0 and below \(Int(Self.maximumBannerHeight)) points.")
        }
        return issues
    }

    static let trafficNumbers = 1...999_999_999
    static let hostCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:")

    /// The parent domain of the script's host (`sovendus.com` for `api.sovendus.com`), whose https
    /// frames the page trusts; `nil` for an IP address or a single-label host.
    var scriptParentDomain: String? {
        scriptURL.host.flatMap(Self.parentDomain(of:))
    }

    /// The registrable domain of a host name: the label just below its public suffix
    /// (`sovendus.com` for `api.sovendus.com`, `sovendus.co.uk` for `api.sovendus.co.uk`); `nil` for
    /// an IP address, a single-label host or a host that is itself a public suffix, which only match
    /// themselves.
    ///
    /// The public suffix is the top-level domain, or two labels where the registry sells names one level
    /// down: under a two-letter country code, a second level from the common set (`co`, `com`, `org`,
    /// `ac`, `gov`, `ne`, `or`…: `co.uk`, `com.au`, `co.jp`), and the multi-label suffixes listed in
    /// ``multiLabelPublicSuffixes``. Trusting `*.co.uk` for a script on `api.sovendus.co.uk` would let
    /// any British site frame the banner; this never does.
    static func parentDomain(of host: String) -> String? {
        let host = host.lowercased()
        let labels = host.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !host.contains(":"), labels.count >= 2, !labels.contains(where: \.isEmpty),
            !labels.allSatisfy({ $0.allSatisfy(\.isNumber) })
        else { return nil }
        let suffixLength = publicSuffixLength(of: labels)
        guard labels.count > suffixLength else { return nil }
        return labels.suffix(suffixLength + 1).joined(separator: ".")
    }

    /// Second-level labels that registries of two-letter country codes sell names under.
    static let countrySecondLevels: Set<String> = [
        "ac", "co", "com", "edu", "gov", "gob", "go", "govt", "ltd", "me", "mil", "ne", "net", "nhs", "nic", "nom", "or", "org", "plc",
        "sch", "gen", "firm", "info", "biz", "web", "int", "police", "priv", "kiwi", "geek", "school", "lg", "ad", "ed", "gr",
    ]

    /// Public suffixes of more than one label outside that pattern (a longer suffix is matched first).
    static let multiLabelPublicSuffixes: Set<String> = [
        "com.de", "co.com", "us.com", "uk.com", "eu.com", "de.com", "br.com", "cn.com", "jpn.com", "za.com", "uy.com", "sa.com",
        "blogspot.com", "github.io", "gitlab.io", "herokuapp.com", "appspot.com", "cloudfront.net", "azurewebsites.net",
        "netlify.app", "vercel.app", "pages.dev", "workers.dev", "web.app", "firebaseapp.com",
    ]

    /// How many trailing labels of `labels` form the public suffix (1 or 2).
    private static func publicSuffixLength(of labels: [String]) -> Int {
        guard labels.count >= 2 else { return 1 }
        let lastTwo = labels.suffix(2).joined(separator: ".")
        if multiLabelPublicSuffixes.contains(lastTwo) { return 2 }
        let topLevel = labels[labels.count - 1]
        let secondLevel = labels[labels.count - 2]
        if topLevel.count == 2, topLevel.allSatisfy(\.isLetter), countrySecondLevels.contains(secondLevel) { return 2 }
        return 1
    }

    /// The origin (`scheme://host[:port]`) of the script URL: the page's base and its script source.
    var scriptOrigin: String {
        let host = scriptURL.host ?? ""
        var origin = "\(scriptURL.scheme?.lowercased() ?? "https")://\(host.contains(":") ? "[\(host)]" : host)"
        if let port = scriptURL.port { origin += ":\(port)" }
        return origin
    }
}

extension ProviderSection {
    /// Sovendus' section: its traffic source and medium and the rest of ``SovendusConfiguration``.
    ///
    /// ```swift
    /// try configuration.add(.sovendus(SovendusConfiguration(trafficSourceNumber: 4704, trafficMediumNumber: 1)))
    /// ```
    public static func sovendus(_ configuration: SovendusConfiguration) -> ProviderSection {
        ProviderSection(SovendusProvider.self, configuration)
    }
}
