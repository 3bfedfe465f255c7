@_spi(EngageProvider) import EngageCore
import Foundation

/// The benefits Sovendus offers the shop's customers: partner vouchers and the banner advertising
/// them (what the native Sovendus SDK shows without a web view).
public struct SovendusBenefits: Sendable, Hashable, Codable {
    /// The vouchers, in Sovendus' order.
    public var products: [SovendusBenefit]
    /// The banner, if Sovendus sends one.
    public var banner: SovendusBenefitBanner?

    /// Benefits as given.
    public init(products: [SovendusBenefit], banner: SovendusBenefitBanner?) {
        self.products = products
        self.banner = banner
    }
}

/// One partner voucher.
public struct SovendusBenefit: Sendable, Hashable, Codable, Identifiable {
    /// Sovendus' id of the benefit.
    public var id: String
    /// Its name, e.g. "10 € off your first order".
    public var name: String
    /// A longer text, if any.
    public var details: String?
    /// The partner shop, if named.
    public var partner: String?
    /// An image (`nil` when Sovendus sends none or an unusable URL).
    public var imageURL: URL?
    /// Where the voucher is claimed, opened outside the app (`nil` when unusable).
    public var url: URL?
    /// The voucher's value, if it has a fixed one.
    public var value: Money?
    /// When it expires, if it does.
    public var validUntil: Date?

    /// A benefit; everything but its id and name is optional.
    public init(
        id: String, name: String, details: String? = nil, partner: String? = nil, imageURL: URL? = nil, url: URL? = nil,
        value: Money? = nil, validUntil: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.details = details
        self.partner = partner
        self.imageURL = imageURL
        self.url = url
        self.value = value
        self.validUntil = validUntil
    }

    /// This benefit as a cross-provider `Offer` of kind `.voucher`.
    public var offer: Offer {
        var attributes: [String: String] = [:]
        if let partner { attributes["partner"] = partner }
        return Offer(
            id: id, providerID: .sovendus, kind: .voucher, title: LocalizedText(name), details: details.map { LocalizedText($0) },
            imageURL: imageURL, actionURL: url, value: value, validUntil: validUntil, attributes: attributes
        )
    }
}

/// The banner advertising the benefits.
public struct SovendusBenefitBanner: Sendable, Hashable, Codable {
    /// The banner's headline, e.g. "Your thank-you gift is waiting".
    public var title: String
    /// Its image (`nil` when unusable).
    public var imageURL: URL?
    /// Where tapping it leads, opened outside the app (`nil` when unusable).
    public var bannerURL: URL?

    /// A banner as given.
    public init(title: String, imageURL: URL?, bannerURL: URL?) {
        self.title = title
        self.imageURL = imageURL
        self.bannerURL = bannerURL
    }
}

/// Sovendus' receipt of a coupon redemption: it answered with a 2xx status.
public struct SovendusRedemptionReceipt: Sendable, Hashable, Codable {
    /// Sovendus' message, e.g. "Coupon redemption received."; `nil` when its answer had none.
    public var message: String?

    /// A receipt with Sovendus' message, if any.
    public init(message: String?) {
        self.message = message
    }
}

extension SovendusWire.BenefitsResponse {
    /// The public models. URLs are lenient (unusable ones become `nil`: a broken image must not cost
    /// the list); values and dates are strict (a wrong one is a `.decoding` error naming the field).
    func benefits() throws(EngageError) -> SovendusBenefits {
        var products: [SovendusBenefit] = []
        for (index, product) in self.products.enumerated() {
            var value: Money?
            if let text = product.value {
                guard let currency = product.currency, SovendusText.isCurrencyCode(currency) else {
                    throw Self.invalid("products[\(index)].currency", "must be an ISO 4217 code when a value is given")
                }
                do {
                    value = try Money(decimal: text, currency: currency)
                } catch {
                    throw Self.invalid("products[\(index)].value", "must be a decimal amount such as \"10.00\"")
                }
                if let amount = value, amount.minorUnits < 0 { throw Self.invalid("products[\(index)].value", "must not be negative") }
            }
            var validUntil: Date?
            if let text = product.validUntil {
                let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
                guard let date = (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: fractional)) else {
                    throw Self.invalid("products[\(index)].validUntil", "must be an RFC 3339 date-time")
                }
                validUntil = date
            }
            products.append(
                SovendusBenefit(
                    id: product.id, name: product.name, details: product.description, partner: product.partner,
                    imageURL: Self.webURL(product.imageUrl), url: Self.webURL(product.url), value: value, validUntil: validUntil
                )
            )
        }
        let banner = self.banner.map {
            SovendusBenefitBanner(title: $0.title, imageURL: Self.webURL($0.imageUrl), bannerURL: Self.webURL($0.bannerUrl))
        }
        return SovendusBenefits(products: products, banner: banner)
    }

    static func webURL(_ text: String?) -> URL? {
        guard let text, let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            return nil
        }
        return url
    }

    private static func invalid(_ field: String, _ rule: String) -> EngageError {
        EngageError(.decoding, "Sovendus' benefits answer is invalid: \(field) \(rule).", providerID: .sovendus)
    }
}
