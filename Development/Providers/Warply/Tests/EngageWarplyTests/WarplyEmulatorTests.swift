// Emulator-only tests: the Warply emulator served on an ephemeral loopback port and driven with
// URLSession directly (no provider), so the wire behaviour the SDK relies on is pinned down.
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Warply emulator", .bounded)
struct WarplyEmulatorTests {
    @Test("A registration signs a campaigns call")
    func registrationThenSignedCampaigns() async throws {
        try await EmulatorHarness.run { harness in
            let registration = try await harness.register()
            #expect(harness.emulator.registrationCount == 1)
            let reply = try await harness.context(
                .init(root: "campaigns", action: "retrieve", fields: ["language": .string("en")]), registration)
            #expect(reply.status == 200)
            let response = try WarplyContextResponse<[WarplyCampaign]>.decode(reply.body, section: WarplyWire.Section.campaigning)
            #expect(response.status == 1)
            #expect(response.sectionStatus == 1)
            let campaigns = try #require(response.result)
            #expect(campaigns.count == 14)
            #expect(campaigns.filter(\.isCarousel).count == 2)
            #expect(campaigns.contains(where: \.isCCMS) && campaigns.contains(where: \.isTelco))
            #expect(campaigns.contains(where: \.isQuestionnaire) && campaigns.contains(where: \.isSupermarket))
            #expect(Set(campaigns.map(\.sorting)).count == campaigns.count)
            // Escaped slashes arrive as text and are cleaned by the model.
            #expect(String(decoding: reply.body, as: UTF8.self).contains(#"https:\\/\\/"#))
            #expect(campaigns.allSatisfy { $0.indexURL?.contains(#"\/"#) != true })
        }
    }

    @Test("A wrong signature or a stale date is 403")
    func badSignature() async throws {
        try await EmulatorHarness.run { harness in
            let registration = try await harness.register()
            var headers = harness.signedHeaders(registration)
            headers[WarplyWire.Header.signature] = String(repeating: "0", count: 64)
            let forged = try await harness.send(
                "POST", WarplyWire.path(.standardContext, appUUID: EmulatorHarness.appUUID),
                body: EmulatorHarness.encode(WarplyContextRequest(root: "coupon", action: "availability")),
                headers: headers)
            #expect(forged.status == 403)
            #expect(forged.object["status"] == "-1")

            let stale = harness.signedHeaders(registration, date: harness.clock.now.addingTimeInterval(-3_600))
            let late = try await harness.send(
                "POST", WarplyWire.path(.standardContext, appUUID: EmulatorHarness.appUUID),
                body: EmulatorHarness.encode(WarplyContextRequest(root: "coupon", action: "availability")),
                headers: stale)
            #expect(late.status == 403)
            #expect(harness.emulator.signatureFailureCount == 2)
        }
    }

    @Test("An unknown web_id gets status 9")
    func unknownRegistration() async throws {
        try await EmulatorHarness.run { harness in
            let registration = try await harness.register()
            harness.emulator.forgetRegistrations()
            let reply = try await harness.context(.init(root: "campaigns", action: "retrieve"), registration)
            #expect(reply.status == 200)
            #expect(reply.object["status"] == "9")
            #expect(harness.emulator.signatureFailureCount == 0)
        }
    }

    @Test("A login opens bearer calls; no token is 401")
    func loginAndBearer() async throws {
        try await EmulatorHarness.run { harness in
            let registration = try await harness.register()
            let tokens = try await harness.login(email: "Maria@Example.gr", registration)
            #expect(harness.emulator.loginCount == 1)
            #expect(tokens.clientID != nil && tokens.clientSecret != nil)
            let profileRequest = WarplyContextRequest(
                root: "consumer_data", action: "handle_user_details", fields: ["process": .string("get")])
            let reply = try await harness.context(profileRequest, registration, bearer: tokens.accessToken)
            let profile = try #require(try WarplyContextResponse<WarplyProfile>.decode(reply.body, section: WarplyWire.Section.user).result)
            #expect(profile.email == "maria@example.gr")
            #expect(profile.points == harness.emulator.profile(forEmail: "maria@example.gr")?.points)

            let anonymous = try await harness.context(profileRequest, registration, authenticated: true)
            #expect(anonymous.status == 401)
        }
    }

