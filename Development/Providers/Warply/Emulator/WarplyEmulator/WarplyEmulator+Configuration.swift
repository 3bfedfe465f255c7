extension WarplyEmulator {
    /// What the emulated backend accepts, how long its tokens live, and switches for tests.
    public struct Configuration: Sendable {
        /// The app UUID the default configuration knows (the SDK's sample app).
        public static let defaultAppUUID = "f83dfde1145e4c2da69793abb2f579af"

        /// App UUIDs registration accepts; see ``acceptsAnyAppUUID``.
        public var appUUIDs: Set<String>
        /// Whether registration accepts any app UUID (default `true`). When `false`, registering an app
        /// UUID outside ``appUUIDs`` is answered `{"status":"0","msg":…}`.
        public var acceptsAnyAppUUID: Bool
        /// The lifetime of access tokens (default one hour, so the SDK's refresh five minutes before
        /// expiry is meaningful).
        public var accessTokenLifetime: Duration
        /// The lifetime of refresh tokens (default 30 days). An expired refresh token is refused like an
        /// unknown one.
        public var refreshTokenLifetime: Duration
        /// The Cosmote tickets `POST /partners/cosmote/verify` accepts, for any GUID (default `ticket-123`).
        public var cosmoteTickets: Set<String>
        /// The basic-auth credentials `POST /partners/oauth/{appUUID}/token` requires.
        public var partnerCredentials: PartnerCredentials
        /// How many generated campaigns are added to the catalogue's own (default 0), to test huge lists.
        public var extraCampaignCount: Int
        /// When `true`, every signed route answers `{"status":"9"}` even right after a registration, to
        /// test that a client does not loop (see also ``WarplyEmulator/setAnswersStatus9Always(_:)``).
        public var answersStatus9Always: Bool
        /// How far `loyalty-date` may be from the host's clock, either way (default 600 s).
        public var signatureDateTolerance: Duration
        /// The merchant ids accepted as `loyalty-web-id` with the official SDK's signing (an empty API
        /// key: the signature hashes `loyalty-date` alone). Default `[""]`: the official SDK's examples
        /// configure an empty merchant id.
        public var merchantIDs: Set<String>

        /// Creates a configuration; every parameter has a default suited to tests.
        /// - Parameters:
        ///   - appUUIDs: App UUIDs registration accepts (default: ``defaultAppUUID``).
        ///   - acceptsAnyAppUUID: Whether any app UUID is accepted anyway (default `true`).
        ///   - accessTokenLifetime: Access token lifetime (default 3600 s).
        ///   - refreshTokenLifetime: Refresh token lifetime (default 30 days).
        ///   - cosmoteTickets: Accepted Cosmote tickets (default `["ticket-123"]`).
        ///   - partnerCredentials: Cosmote partner credentials (default `cosmote` / `s3cret`).
        ///   - extraCampaignCount: Generated campaigns added to the catalogue (default 0).
        ///   - answersStatus9Always: Whether every signed route answers status 9 (default `false`).
        ///   - signatureDateTolerance: Accepted clock skew of `loyalty-date` (default 600 s).
        ///   - merchantIDs: Merchant ids accepted with merchant signing (default `[""]`).
        public init(
            appUUIDs: Set<String> = [Configuration.defaultAppUUID],
            acceptsAnyAppUUID: Bool = true,
            accessTokenLifetime: Duration = .seconds(3600),
            refreshTokenLifetime: Duration = .seconds(30 * 24 * 3600),
            cosmoteTickets: Set<String> = ["ticket-123"],
            partnerCredentials: PartnerCredentials = .init(),
            extraCampaignCount: Int = 0,
            answersStatus9Always: Bool = false,
            signatureDateTolerance: Duration = .seconds(600),
            merchantIDs: Set<String> = [""]
        ) {
            self.merchantIDs = merchantIDs
            self.appUUIDs = appUUIDs
            self.acceptsAnyAppUUID = acceptsAnyAppUUID
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshTokenLifetime = refreshTokenLifetime
            self.cosmoteTickets = cosmoteTickets
            self.partnerCredentials = partnerCredentials
            self.extraCampaignCount = extraCampaignCount
            self.answersStatus9Always = answersStatus9Always
            self.signatureDateTolerance = signatureDateTolerance
        }

        /// Whether registration accepts `appUUID`.
        public func accepts(appUUID: String) -> Bool {
            acceptsAnyAppUUID || appUUIDs.contains(appUUID)
        }
    }

    /// The basic-auth credentials of the Cosmote partner endpoint.
    public struct PartnerCredentials: Sendable, Hashable, CustomStringConvertible {
        /// The user name.
        public var username: String
        /// The password. Never logged.
        public var password: String

        /// Credentials (default `cosmote` / `s3cret`).
        public init(username: String = "cosmote", password: String = "s3cret") {
            self.username = username
            self.password = password
        }

        /// The user name with the password redacted.
        public var description: String { "PartnerCredentials(username: \(username), password: <redacted>)" }
    }
}
