import Foundation

extension CroboxEvent {
    /// The event-specific query items, after the common ones, in wire order.
    func queryItems(dialect: CroboxDialect) -> [(String, String)] {
        typealias Key = CroboxWire.Key
        var items: [(String, String)] = []
        func add(_ key: String, _ value: String?) {
            if let value { items.append((key, value)) }
        }
        func add(_ product: CroboxProduct?) {
            guard let product else { return }
            add(Key.productID, product.id)
            add(Key.price, product.price.map(CroboxEvent.format))
            add(Key.quantity, product.quantity.map(String.init))
        }
        func addImpressions() {
            for (index, id) in impressions.enumerated() { add(dialect.impressionKey(index), id) }
        }
        switch kind {
        case let .pageView(title, searchTerms, product, otherProductIDs):
            add(Key.eventType, CroboxWire.EventType.pageView)
            add(Key.title, title)
            add(Key.searchTerms, searchTerms)
            add(product)
            if !otherProductIDs.isEmpty { add(Key.otherProducts, otherProductIDs.joined(separator: ",")) }
            addImpressions()
        case let .click(product):
            add(Key.eventType, CroboxWire.EventType.click)
            add(product)
        case let .addToCart(product):
            add(Key.eventType, CroboxWire.EventType.addToCart)
            add(product)
        case let .removeFromCart(product):
            add(Key.eventType, CroboxWire.EventType.removeFromCart)
            add(product)
        case let .checkout(step):
            // Checkout and purchase travel as page views (wire facts).
            add(Key.eventType, CroboxWire.EventType.pageView)
            add(Key.step, step)
            addImpressions()
        case let .purchase(transactionID, affiliation, coupon, revenue):
            add(Key.eventType, CroboxWire.EventType.pageView)
            add(Key.transactionID, transactionID)
            add(Key.affiliation, affiliation)
            add(Key.coupon, coupon)
            add(Key.revenue, revenue.map(CroboxEvent.format))
            addImpressions()
        case let .error(tag, name, message, file, line):
            add(Key.eventType, CroboxWire.EventType.error)
            add(Key.tag, tag)
            add(Key.name, name)
            add(Key.message, message)
            add(Key.file, file)
            add(Key.line, line.map(String.init))
        case let .custom(name, promotionID, product):
            add(Key.eventType, CroboxWire.EventType.custom)
            add(Key.name, name)
            add(Key.promotionID, promotionID?.uuidString.lowercased())
            add(product)
        }
        return items
    }

    /// Numbers as the official SDKs print them: `1.0`, `2.5`, `49.99`.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0.0" }
        return String(describing: value)
    }

    /// Problems that make the event unsendable.
    func validationIssues() -> [String] {
        var issues: [String] = []
        func check(_ product: CroboxProduct?) {
            guard let product else { return }
            if product.id.isEmpty { issues.append("product id must not be empty.") }
            if let price = product.price, !price.isFinite || price < 0 { issues.append("price must be a finite, non-negative number.") }
            if let quantity = product.quantity, quantity < 0 { issues.append("quantity must not be negative.") }
        }
        switch kind {
        case let .pageView(_, _, product, _): check(product)
        case let .click(product), let .addToCart(product), let .removeFromCart(product): check(product)
        case let .custom(name, _, product):
            if name.isEmpty { issues.append("a custom event needs a name.") }
            check(product)
        case let .purchase(_, _, _, revenue):
            if let revenue, !revenue.isFinite || revenue < 0 { issues.append("revenue must be a finite, non-negative number.") }
        case let .error(tag, name, _, _, _):
            if tag.isEmpty || name.isEmpty { issues.append("an error event needs a tag and a name.") }
        case .checkout: break
        }
        if impressions.count > 500 { issues.append("at most 500 impressions per event (got \(impressions.count)).") }
        return issues
    }
}