    @Test("The un-scoped legacy routes (oauth/login, oauth/token, pay/context) answer as the scoped ones")
    func legacyRoutes() async throws {
        try await EmulatorHarness.run { harness in
            let registration = try await harness.register()
            let login = try await harness.signed(
                "POST", "/oauth/login", WarplyAuthRequest.DEILogin(email: "eleni@example.gr"), registration)
            #expect(login.status == 200)
            let tokens = try JSONDecoder().decode(WarplyTokenAnswer.self, from: login.body)
            let refresh = WarplyAuthRequest.Refresh(
                refreshToken: try #require(tokens.refreshToken), clientID: try #require(tokens.clientID),
                clientSecret: try #require(tokens.clientSecret))
            let rotated = try await harness.signed("POST", "/oauth/token", refresh, registration)
            #expect(rotated.status == 200 && harness.emulator.refreshCount == 1)
            let access = try JSONDecoder().decode(WarplyTokenAnswer.self, from: rotated.body).accessToken
            var headers = harness.signedHeaders(registration)
            headers["Authorization"] = "Bearer " + access
            let profileRequest = WarplyContextRequest(
                root: "consumer_data", action: "handle_user_details", fields: ["process": .string("get")])
            let profile = try await harness.send("POST", "/pay/context", body: EmulatorHarness.encode(profileRequest), headers: headers)
            #expect(profile.status == 200)
            let user = try #require(try WarplyContextResponse<WarplyProfile>.decode(profile.body, section: WarplyWire.Section.user).result)
            #expect(user.email == "eleni@example.gr")
            // Unsigned (no registration: status 9, register again) or without a token (401), the legacy
            // routes refuse like the scoped ones.
            let unsigned = try await harness.send("POST", "/pay/context", body: EmulatorHarness.encode(profileRequest))
            #expect(unsigned.status == 200 && unsigned.object["status"] == "9", "\(unsigned.status) \(unsigned.object)")
            let anonymous = try await harness.send(
                "POST", "/pay/context", body: EmulatorHarness.encode(profileRequest), headers: harness.signedHeaders(registration))
            #expect(anonymous.status == 401)
        }
    }

    @Test("An expired access token is 401 and says so")
    func expiredAccessToken() async throws {
        try await EmulatorHarness.run(.init(accessTokenLifetime: .seconds(60))) { harness in
            let registration = try await harness.register()
            let tokens = try await harness.login(email: "nikos@example.gr", registration)
            harness.clock.advance(by: .seconds(120))
            let reply = try await harness.context(.init(root: "cards", action: "get_cards"), registration, bearer: tokens.accessToken)
            #expect(reply.status == 401)
            #expect(reply.object["error_description"]?.contains("expired") == true)
        }
    }

    @Test("A refresh rotates: the old refresh token is refused afterwards")
    func refreshRotation() async throws {
        try await EmulatorHarness.run { harness in
            let registration = try await harness.register()
            let tokens = try await harness.login(email: "eleni@example.gr", registration)
            let refreshToken = try #require(tokens.refreshToken)
            let request = WarplyAuthRequest.Refresh(
                refreshToken: refreshToken, clientID: try #require(tokens.clientID), clientSecret: try #require(tokens.clientSecret)
            )
            let first = try await harness.signed("POST", WarplyWire.path(.token, appUUID: EmulatorHarness.appUUID), request, registration)
            #expect(first.status == 200)
            let rotated = try JSONDecoder().decode(WarplyTokenAnswer.self, from: first.body)
            #expect(rotated.refreshToken != refreshToken)
            #expect(harness.emulator.refreshCount == 1)

            let reused = try await harness.signed("POST", WarplyWire.path(.token, appUUID: EmulatorHarness.appUUID), request, registration)
            #expect(reused.status == 401)
            #expect(reused.object["error"] == "invalid_grant")
            let fresh = try await harness.context(.init(root: "cards", action: "get_cards"), registration, bearer: rotated.accessToken)
            #expect(fresh.status == 200)
        }
    }

    @Test("Redeeming takes a coupon from the set and points from the user")
    func redeem() async throws {
        try await EmulatorHarness.run { harness in
            let registration = try await harness.register()
            let email = "kostas@example.gr"
            let tokens = try await harness.login(email: email, registration)
            let setsReply = try await harness.context(.init(root: "coupon", action: "retrieve_multilingual"), registration)
            let sets = try #require(
                try WarplyContextResponse<[WarplyCouponSet]>.decode(setsReply.body, section: WarplyWire.Section.coupon).result)
            let soldOut = try #require(sets.first { harness.emulator.availability(ofCouponSet: $0.uuid) == 0 })
            let set = try #require(
                sets.filter { (harness.emulator.availability(ofCouponSet: $0.uuid) ?? 0) > 0 }.min { ($0.points ?? 0) < ($1.points ?? 0) })
            let before = try #require(harness.emulator.availability(ofCouponSet: set.uuid))
            let pointsBefore = try #require(harness.emulator.profile(forEmail: email)?.points)
            let couponsBefore = harness.emulator.coupons(forEmail: email).count

            let redeem = WarplyContextRequest(root: "coupon", action: "redeem", fields: ["product_uuid": .string(set.uuid)])
            let reply = try await harness.context(redeem, registration, bearer: tokens.accessToken)
            let redemption = try #require(
                try WarplyContextResponse<WarplyRedemption>.decode(reply.body, section: WarplyWire.Section.coupon).result)
            #expect(redemption.couponSetUUID == set.uuid)
            #expect(harness.emulator.availability(ofCouponSet: set.uuid) == before - 1)
            #expect(harness.emulator.profile(forEmail: email)?.points == pointsBefore - (set.points ?? 0))
            let coupons = harness.emulator.coupons(forEmail: email)
            #expect(coupons.count == couponsBefore + 1)
            #expect(coupons.last?.code == redemption.couponCode && coupons.last?.isActive == true)

