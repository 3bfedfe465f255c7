import Foundation

/// The JSON bodies of Sovendus' APIs, shared by the provider and the emulator.
package enum SovendusWire {
    /// `POST /redeem/{trafficSourceNumber}`.
    package struct RedemptionRequest: Codable, Sendable, Equatable {
        package var emailHash: String
        package var trafficMediumPublicID: String
        package var orderValue: String
        package var orderCurrency: String
        package var orderID: String
        package var couponCode: String

        package init(
            emailHash: String, trafficMediumPublicID: String, orderValue: String, orderCurrency: String, orderID: String, couponCode: String
        ) {
            self.emailHash = emailHash
            self.trafficMediumPublicID = trafficMediumPublicID
            self.orderValue = orderValue
            self.orderCurrency = orderCurrency
            self.orderID = orderID
            self.couponCode = couponCode
        }

        enum CodingKeys: String, CodingKey {
            case emailHash = "email_hash"
            case trafficMediumPublicID = "traffic_medium_public_id"
            case orderValue = "order_value"
            case orderCurrency = "order_currency"
            case orderID = "order_id"
            case couponCode = "coupon_code"
        }
    }

    /// The 200 answer to a redemption, `{"message": "Coupon redemption received."}`.
    package struct RedemptionResponse: Codable, Sendable {
        package var message: String

        package init(message: String) {
            self.message = message
        }
    }

    /// `POST /error`: one telemetry report. Never carries personal data.
    ///
    /// It carries the fields of the official iOS SDK's `ErrorRequest` (`sdkPlatform`, `sdkVersion`,
    /// the traffic numbers as numbers, `type`, `message`, `actions`, `additionalData`) and those of the
    /// Flutter component, whose endpoint this is (`source`, `counter`, the traffic numbers as strings,
    /// `implementationType`), so that the service finds its fields whichever form it reads.
    package struct ErrorReport: Codable, Sendable, Equatable {
        /// The official SDK's error types.
        package enum Kind: String, Codable, Sendable, CaseIterable {
            /// A failure of no known kind (the network, a server error).
            case unknown
            /// Something asked for does not exist (HTTP 404).
            case notFound
            /// Code failed (an answer that could not be read, a refused bridge message).
            case exception
            /// The browser refused a cross-origin request (reported by pages, never by the provider).
            case cors
        }

        package var sdkPlatform: String
        package var sdkVersion: String
        package var trafficSourceNumber: Int?
        package var trafficMediumNumber: Int?
        package var type: Kind
        package var message: String
        package var actions: String?
        package var additionalData: String?
        package var source: String
        package var counter: Int
        package var trafficSource: String
        package var trafficMedium: String
        package var implementationType: String

        package init(
            sdkPlatform: String, sdkVersion: String, trafficSourceNumber: Int?, trafficMediumNumber: Int?, type: Kind, message: String,
            actions: String?, additionalData: String?, source: String, counter: Int, implementationType: String
        ) {
            self.sdkPlatform = sdkPlatform
            self.sdkVersion = sdkVersion
            self.trafficSourceNumber = trafficSourceNumber
            self.trafficMediumNumber = trafficMediumNumber
            self.type = type
            self.message = message
            self.actions = actions
            self.additionalData = additionalData
            self.source = source
            self.counter = counter
            trafficSource = trafficSourceNumber.map(String.init) ?? ""
            trafficMedium = trafficMediumNumber.map(String.init) ?? ""
            self.implementationType = implementationType
        }
    }

    /// `POST /benefits`: EngageKit's optional extra, modelled on the official iOS SDK's benefits request
    /// (whose endpoint Sovendus does not publish). The consumer part says only which personal fields
    /// exist, never their values; `sandbox` is the official request's flag.
    package struct BenefitsRequest: Codable, Sendable, Equatable {
        package var trafficSourceNumber: String
        package var trafficMediumNumber: String
        package var integrationType: String
        package var language: String?
        /// Every personal field (`firstName`, `email`, ...) and whether the app has it.
        package var consumer: [String: Bool]
        /// Whether the app runs in Sovendus' sandbox mode (absent from older clients' requests: not).
        package var sandbox: Bool?

        package init(
            trafficSourceNumber: String, trafficMediumNumber: String, integrationType: String, language: String?, consumer: [String: Bool],
            sandbox: Bool? = nil
        ) {
            self.trafficSourceNumber = trafficSourceNumber
            self.trafficMediumNumber = trafficMediumNumber
            self.integrationType = integrationType
            self.language = language
            self.consumer = consumer
            self.sandbox = sandbox
        }
    }

    /// The answer to `POST /benefits`.
    package struct BenefitsResponse: Codable, Sendable {
        package var products: [Product]
        package var banner: Banner?

        package init(products: [Product], banner: Banner?) {
            self.products = products
            self.banner = banner
        }

        /// One benefit (a voucher of a partner shop).
        package struct Product: Codable, Sendable {
            package var id: String
            package var name: String
            package var description: String?
            package var imageUrl: String?
            package var url: String?
            /// The voucher's value as a decimal string (`"10.00"`), with `currency`.
            package var value: String?
            package var currency: String?
            package var partner: String?
            /// RFC 3339.
            package var validUntil: String?

            package init(
                id: String, name: String, description: String? = nil, imageUrl: String? = nil, url: String? = nil, value: String? = nil,
                currency: String? = nil, partner: String? = nil, validUntil: String? = nil
            ) {
                self.id = id
                self.name = name
                self.description = description
                self.imageUrl = imageUrl
                self.url = url
                self.value = value
                self.currency = currency
                self.partner = partner
                self.validUntil = validUntil
            }
        }

        /// The banner advertising the benefits.
        package struct Banner: Codable, Sendable {
            package var title: String
            package var imageUrl: String?
            package var bannerUrl: String?

            package init(title: String, imageUrl: String?, bannerUrl: String?) {
                self.title = title
                self.imageUrl = imageUrl
                self.bannerUrl = bannerUrl
            }
        }
    }
}
