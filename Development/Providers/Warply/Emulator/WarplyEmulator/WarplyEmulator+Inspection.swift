@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// The most rows a table of the state view shows.

extension WarplyEmulator: InspectableEmulator {
    /// Six tables: `Summary` (counters), `Users` (email, name, points, tier, whether a session is live,
    /// coupons and cards), `Registrations` (the known devices' `web_id`s, last four characters only),
    /// `Devices` (the `device_info` updates, newest first, push tokens by their last four), `Coupons`
    /// (every user's coupons, acquired ones first, codes by their last four) and `Analytics events`
    /// (newest first). Tokens, client secrets and API keys never appear. ``reset()`` empties everything
    /// but the seeded catalogue.
    public func inspect() -> EmulatorStateView {
        state.withLock { state -> EmulatorStateView in
            let emails = state.users.keys.sorted()
            var sessionsByEmail: [String: Int] = [:]
            for session in state.sessions.values { sessionsByEmail[session.email, default: 0] += 1 }
            return EmulatorStateView(tables: [
                Self.summaryTable(state),
                Self.usersTable(state, emails: emails, sessionsByEmail: sessionsByEmail),
                .init(
                    title: "Registrations", columns: ["web id"],
                    rows: state.registrations.keys.map(EmulatorStateView.lastFour).sorted().prefix(EmulatorStateView.rowLimit).map { [$0] }
                ),
                Self.devicesTable(state.deviceInfo),
                Self.couponsTable(state, emails: emails),
                Self.analyticsTable(state.analyticsEvents),
            ])
        }
    }

    private static func summaryTable(_ state: WarplyEmulatorState) -> EmulatorStateView.Table {
        .init(
            title: "Summary", columns: ["counter", "value"],
            rows: [
                ["registrations issued", String(state.registrationCount)],
                ["registrations known", String(state.registrations.count)],
                ["logins", String(state.loginCount)],
                ["sign-ups", String(state.signUps.count)],
                ["token refreshes", String(state.refreshCount)],
                ["live sessions", String(state.sessions.count)],
                ["unused refresh tokens", String(state.refreshTokens.count)],
                ["signature failures", String(state.signatureFailureCount)],
                ["analytics events", String(state.analyticsEvents.count)],
                ["device info updates", String(state.deviceInfo.count)],
                ["OTP requests", String(state.otpRequests.count)],
                ["password reset requests", String(state.passwordResetRequests.count)],
                ["answers status 9 always", state.answersStatus9Always ? "yes" : "no"],
            ])
    }

    private static func usersTable(
        _ state: WarplyEmulatorState, emails: [String], sessionsByEmail: [String: Int]
    ) -> EmulatorStateView.Table {
        let rows = emails.prefix(EmulatorStateView.rowLimit).compactMap { email -> [String]? in
            guard let user = state.users[email] else { return nil }
            let sessions = sessionsByEmail[email] ?? 0
            return [
                email, user.profile.displayName ?? "", String(user.profile.points), user.profile.tier ?? "", sessions > 0 ? "yes" : "no",
                String(sessions), String(user.coupons.count), String(user.redemptionCount), String(user.cards.count),
            ]
        }
        return .init(
            title: "Users",
            columns: ["email", "name", "points", "tier", "logged in", "live sessions", "coupons", "acquired coupons", "cards"],
            rows: rows
        )
    }

    private static func devicesTable(_ updates: [WarplyEmulatorContextRequest]) -> EmulatorStateView.Table {
        let rows = updates.suffix(EmulatorStateView.rowLimit).reversed().map { update -> [String] in
            [
                update.fields["unique_device_id"]?.stringValue ?? "", update.fields["platform"]?.stringValue ?? "",
                update.fields["os_version"]?.stringValue ?? "", update.fields["language"]?.stringValue ?? "",
                EmulatorStateView.lastFour(update.fields["device_token"]?.stringValue ?? ""),
            ]
        }
        return .init(title: "Devices", columns: ["device id", "platform", "OS version", "language", "push token"], rows: rows)
    }

    /// Per user (by email), the coupons in reverse stored order: coupons acquired through redemption
    /// are stored last, so they come first.
    private static func couponsTable(_ state: WarplyEmulatorState, emails: [String]) -> EmulatorStateView.Table {
        var rows: [[String]] = []
        for email in emails {
            if rows.count >= EmulatorStateView.rowLimit { break }
            guard let user = state.users[email] else { continue }
            let firstAcquired = user.coupons.count - user.redemptionCount
            for (index, coupon) in user.coupons.enumerated().reversed() {
                guard rows.count < EmulatorStateView.rowLimit else { break }
                let set = state.catalogue?.couponSet(uuid: coupon.couponSetUUID, language: .english)
                rows.append([
                    email, set?.name ?? coupon.couponSetUUID, EmulatorStateView.lastFour(coupon.code),
                    coupon.status == ServedCoupon.redeemedStatus ? "redeemed" : "active", Self.text(coupon.expiration),
                    coupon.redeemedDate.map { Self.text($0) } ?? "", index >= firstAcquired ? "acquired" : "seeded",
                ])
            }
        }
        return .init(
            title: "Coupons", columns: ["email", "coupon set", "code", "status", "expires", "redeemed at", "origin"], rows: rows
        )
    }

    private static func analyticsTable(_ events: [WarplyAnalyticsBatch.Event]) -> EmulatorStateView.Table {
        let rows = events.suffix(EmulatorStateView.rowLimit).reversed().map { event -> [String] in
            [
                event.eventID, event.eventName, Self.text(ServedTimestamp(event.timeSubmitted)),
                event.params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "),
            ]
        }
        return .init(title: "Analytics events", columns: ["event id", "name", "submitted", "params"], rows: rows)
    }

    /// The timestamp in ISO 8601, or its text as sent when it is not a known date.
    private static func text(_ timestamp: ServedTimestamp) -> String {
        timestamp.date.map { $0.formatted(.iso8601) } ?? timestamp.text
    }
}
