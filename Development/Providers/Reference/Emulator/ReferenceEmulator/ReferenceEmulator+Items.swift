@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird

extension ReferenceEmulator {
    func addItemRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.get("items") { request, _ in
            if let rejection = self.rejectUnauthorized(request, environment: environment) { return rejection }
            return self.itemsResponse(request, environment: environment)
        }
        group.get("public/items") { request, _ in
            self.itemsResponse(request, environment: environment)
        }
    }

    private func itemsResponse(_ request: Request, environment: EmulatorEnvironment) -> Response {
        let query = QueryLookup(items: request.uri.query.map(QueryString.decode) ?? [])
        var size = configuration.defaultItemsSize
        if let text = query["size"] {
            guard let requested = Int(text), requested >= 0 else {
                return invalidRequest("size must be a non-negative integer.")
            }
            size = min(requested, configuration.maxItemsSize)
        }
        return SandboxResponse.raw(Self.itemsDocument(approximateSize: size, environment: environment))
    }

    private static let adjectives = [
        "Amber", "Brisk", "Cosy", "Daring", "Electric", "Frosted", "Golden", "Humble", "Ivory", "Jolly",
        "Keen", "Lunar", "Mellow", "Nimble", "Olive", "Plush", "Quiet", "Rustic", "Sunny", "Tidy",
    ]
    private static let nouns = [
        "Lamp", "Mug", "Backpack", "Candle", "Notebook", "Kettle", "Scarf", "Blanket", "Bottle", "Chair",
        "Clock", "Basket", "Pillow", "Teapot", "Umbrella", "Wallet", "Jacket", "Planter", "Speaker", "Sneaker",
    ]

    /// `{"items":[{"id":1,"name":"…","price":12.34},…]}`, as many items as fit in `approximateSize`
    /// bytes (so the document is at most that long and within one item of it). The content depends
    /// only on the seed and the size.
    static func itemsDocument(approximateSize: Int, environment: EmulatorEnvironment) -> Data {
        var generator = environment.makeGenerator(stream: "items/\(approximateSize)")
        let opening = #"{"items":["#
        let closing = "]}"
        var document = opening
        document.reserveCapacity(approximateSize + 64)
        var length = opening.utf8.count + closing.utf8.count
        var index = 0
        while true {
            index += 1
            let name = "\(adjectives.randomElement(using: &generator) ?? "Plain") \(nouns.randomElement(using: &generator) ?? "Item")"
            let cents = Int.random(in: 99...99_999, using: &generator)
            let centsText = cents % 100 < 10 ? "0\(cents % 100)" : "\(cents % 100)"
            let item = #"{"id":\#(index),"name":"\#(name)","price":\#(cents / 100).\#(centsText)}"#
            let added = item.utf8.count + (index > 1 ? 1 : 0)
            guard length + added <= approximateSize else { break }
            if index > 1 { document += "," }
            document += item
            length += added
        }
        document += closing
        return Data(document.utf8)
    }
}
