@_spi(EngageProvider) import EngageCore

extension WarplyEmulator {
    /// How many registrations `GET …/register/` has issued (since the start or the last ``reset()``).
    public var registrationCount: Int { state.withLock { $0.registrationCount } }

    /// Makes every registration issued so far unknown: the next signed request of each device is
    /// answered `{"status":"9"}`, so it must register again.
    public func forgetRegistrations() {
        state.withLock { $0.registrations.removeAll() }
    }

    /// How many times `POST /oauth/{appUUID}/token` rotated a refresh token.
    public var refreshCount: Int { state.withLock { $0.refreshCount } }

    /// The emails (lowercased) of the users who signed up, in order.
    public var signUps: [String] { state.withLock { $0.signUps } }

    /// How many logins (DEI, Cosmote ticket, Cosmote user) succeeded.
    public var loginCount: Int { state.withLock { $0.loginCount } }

    /// Revokes every outstanding refresh token, as the backend does when sessions are revoked: the next
    /// refresh of any client is refused (401 `invalid_grant`). Access tokens keep working until they expire.
    public func revokeAllRefreshTokens() {
        state.withLock { $0.refreshTokens.removeAll() }
    }

    /// How many signed requests were refused with 403 for their `loyalty-signature` or `loyalty-date`.
    public var signatureFailureCount: Int { state.withLock { $0.signatureFailureCount } }

    /// The profile of the user `email` (any case), or `nil` before that user's first login. Its
    /// `points` reflect redemptions.
    package func profile(forEmail email: String) -> ServedProfile? {
        state.withLock { $0.users[email.lowercased()]?.profile }
    }

    /// The cards stored for `email` (masked numbers only), in the order added.
    package func cards(forEmail email: String) -> [ServedCard] {
        state.withLock { $0.users[email.lowercased()]?.cards ?? [] }
    }

    /// The coupons of `email`, in Greek, active and redeemed, in stored order (acquired ones last).
    package func coupons(forEmail email: String) -> [ServedCoupon] {
        state.withLock { state in
            guard let catalogue = state.catalogue, let user = state.users[email.lowercased()] else { return [] }
            return user.coupons.map { catalogue.coupon($0, language: .greek) }
        }
    }

    /// How many coupons of the coupon set `uuid` are left, or `nil` for an unknown set (or before the
    /// host has started).
    public func availability(ofCouponSet uuid: String) -> Int? {
        state.withLock { $0.availability[uuid] }
    }

    /// The UUIDs of the catalogue's coupon sets, in catalogue order (empty before the host has started).
    public var couponSetUUIDs: [String] {
        state.withLock { $0.catalogue?.couponSets[.greek]?.map(\.uuid) ?? [] }
    }

    /// The analytics events received, each `event_id` once, in arrival order.
    package var receivedAnalyticsEvents: [WarplyAnalyticsBatch.Event] { state.withLock { $0.analyticsEvents } }

    /// The `{"device_info":{…}}` bodies received, in arrival order (root `device_info`, the raw fields
    /// in `fields`, and `action` if one was sent).
    package var receivedDeviceInfo: [WarplyEmulatorContextRequest] { state.withLock { $0.deviceInfo } }

    /// The phone numbers (`msisdn`, as sent) of accepted OTP requests, in arrival order.
    public var otpRequests: [String] { state.withLock { $0.otpRequests } }

    /// The emails of accepted password reset requests, in arrival order.
    public var passwordResetRequests: [String] { state.withLock { $0.passwordResetRequests } }

    /// Turns on or off answering status 9 to every signed route (see
    /// ``Configuration/answersStatus9Always``); ``reset()`` restores the configured value.
    public func setAnswersStatus9Always(_ enabled: Bool) {
        state.withLock { $0.answersStatus9Always = enabled }
    }

    /// Back to a fresh start: no registrations, users, sessions, tokens or recorded requests, counters
    /// at zero, the starting availability, and the configured status-9 switch. The catalogue is kept,
    /// and ids issued afterwards are the same as after a fresh start.
    public func reset() {
        state.withLock { $0.reset(configuration: configuration) }
    }
}