            let availabilityReply = try await harness.context(.init(root: "coupon", action: "availability"), registration)
            let availability = try #require(
                try WarplyContextResponse<[WarplyCouponAvailability]>.decode(availabilityReply.body, section: WarplyWire.Section.coupon)
                    .result
            )
            #expect(availability.first { $0.couponSetUUID == set.uuid }?.availability == before - 1)

            let refused = try await harness.context(
                .init(root: "coupon", action: "redeem", fields: ["product_uuid": .string(soldOut.uuid)]), registration,
                bearer: tokens.accessToken
            )
            let refusal = try WarplyContextResponse<WarplyRedemption>.decode(refused.body, section: WarplyWire.Section.coupon)
            #expect(refusal.sectionStatus == 2)
            #expect(refusal.result == nil)
        }
    }

    @Test("Analytics events are recorded once per event_id")
    func analyticsDeduplication() async throws {
        try await EmulatorHarness.run { harness in
            let registration = try await harness.register()
            let event = WarplyAnalyticsBatch.Event(
                eventID: "e-1", eventName: "custom_success_profile_loyalty", timeSubmitted: "2026-01-01 10:00:00")
            let batch = WarplyAnalyticsBatch(events: [event, event])
            let path = WarplyWire.path(.analytics, appUUID: EmulatorHarness.appUUID)
            #expect(try await harness.signed("POST", path, batch, registration).status == 200)
            #expect(try await harness.signed("POST", path, batch, registration).status == 200)
            #expect(harness.emulator.receivedAnalyticsEvents == [event])
        }
    }
}

/// One HTTP answer of the emulator.
private struct EmulatorReply {
    var status: Int
    var body: Data

