import Foundation

/// A purchase in the user's history (`consumer_data` / `get_transaction_history`, in the
/// `MAPP_TRANSACTIONS` section).
///
/// Wire form:
/// ```json
/// { "transaction_id": "t-1", "transaction_date": "2026-03-01 18:22:10", "shop_name": "Σκλαβενίτης",
///   "shop_uuid": "m-1", "amount": "42.35", "points": "42", "product_code": "P-7",
///   "product_description": "Καφές φίλτρου", "quantity": "2" }
/// ```
/// Only `transaction_id` is required.
public struct WarplyTransaction: Codable, Sendable, Hashable, Identifiable {
    /// The transaction's id (`transaction_id`).
    public var transactionID: String
    /// When it happened (`transaction_date`).
    public var date: WarplyTimestamp?
    /// The merchant's name (`shop_name`).
    public var merchantName: String?
    /// The merchant's id (`shop_uuid`).
    public var merchantUUID: String?
    /// The amount paid, in euros (`amount`).
    public var amount: Decimal?
    /// The points earned (`points`).
    public var points: Int?
    /// The product's code (`product_code`).
    public var productCode: String?
    /// The product's description (`product_description`).
    public var productDescription: String?
    /// How many items (`quantity`).
    public var quantity: Int?

    /// The transaction's identity: its id.
    public var id: String { transactionID }

    enum CodingKeys: String, CodingKey {
        case transactionID = "transaction_id"
        case date = "transaction_date"
        case merchantName = "shop_name"
        case merchantUUID = "shop_uuid"
        case amount, points
        case productCode = "product_code"
        case productDescription = "product_description"
        case quantity
    }

    /// A transaction; every field but the id is optional.
    public init(
        transactionID: String,
        date: WarplyTimestamp? = nil,
        merchantName: String? = nil,
        merchantUUID: String? = nil,
        amount: Decimal? = nil,
        points: Int? = nil,
        productCode: String? = nil,
        productDescription: String? = nil,
        quantity: Int? = nil
    ) {
        self.transactionID = transactionID
        self.date = date
        self.merchantName = merchantName
        self.merchantUUID = merchantUUID
        self.amount = amount
        self.points = points
        self.productCode = productCode
        self.productDescription = productDescription
        self.quantity = quantity
    }

    /// Decodes the wire form leniently; throws when `transaction_id` is missing or empty, or a field
    /// has a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transactionID = try container.requiredString(forKey: .transactionID)
        date = try container.looseTimestamp(forKey: .date)
        merchantName = try container.looseString(forKey: .merchantName)
        merchantUUID = try container.looseString(forKey: .merchantUUID)
        amount = try container.looseDecimal(forKey: .amount)
        points = try container.looseInt(forKey: .points)
        productCode = try container.looseString(forKey: .productCode)
        productDescription = try container.looseString(forKey: .productDescription)
        quantity = try container.looseInt(forKey: .quantity)
    }
}
