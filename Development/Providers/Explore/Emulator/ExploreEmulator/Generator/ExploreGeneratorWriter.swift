@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB

/// Generates and inserts the rows of one directory (see ``ExploreDirectoryGenerator``).
struct ExploreGeneratorWriter {
    /// What every row of one merchant shares.
    struct MerchantProfile {
        var id: String
        var name: String
        var paymentMethod: String
        var type: String
        var redeemType: String
        var denominationsType: String
        var savings: Int
        var website: String?
        var isGiftCard: Bool
    }

    let options: ExploreDirectoryGenerator.Options
    let db: Database
    var random: ExploreGeneratorRandom
    private var merchantCount = 0
    private var chains: [MerchantProfile] = []
    private let cityWeights: [Double]

    init(options: ExploreDirectoryGenerator.Options, db: Database) {
        self.options = options
        self.db = db
        random = ExploreGeneratorRandom(seed: options.seed)
        var total = 0.0
        cityWeights = ExploreGeneratorCity.all.map {
            total += $0.weight; return total
        }
    }

    mutating func writeAll() throws -> ExploreDirectoryGenerator.Summary {
        let chainCount = max(10, options.rows / 4_000)
        chains = (0..<chainCount).map { index in
            let name =
                index < ExploreGeneratorNames.chains.count
                ? ExploreGeneratorNames.chains[index]
                : "\(random.pick(ExploreGeneratorNames.first)) \(random.pick(ExploreGeneratorNames.second)) \(index)"
            return makeMerchant(name: name, online: random.chance(0.3))
        }
        let insert = try db.makeStatement(sql: insertSQL)
        var local: (profile: MerchantProfile, remaining: Int)?
        var merchantIDs = Set<String>()
        var giftCardMerchants: [String: MerchantProfile] = [:]
        for _ in 0..<options.rows {
            let profile: MerchantProfile
            var online = false
            if random.chance(options.onlineShare) {
                profile = makeMerchant(
                    name: "\(random.pick(ExploreGeneratorNames.first)) \(random.pick(ExploreGeneratorNames.second)) Online", online: true)
                online = true
            } else if random.chance(0.55) {
                // Zipf-like: the first chains get most locations.
                profile = chains[min(chains.count - 1, Int(Double(chains.count) * pow(random.unit(), 2.2)))]
            } else if let current = local, current.remaining > 0 {
                profile = current.profile
                local = (current.profile, current.remaining - 1)
            } else {
                profile = makeMerchant(
                    name: "\(random.pick(ExploreGeneratorNames.first)) \(random.pick(ExploreGeneratorNames.second))", online: false)
                local = (profile, random.chance(0.2) ? random.int(1...3) : 0)
            }
            merchantIDs.insert(profile.id)
            if profile.isGiftCard { giftCardMerchants[profile.id] = profile }
            try insert.execute(arguments: StatementArguments(rowValues(profile, online: online)))
        }
        let providerRows = options.schema >= .v4 ? try writeProviders(giftCardMerchants.values.sorted { $0.id < $1.id }) : 0
        try writeATMs()
        return .init(rows: options.rows, merchants: merchantIDs.count, providerRows: providerRows, atms: options.atms)
    }

