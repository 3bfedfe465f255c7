@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

extension WarplyEmulatorState {
    /// The claim naming a token's session.
    static let sessionClaim = "sid"
    /// The claim naming a token's kind.
    static let tokenTypeClaim = "typ"
    /// ``tokenTypeClaim`` of access tokens.
    static let accessTokenType = "access"
    /// ``tokenTypeClaim`` of refresh tokens.
    static let refreshTokenType = "refresh"

    /// Issues a new registration (`web_id`, `api_key`) from the seeded stream `registration/<n>`.
    mutating func register(environment: EmulatorEnvironment) -> ServedRegistration {
        registrationCount += 1
        var generator = environment.makeGenerator(stream: "registration/\(registrationCount)")
        let registration = ServedRegistration(webID: generator.nextHex(byteCount: 16), apiKey: generator.nextHex(byteCount: 32))
        registrations[registration.webID] = registration.apiKey
        return registration
    }

    /// Creates the user of a sign-up, with its names, phone number and language in the profile;
    /// `false` when a user with that email exists (signed up or logged in before) or before the host started.
    mutating func signUp(_ body: ServedRequest.RegisterUser, environment: EmulatorEnvironment) -> Bool {
        let key = body.email.lowercased()
        guard users[key] == nil, let catalogue else { return false }
        var user = WarplyEmulatorUser.seeded(email: key, catalogue: catalogue, environment: environment)
        if let firstName = body.firstName { user.profile.firstName = firstName }
        if let lastName = body.lastName { user.profile.lastName = lastName }
        if body.firstName != nil || body.lastName != nil {
            user.profile.displayName = [body.firstName, body.lastName.map { "\($0.prefix(1))." }].compactMap { $0 }.joined(separator: " ")
        }
        if let msisdn = body.msisdn { user.profile.msisdn = msisdn }
        user.profile.language = body.language
        users[key] = user
        signUps.append(key)
        return true
    }

    /// Logs `email` in: creates the user on first login, opens a session with fresh client
    /// credentials and issues its tokens.
    mutating func login(
        email: String, configuration: WarplyEmulator.Configuration, environment: EmulatorEnvironment
    ) -> ServedTokens {
        let key = email.lowercased()
        if users[key] == nil, let catalogue {
            users[key] = WarplyEmulatorUser.seeded(email: key, catalogue: catalogue, environment: environment)
        }
        sessionCounter += 1
        var generator = environment.makeGenerator(stream: "session/\(sessionCounter)")
        let session = WarplyEmulatorSession(
            id: generator.nextHex(byteCount: 16), email: key, clientID: generator.nextHex(byteCount: 8),
            clientSecret: generator.nextHex(byteCount: 24)
        )
        sessions[session.id] = session
        loginCount += 1
        let tokens = issueTokens(for: session, configuration: configuration, environment: environment)
        return ServedTokens(
            accessToken: tokens.access, refreshToken: tokens.refresh, clientID: session.clientID, clientSecret: session.clientSecret
        )
    }

    /// Rotates `refreshToken`: when it is unused, unexpired and the client credentials are its
    /// session's, it stops working and a new pair is returned; otherwise `nil`.
    mutating func refresh(
        _ refreshToken: String, clientID: String, clientSecret: String, configuration: WarplyEmulator.Configuration,
        environment: EmulatorEnvironment
    ) -> ServedTokens? {
        guard let sessionID = refreshTokens[refreshToken], let session = sessions[sessionID],
            session.clientID == clientID, session.clientSecret == clientSecret
        else {
            return nil
        }
        guard (try? environment.jwt.verify(refreshToken)) != nil else {
            refreshTokens[refreshToken] = nil
            return nil
        }
        refreshTokens[refreshToken] = nil
        refreshCount += 1
        let tokens = issueTokens(for: session, configuration: configuration, environment: environment)
        return ServedTokens(accessToken: tokens.access, refreshToken: tokens.refresh)
    }

    /// Ends the session a logout names, by its refresh token or else its access token, and revokes its
    /// refresh tokens. Unknown tokens are ignored.
    mutating func logout(accessToken: String, refreshToken: String?, environment: EmulatorEnvironment) {
        var sessionID = refreshToken.flatMap { refreshTokens[$0] }
        if sessionID == nil, let claims = try? environment.jwt.verify(accessToken) {
            sessionID = claims.extraClaims[Self.sessionClaim]
        }
        if let refreshToken { refreshTokens[refreshToken] = nil }
        guard let sessionID else { return }
        sessions[sessionID] = nil
        refreshTokens = refreshTokens.filter { $0.value != sessionID }
    }

    /// An access token and a tracked refresh token for `session`.
    private mutating func issueTokens(
        for session: WarplyEmulatorSession, configuration: WarplyEmulator.Configuration, environment: EmulatorEnvironment
    ) -> (access: String, refresh: String) {
        let access = environment.jwt.issue(
            subject: session.email, lifetime: configuration.accessTokenLifetime,
            extraClaims: [Self.sessionClaim: session.id, Self.tokenTypeClaim: Self.accessTokenType]
        )
        let refresh = environment.jwt.issue(
            subject: session.email, lifetime: configuration.refreshTokenLifetime,
            extraClaims: [Self.sessionClaim: session.id, Self.tokenTypeClaim: Self.refreshTokenType], isRefreshToken: true
        )
        refreshTokens[refresh] = session.id
        return (access, refresh)
    }
}
