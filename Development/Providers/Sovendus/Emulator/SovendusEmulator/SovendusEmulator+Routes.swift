@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension SovendusEmulator {
    /// The largest request body read: Sovendus' bodies are a few hundred bytes.
    static let maxBodySize = 64 * 1024

    func readBody(_ request: Request, context: SandboxRequestContext) async throws -> Data? {
        var request = request
        let buffer = try await request.collectBody(upTo: max(context.maxUploadSize, Self.maxBodySize))
        guard buffer.readableBytes <= Self.maxBodySize else { return nil }
        return Data(buffer.readableBytesView)
    }

    static func message(_ key: String, _ text: String, status: HTTPResponse.Status) -> Response {
        SandboxResponse.raw(Data("{\"\(key)\":\"\(text)\"}".utf8), status: status)
    }

    // MARK: Redemption and telemetry

    func addRedemptionRoutes(to group: RouterGroup<SandboxRequestContext>) {
        group.post("redeem/:source") { request, context in
            let source = context.parameters.get("source") ?? ""
            guard !source.isEmpty, source.utf8.count <= 12, source.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else {
                return Response(status: .notFound)
            }
            let invalid = Self.message("error", "Input validation failed.", status: .unprocessableContent)
            guard let body = try await self.readBody(request, context: context),
                let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                let redemption = Self.redemption(object, source: source)
            else { return invalid }
            guard Int(source) == self.configuration.trafficSourceNumber,
                UUID(uuidString: redemption.trafficMediumPublicID) == self.configuration.trafficMediumPublicID
            else { return Self.message("error", "Internal error", status: .internalServerError) }
            self.state.withLock { $0.redemptions.append(redemption) }
            return Self.message("message", "Coupon redemption received.", status: .ok)
        }
        // Read as plain JSON by the emulator: the SDK's platform and version, a message, the counter and
        // one of the official SDK's four types are required.
        group.post("error") { request, context in
            let kinds: Set<String> = ["unknown", "notFound", "exception", "cors"]
            guard let body = try await self.readBody(request, context: context),
                let report = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                let platform = report["sdkPlatform"] as? String, !platform.isEmpty, let version = report["sdkVersion"] as? String,
                !version.isEmpty, let message = report["message"] as? String, !message.isEmpty, let counter = report["counter"] as? Int,
                let type = report["type"] as? String, kinds.contains(type)
            else { return SandboxResponse.error(.badRequest, code: "invalid_report") }
            self.state.withLock {
                $0.errorReports.append(SovendusReceivedErrorReport(body: body, message: message, counter: counter, type: type))
            }
            return Response(status: .ok)
        }
    }

    /// The redemption in `object` if every field is a string that follows its rule.
    static func redemption(_ object: [String: Any], source: String) -> SovendusReceivedRedemption? {
        let keys = ["email_hash", "traffic_medium_public_id", "order_value", "order_currency", "order_id", "coupon_code"]
        var fields: [String: String] = [:]
        for key in keys {
            guard let value = object[key] as? String else { return nil }
            fields[key] = value
        }
        let hex = Set("0123456789abcdef".unicodeScalars)
        guard let hash = fields["email_hash"], hash.unicodeScalars.count == 32, hash.unicodeScalars.allSatisfy(hex.contains),
            let medium = fields["traffic_medium_public_id"], UUID(uuidString: medium) != nil,
            let value = fields["order_value"], isAmount(value),
            let currency = fields["order_currency"], currency.unicodeScalars.count == 3,
            currency.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }),
            let orderID = fields["order_id"], !orderID.isEmpty, let coupon = fields["coupon_code"], !coupon.isEmpty
        else { return nil }
        return SovendusReceivedRedemption(
            trafficSourceNumber: source, emailHash: hash, trafficMediumPublicID: medium, orderValue: value, orderCurrency: currency,
            orderID: orderID, couponCode: coupon
        )
    }

    /// `digits.dd`, as `"12.34"`.
    static func isAmount(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 13, parts[1].count == 2 else { return false }
        return parts.allSatisfy { $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
    }

    // MARK: Benefits

    func addBenefitRoutes(to group: RouterGroup<SandboxRequestContext>) {
        group.post("benefits") { request, context in
            guard let body = try await self.readBody(request, context: context),
                let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
            else { return SandboxResponse.error(.badRequest, code: "invalid_request") }
            // The privacy rule: only these keys, and the consumer part names fields and says true or
            // false, nothing else.
            let keys: Set<String> = ["trafficSourceNumber", "trafficMediumNumber", "integrationType", "language", "consumer", "sandbox"]
            let presence = (object["consumer"] as? [String: Any])?.compactMapValues { value -> Bool? in
                // JSONSerialization's booleans are NSNumbers of Objective-C type `c`; a number is not a boolean.
                guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else { return nil }
                return number.boolValue
            }
            guard Set(object.keys).isSubset(of: keys), let consumer = object["consumer"] as? [String: Any], let presence,
                presence.count == consumer.count, let source = object["trafficSourceNumber"] as? String,
                let medium = object["trafficMediumNumber"] as? String, object["integrationType"] is String,
                object["language"] == nil || object["language"] is String || object["language"] is NSNull
            else {
                return SandboxResponse.error(.badRequest, code: "invalid_request", description: "consumer fields must be true or false")
            }
            let sandbox = (object["sandbox"] as? NSNumber)?.boolValue == true
            guard source == String(self.configuration.trafficSourceNumber), medium == String(self.configuration.trafficMediumNumber)
            else { return SandboxResponse.error(.notFound, code: "unknown_traffic_source") }
            self.state.withLock {
                $0.benefitRequests.append(presence)
                if sandbox { $0.sandboxBenefitRequests += 1 }
            }
            let answer = Self.benefits(language: object["language"] as? String, knowsEmail: presence["email"] == true, sandbox: sandbox)
            let data = (try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            return SandboxResponse.raw(data, status: .ok, headers: [.contentType: "application/json"])
        }
    }

    /// The seeded benefits, in German for `de…`, English otherwise, as the JSON object the emulator
    /// answers (`{products: [{id, name, description?, imageUrl?, url?, value?, currency?, partner?,
    /// validUntil?}], banner: {title, imageUrl?, bannerUrl?}}`: this project's own shape, since Sovendus
    /// does not publish the endpoint). A consumer whose e-mail the shop has gets the newsletter voucher
    /// too. In sandbox mode (`"sandbox": true`) the answer is the test content: the same vouchers, their
    /// ids prefixed `sandbox-` and their links on the test host, so an app can tell the two apart.
    static func benefits(language: String?, knowsEmail: Bool, sandbox: Bool = false) -> [String: Any] {
        let german = language?.lowercased().hasPrefix("de") == true
        var products: [[String: Any]] = [
            [
                "id": "bnf-101", "name": german ? "10 € Gutschein für Ihre erste Bestellung" : "€10 off your first order",
                "description": german ? "Ab 40 € Bestellwert bei Florista." : "On orders of €40 or more at Florista.",
                "imageUrl": "https://cdn.sovendus.test/benefits/florista.png", "url": "https://vouchers.sovendus.test/claim/bnf-101",
                "value": "10.00", "currency": "EUR", "partner": "Florista", "validUntil": "2027-03-31T23:59:59Z",
            ],
            [
                "id": "bnf-102", "name": german ? "Kostenloser Versand" : "Free shipping",
                "imageUrl": "https://cdn.sovendus.test/benefits/brewhouse.png", "url": "https://vouchers.sovendus.test/claim/bnf-102",
                "partner": "Brewhouse",
            ],
        ]
        if knowsEmail {
            products.append([
                "id": "bnf-103", "name": german ? "15 % Newsletter-Rabatt" : "15% newsletter discount", "imageUrl": "not a url",
                "url": "https://vouchers.sovendus.test/claim/bnf-103", "partner": "Readmore",
            ])
        }
        if sandbox {
            products = products.map { product in
                var product = product
                product["id"] = "sandbox-\(product["id"] ?? "")"
                product["url"] = (product["url"] as? String)?.replacingOccurrences(
                    of: "https://vouchers.sovendus.test/", with: "https://sandbox.sovendus.test/")
                return product
            }
        }
        return [
            "products": products,
            "banner": [
                "title": german ? "Ihr Dankeschön wartet" : "Your thank-you gift is waiting",
                "imageUrl": "https://cdn.sovendus.test/banner.png",
                "bannerUrl": "https://vouchers.sovendus.test/banner",
            ],
        ]
    }

    // MARK: The banner script and hosted pages

    func addPageRoutes(to group: RouterGroup<SandboxRequestContext>) {
        group.get(RouterPath(Self.scriptPath)) { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "application/javascript; charset=utf-8"
            return SandboxResponse.raw(Data(Self.bannerScript.utf8), headers: headers)
        }
        group.get("pages/:number") { _, context in
            let number = context.parameters.get("number").flatMap { Int($0) } ?? 0
            guard let html = self.state.withLock({ state in state.pages.indices.contains(number - 1) ? state.pages[number - 1] : nil })
            else {
                return Response(status: .notFound)
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            return SandboxResponse.raw(Data(html.utf8), headers: headers)
        }
    }

    /// The URL the stand-in banner opens for an order: `https://vouchers.sovendus.test/claim?...` with
    /// the traffic source, medium and order id, each encoded as JavaScript's `encodeURIComponent` does.
    /// The link the stand-in Checkout Benefits banner asks the app to open.
    public static func checkoutBenefitsURL(trafficSource: String, trafficMedium: String) -> URL? {
        URL(string: "https://vouchers.sovendus.test/benefits?trafficSource=\(trafficSource)&trafficMedium=\(trafficMedium)")
    }

    public static func voucherURL(trafficSource: String, trafficMedium: String, orderID: String) -> URL? {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }
        return URL(
            string:
                "https://vouchers.sovendus.test/claim?trafficSource=\(encoded(trafficSource))&trafficMedium=\(encoded(trafficMedium))&order=\(encoded(orderID))"
        )
    }

    /// The stand-in for Sovendus' `flexibleIframe.js`: for each `window.sovIframes` entry it fills the
    /// container with a banner built from the order and `window.sovConsumer` (as text, never markup),
    /// first 60 px high (a height the native side ignores), then 420 px; clicking its button
    /// (`#sovendus-voucher-button`) posts `{channel: "sovendus:integration", payload: {action:
    /// "openInNativeBrowser", url}}` with ``voucherURL(trafficSource:trafficMedium:orderID:)``.
    public static let bannerScript = """
        (function () {
          "use strict";
          var entries = window.sovIframes || [];
          var consumer = window.sovConsumer || {};
          // The Checkout Benefits banner: its own text and button, which asks for the link with the
          // window event the real script also uses.
          function benefitsBanner(entry, container) {
            var banner = document.createElement("div");
            banner.className = "sovendus-banner";
            banner.style.boxSizing = "border-box";
            banner.style.padding = "16px";
            banner.style.fontFamily = "sans-serif";
            var title = document.createElement("h2");
            title.id = "sovendus-checkout-benefits-title";
            title.textContent = "Your checkout benefits";
            var button = document.createElement("button");
            button.id = "sovendus-checkout-benefits-button";
            button.textContent = "See your benefits";
            var url = "https://vouchers.sovendus.test/benefits?trafficSource=" + encodeURIComponent(entry.trafficSourceNumber) +
              "&trafficMedium=" + encodeURIComponent(entry.trafficMediumNumber);
            button.addEventListener("click", function () {
              window.dispatchEvent(new CustomEvent("openInNativeBrowser", { detail: { url: url } }));
            });
            banner.appendChild(title);
            banner.appendChild(button);
            container.appendChild(banner);
          }
          entries.forEach(function (entry) {
            var container = document.getElementById(entry.iframeContainerId);
            if (!container) { return; }
            if (entry.iframeContainerId === "sovendus-checkout-benefits-banner") { benefitsBanner(entry, container); return; }
            var banner = document.createElement("div");
            banner.className = "sovendus-banner";
            banner.style.boxSizing = "border-box";
            banner.style.height = "60px";
            banner.style.overflow = "hidden";
            banner.style.padding = "16px";
            banner.style.fontFamily = "sans-serif";
            banner.style.background = "#f4f7fb";
            var title = document.createElement("h2");
            title.id = "sovendus-banner-title";
            title.textContent = "Thank you" + (consumer.consumerFirstName ? ", " + consumer.consumerFirstName : "") + "!";
            var text = document.createElement("p");
            text.id = "sovendus-banner-order";
            text.textContent = "A voucher for order " + entry.orderId + " (" + entry.orderValue + " " + entry.orderCurrency + ")";
            var button = document.createElement("button");
            button.id = "sovendus-voucher-button";
            button.textContent = "Get your voucher";
            button.style.fontSize = "18px";
            button.style.padding = "12px 24px";
            var url = "https://vouchers.sovendus.test/claim?trafficSource=" + encodeURIComponent(entry.trafficSourceNumber) +
              "&trafficMedium=" + encodeURIComponent(entry.trafficMediumNumber) + "&order=" + encodeURIComponent(entry.orderId);
            button.addEventListener("click", function () {
              window.postMessage({ channel: "sovendus:integration", payload: { action: "openInNativeBrowser", url: url } }, "*");
            });
            banner.appendChild(title);
            banner.appendChild(text);
            banner.appendChild(button);
            container.appendChild(banner);
            setTimeout(function () { banner.style.height = "420px"; }, 50);
          });
        })();

        """
}
