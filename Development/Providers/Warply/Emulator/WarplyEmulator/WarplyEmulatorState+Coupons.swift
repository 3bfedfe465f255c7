@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// Why a state change was refused; its message is sent as the section's `msg`.
struct WarplyEmulatorRefusal: Error, Sendable {
    var message: String
}

extension WarplyEmulatorState {
    /// Acquires a coupon of `couponSetUUID` for `email`: one fewer available, the set's points taken
    /// from the profile (with a negative points entry), and a new active coupon with a fresh code.
    mutating func redeem(
        couponSetUUID: String, email: String, environment: EmulatorEnvironment
    ) -> Result<ServedRedemption, WarplyEmulatorRefusal> {
        guard let catalogue, let set = catalogue.couponSet(uuid: couponSetUUID, language: .greek) else {
            return .failure(.init(message: "Unknown coupon set."))
        }
        guard (availability[couponSetUUID] ?? 0) > 0 else {
            return .failure(.init(message: "No coupons are left in this coupon set."))
        }
        guard var user = users[email] else { return .failure(.init(message: "Unknown user.")) }
        let cost = max(0, set.points ?? 0)
        guard user.profile.points >= cost else {
            return .failure(.init(message: "Not enough points: \(cost) needed, \(user.profile.points) available."))
        }
        availability[couponSetUUID, default: 0] -= 1
        user.profile.points -= cost
        user.redemptionCount += 1
        var generator = environment.makeGenerator(stream: "redeem/\(email)/\(user.redemptionCount)")
        let now = ServedTimestamp(environment.now())
        let code = WarplyEmulatorUser.couponCode(prefix: Self.codePrefix(set), generator: &generator)
        let transactionID = generator.nextHex(byteCount: 8)
        user.pointsHistory.append(
            ServedPointsEntry(id: generator.nextHex(byteCount: 8), date: now, points: -cost, source: "coupon", description: set.name)
        )
        user.coupons.append(
            WarplyEmulatorCoupon(
                id: generator.nextHex(byteCount: 8), couponSetUUID: couponSetUUID, code: code,
                barcode: WarplyEmulatorUser.digits(13, using: &generator), status: ServedCoupon.activeStatus,
                expiration: set.expiration ?? ServedTimestamp(environment.now().addingTimeInterval(30 * 86_400)), redeemedDate: nil
            )
        )
        users[email] = user
        return .success(ServedRedemption(couponCode: code, couponSetUUID: couponSetUUID, redeemedAt: now, transactionID: transactionID))
    }

    /// The code prefix of coupons of `set`: `SM` for supermarket vouchers, `CPN` otherwise.
    private static func codePrefix(_ set: ServedCouponSet) -> String {
        set.couponSetType == WarplyCatalogue.supermarketCouponSetType ? "SM" : "CPN"
    }
}