    /// The body as an object of strings (for error and status bodies); empty when it is not one.
    var object: [String: String] { (try? JSONDecoder().decode([String: String].self, from: body)) ?? [:] }
}

/// A running sandbox host serving one Warply emulator, a clock shared with it, and a URL session.
private struct EmulatorHarness {
    static let appUUID = WarplyEmulator.Configuration.defaultAppUUID

    let emulator: WarplyEmulator
    let clock: FakeClock
    let baseURL: URL
    let session: URLSession

    /// Serves an emulator with `configuration` on port 0, runs `body`, and always stops the host.
    static func run(_ configuration: WarplyEmulator.Configuration = .init(), _ body: (EmulatorHarness) async throws -> Void) async throws {
        let emulator = WarplyEmulator(configuration: configuration)
        let clock = FakeClock(now: Date(timeIntervalSince1970: 1_767_225_600))
        let host = SandboxHost(emulators: [emulator], configuration: SandboxConfiguration(now: { clock.now }))
        let endpoints = try await host.start()
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = 10
        let session = URLSession(configuration: sessionConfiguration)
        defer { session.invalidateAndCancel() }
        do {
            let baseURL = try #require(endpoints.baseURL(for: emulator.id))
            try await body(EmulatorHarness(emulator: emulator, clock: clock, baseURL: baseURL, session: session))
            await host.stop()
        } catch {
            await host.stop()
            throw error
        }
    }

    static func encode(_ value: some Encodable) throws -> Data {
        try JSONEncoder().encode(value)
    }

    /// Registers the device.
    func register() async throws -> WarplyRegistration {
        let reply = try await send("GET", WarplyWire.path(.register, appUUID: Self.appUUID))
        let response = try JSONDecoder().decode(WarplyRegistrationResponse.self, from: reply.body)
        return try #require(response.context)
    }

    /// The signed headers of `registration` at `date` (the clock's now by default).
    func signedHeaders(_ registration: WarplyRegistration, date: Date? = nil) -> [String: String] {
        let text = String(Int64((date ?? clock.now).timeIntervalSince1970))
        return [
            WarplyWire.Header.webID: registration.webID, WarplyWire.Header.date: text,
            WarplyWire.Header.signature: WarplyWire.signature(apiKey: registration.apiKey, date: text),
        ]
    }

    /// A signed context request: the authenticated context with `bearer` (or when `authenticated`),
    /// else the standard one.
    func context(
        _ request: WarplyContextRequest, _ registration: WarplyRegistration, bearer: String? = nil, authenticated: Bool = false
    ) async throws -> EmulatorReply {
        var headers = signedHeaders(registration)
        if let bearer { headers["Authorization"] = "Bearer " + bearer }
        let template: WarplyWire.PathTemplate = bearer != nil || authenticated ? .authenticatedContext : .standardContext
        return try await send("POST", WarplyWire.path(template, appUUID: Self.appUUID), body: Self.encode(request), headers: headers)
    }

    /// A signed request with a JSON body.
    func signed(_ method: String, _ path: String, _ body: some Encodable, _ registration: WarplyRegistration) async throws -> EmulatorReply
    {
        try await send(method, path, body: Self.encode(body), headers: signedHeaders(registration))
    }

    /// Logs `email` in through the DEI partner route.
    func login(email: String, _ registration: WarplyRegistration) async throws -> WarplyTokenAnswer {
        let reply = try await signed(
            "POST", WarplyWire.path(.deiLogin, appUUID: Self.appUUID), WarplyAuthRequest.DEILogin(email: email), registration)
        #expect(reply.status == 200)
        return try JSONDecoder().decode(WarplyTokenAnswer.self, from: reply.body)
    }

    func send(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> EmulatorReply {
        var request = URLRequest(url: try #require(URL(string: baseURL.absoluteString + path)))
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        return EmulatorReply(status: try #require(response as? HTTPURLResponse).statusCode, body: data)
    }
}