    private var insertSQL: String {
        var columns = ["merchantId", "name", "active", "paymentMethod", "type"]
        if options.schema >= .v2 { columns += ["redeemType"] }
        if options.schema >= .v4 { columns += ["denominationsType"] }
        if options.schema >= .v2 { columns += ["savingsPercentage"] }
        columns += ["latitude", "longitude", "address1", "city", "territory", "website", "phone", "logoLocation", "source", "sourceId"]
        return
            "INSERT INTO merchant(\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    }

    private mutating func makeMerchant(name: String, online: Bool) -> MerchantProfile {
        merchantCount += 1
        let giftCard = random.chance(0.45)
        let id = options.schema == .v1 ? String(merchantCount) : uuid()
        return MerchantProfile(
            id: id, name: name, paymentMethod: giftCard ? "gift card" : "dash",
            type: online ? "online" : (random.chance(0.2) ? "both" : "physical"),
            redeemType: giftCard ? (random.chance(0.04) ? "url" : random.pick(["barcode", "online"])) : "barcode",
            denominationsType: random.pick(["fixed", "min-max"]), savings: giftCard ? random.int(-200...2_000) : random.int(0...500),
            website: random.chance(0.7) ? "https://\(name.lowercased().filter { $0.isLetter || $0.isNumber }).example" : nil,
            isGiftCard: giftCard
        )
    }

    private mutating func uuid() -> String {
        let high = random.next()
        let low = random.next()
        let hex = String(format: "%016llx%016llx", high, low)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    private mutating func rowValues(_ profile: MerchantProfile, online: Bool) -> [(any DatabaseValueConvertible)?] {
        let stray = options.strayValues
        let merchantID: (any DatabaseValueConvertible)? = options.schema == .v1 ? Int64(profile.id) : profile.id
        var payment: (any DatabaseValueConvertible)? = profile.paymentMethod
        if stray, random.chance(0.03) { payment = profile.paymentMethod == "dash" ? "dash " : "Gift Card" }
        let active: Int64 = stray && random.chance(0.01) ? 0 : 1
        var values: [(any DatabaseValueConvertible)?] = [merchantID, profile.name, active, payment, profile.type]
        if options.schema >= .v2 { values.append(stray && random.chance(0.02) ? nil : profile.redeemType) }
        if options.schema >= .v4 {
            let denominations: (any DatabaseValueConvertible)? =
                stray && random.chance(0.03)
                ? (random.chance(0.5) ? nil : "Fixed") : profile.denominationsType
            values.append(denominations)
        }
        if options.schema >= .v2 { values.append(stray && random.chance(0.02) ? nil : Int64(profile.savings)) }
        let city = ExploreGeneratorCity.all[cityIndex()]
        if online || profile.type == "online" {
            let placeholder = stray && random.chance(0.5)
            values += [placeholder ? 0.0 : nil, placeholder ? 0.0 : nil]
        } else {
            let (latitude, longitude) = position(near: city)
            values += [latitude, longitude]
        }
        values += [
            "\(random.int(1...999)) \(random.pick(["Main St", "Broadway", "Οδός Ερμού", "Rue de Rivoli", "High Street", "Avenida Paulista"]))",
            city.name, city.territory, profile.website, "+1 555 \(random.int(1_000_000...9_999_999))", nil, "generator", profile.id,
        ]
        return values
    }

    private mutating func cityIndex() -> Int {
        let target = random.unit() * (cityWeights.last ?? 1)
        return cityWeights.firstIndex { $0 > target } ?? 0
    }

    /// A point around a city: most in its dense core, some in its suburbs, a few far out in the region.
    private mutating func position(near city: ExploreGeneratorCity) -> (Double, Double) {
        let spreadKilometres = random.chance(0.6) ? 6.0 : (random.chance(0.75) ? 30.0 : 250.0)
        let north = random.gaussian() * spreadKilometres / 111.32
        var latitude = city.latitude + north
        latitude = min(max(latitude, -89.95), 89.95)
        let east = random.gaussian() * spreadKilometres / (111.32 * max(cos(latitude * .pi / 180), 0.05))
        var longitude = city.longitude + east
        while longitude > 180 { longitude -= 360 }
        while longitude < -180 { longitude += 360 }
        return (latitude, longitude)
    }

    private mutating func writeProviders(_ merchants: [MerchantProfile]) throws -> Int {
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO gift_card_providers(merchantId, provider, redeemType, savingsPercentage, active, denominationsType, sourceId)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        var count = 0
        for merchant in merchants {
            var providers: [String] = []
            if random.chance(0.75) { providers.append("CTX") }
            if random.chance(0.45) || providers.isEmpty {
                providers.append(options.strayValues && random.chance(0.1) ? "piggycards" : "PiggyCards")
            }
            for provider in providers {
                let active: Int64 = options.strayValues && random.chance(0.02) ? 0 : 1
                try insert.execute(arguments: [
                    merchant.id, provider, merchant.redeemType == "url" ? "url" : random.pick(["barcode", "online"]),
                    Int64(random.int(-100...2_500)), active, random.pick(["fixed", "min-max", "Fixed"]),
                    "\(provider.lowercased())-\(count)",
                ])
                count += 1
            }
        }
        return count
    }

    private mutating func writeATMs() throws {
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO atm(name, manufacturer, type, latitude, longitude, address1, city, territory, active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for index in 0..<options.atms {
            let city = ExploreGeneratorCity.all[cityIndex()]
            let (latitude, longitude) = position(near: city)
            let manufacturer = random.pick(ExploreGeneratorNames.manufacturers)
            try insert.execute(arguments: [
                "\(manufacturer) ATM \(index + 1)", manufacturer, random.pick(["Buy Only", "Sell Only", "Buy and Sell", "buy and sell"]),
                latitude, longitude, "\(random.int(1...500)) Market St", city.name, city.territory,
                Int64(options.strayValues && random.chance(0.02) ? 0 : 1),
            ])
        }
    }
}
