@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// The Warply emulator's mutable state, kept behind its lock.
struct WarplyEmulatorState {
    /// The host's environment, set when the routes are added.
    var environment: EmulatorEnvironment?
    /// The seeded catalogue, built when the routes are added.
    var catalogue: WarplyCatalogue?
    /// Whether every signed route answers status 9.
    var answersStatus9Always: Bool
    /// Known registrations: `web_id` → `api_key`.
    var registrations: [String: String] = [:]
    /// Registrations issued (never decreases except on reset).
    var registrationCount = 0
    /// Users by lowercased email.
    var users: [String: WarplyEmulatorUser] = [:]
    /// Live sessions by id.
    var sessions: [String: WarplyEmulatorSession] = [:]
    /// Unused refresh tokens → the session they renew.
    var refreshTokens: [String: String] = [:]
    /// Sessions opened (drives session ids and client credentials).
    var sessionCounter = 0
    /// Coupons left per coupon set UUID.
    var availability: [String: Int] = [:]
    /// Successful logins.
    var loginCount = 0
    /// Successful refreshes.
    var refreshCount = 0
    /// Signed requests refused for their signature or date.
    var signatureFailureCount = 0
    /// Analytics events, each `event_id` once, in arrival order.
    var analyticsEvents: [WarplyAnalyticsBatch.Event] = []
    /// The `event_id`s of ``analyticsEvents``.
    var analyticsEventIDs: Set<String> = []
    /// Device info bodies, in arrival order.
    var deviceInfo: [WarplyEmulatorContextRequest] = []
    /// Phone numbers OTPs were requested for, in arrival order.
    var otpRequests: [String] = []
    /// Emails password resets were requested for, in arrival order.
    var passwordResetRequests: [String] = []
    /// The emails of the users who signed up (`user/{appUUID}/register`), in order.
    var signUps: [String] = []

    init(configuration: WarplyEmulator.Configuration) {
        answersStatus9Always = configuration.answersStatus9Always
    }

    /// Installs the environment and catalogue and starts the catalogue's availability.
    mutating func install(environment: EmulatorEnvironment, catalogue: WarplyCatalogue) {
        self.environment = environment
        self.catalogue = catalogue
        availability = catalogue.initialAvailability
    }

    /// Back to a fresh start, keeping the environment and the catalogue.
    mutating func reset(configuration: WarplyEmulator.Configuration) {
        let environment = environment
        let catalogue = catalogue
        self = WarplyEmulatorState(configuration: configuration)
        if let environment, let catalogue { install(environment: environment, catalogue: catalogue) }
    }
}

/// An open login: who, and the OAuth client credentials handed out with it.
struct WarplyEmulatorSession: Sendable, Hashable {
    /// The session id (the `sid` claim of its tokens).
    var id: String
    /// The user's lowercased email.
    var email: String
    /// The client id given at login.
    var clientID: String
    /// The client secret given at login.
    var clientSecret: String
}
