@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird
@_spi(EngageProvider) import EngageCore

/// A local, stateful Warply (DEI loyalty) backend: device registration, signed context requests,
/// OAuth sessions with rotating refresh tokens, coupons that can be redeemed, cards, points and
/// analytics. It writes and reads the wire with types of its own (`WarplyServedTypes.swift`), not the
/// client's, held to the recorded answers in `Development/Providers/Warply/Tests/Fixtures`.
///
/// Routes, relative to `http://127.0.0.1:<port>/warply` (the provider's base URL):
///
/// | route | auth | behaviour |
/// |---|---|---|
/// | `GET /api/mobile/v2/{appUUID}/register/` | none | a new `web_id`/`api_key` (`{"status":"1","context":{…}}`); unknown app: `{"status":"0","msg":…}` |
/// | `POST /api/mobile/v2/{appUUID}/context/` | signed | standard context actions (campaigns, coupon sets, availability, shops, categories, content) |
/// | `POST /oauth/{appUUID}/context` | signed + bearer | every context action, including the user's coupons, redemption, profile, history, market pass and cards |
/// | `POST /partners/dei/app_login` | signed | logs an email in (creating its user on first login); the tokens and client credentials in the result form |
/// | `POST /partners/cosmote/verify` | signed | logs `<guid>@cosmote.emulator` in when the ticket is known |
/// | `POST /partners/oauth/{appUUID}/token` | signed + basic | logs the GUID's user in when the partner credentials match (else 401) |
/// | `POST /oauth/{appUUID}/token` | signed | rotates a refresh token (the tokens at the top level); unknown or used: 401 `{"error":"invalid_grant"}` |
/// | `POST /oauth/{appUUID}/logout` | signed | revokes the refresh token and ends the session; `{"status":1}` |
/// | `POST /user/{appUUID}/register` | signed | creates the user (names, phone number, language in the profile) and logs them in, as the e-mail login answers; an email that has a user, a password under 8 characters or a bad field: status 0 with a message |
/// | `POST /user/{appUUID}/change_password`, `/password_reset`, `/otp/generate` | signed (+ bearer for the first) | status-form answers with validation |
/// | `GET /api/session/{sessionUuid}` | signed | the campaign in the result form; unknown: status 0 |
/// | `POST /api/async/analytics/{appUUID}/` | signed | records ``WarplyAnalyticsBatch`` events, once per `event_id`; `{"status":1}` |
/// | `POST /api/async/info/{appUUID}/` | signed | records a `{"device_info":{…}}` body (`update_device_info`, or `update_token` with `device_token`; the platform, OS version, device id and language required; every field a string); `{"status":1}` |
/// | `POST /oauth/token`, `/oauth/login`, `/pay/context` | as their scoped forms | the un-scoped forms older public clients use: the refresh, the e-mail login and the authenticated context |
///
/// **Signed** means: `loyalty-web-id` must be a registration this emulator issued (else HTTP 200
/// `{"status":"9","msg":…}`, so the client registers again), `loyalty-signature` must equal
/// the hex SHA-256 of the api key and the `loyalty-date` header exactly as sent, and that date
/// must be Unix seconds within ``Configuration/signatureDateTolerance`` of the host's
/// clock (else HTTP 403 `{"status":"-1","msg":…}`). **Bearer** means `Authorization: Bearer <jwt>`
/// with an access token of a live session (else 401; an expired token's message says so).
///
/// Context answers: `{"status":"1","context":{"MAPP_X":{"result":…},"MAPP_X-status":1}}`;
/// a refused action keeps body status 1 and sets the section status (e.g. `MAPP_COUPON-status` 2) and
/// the section's `msg`. An unknown root or action is `{"status":"0","msg":"unknown action"}`. A body that is not
/// the expected JSON is 400 `{"status":"-1","msg":…}`; a body over 1 MiB is 413.
///
/// Everything is deterministic given the host's seed and clock: the catalogue (campaigns, coupon
/// sets, merchants, articles), registrations, users (derived from their email), client credentials
/// and coupon codes all come from `EmulatorEnvironment.makeGenerator(stream:)`. Texts are Greek or
/// English after the request's `language` (Greek by default).
///
/// ```swift
/// let warply = WarplyEmulator()
/// let host = SandboxHost(emulators: [warply])
/// let base = try await host.start().baseURL(for: "warply")!   // http://127.0.0.1:<port>/warply
/// // ... exercise the provider ...
/// #expect(warply.registrationCount == 1)
/// ```
public final class WarplyEmulator: Emulator {
    /// The path prefix, `warply` unless another id was given.
    public let id: String
    /// What the emulated backend accepts and how long its tokens live.
    public let configuration: Configuration

    let state: Locked<WarplyEmulatorState>

    /// Creates the emulator.
    /// - Parameters:
    ///   - id: The path prefix (change it only to serve two Warply backends side by side).
    ///   - configuration: Accepted apps, token lifetimes, partner credentials and test switches.
    public init(id: String = "warply", configuration: Configuration = .init()) {
        self.id = id
        self.configuration = configuration
        self.state = Locked(WarplyEmulatorState(configuration: configuration))
    }

    /// Adds the routes listed in the type's documentation and builds the seeded catalogue.
    public func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        let catalogue = WarplyCatalogue(environment: environment, configuration: configuration)
        state.withLock { $0.install(environment: environment, catalogue: catalogue) }
        addRegistrationRoutes(to: group, environment: environment)
        addContextRoutes(to: group, environment: environment)
        addLoginRoutes(to: group, environment: environment)
        addTokenRoutes(to: group, environment: environment)
        addUserManagementRoutes(to: group, environment: environment)
        addSessionRoutes(to: group, environment: environment)
        addAsyncRoutes(to: group, environment: environment)
    }
}
