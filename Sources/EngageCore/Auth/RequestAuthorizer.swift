import Foundation
import HTTPTypes

/// Adds credentials to requests, and renews them when a server refused them.
///
/// EngageKit ships the schemes its providers use: `BearerAuthorizer` (token pair with refresh),
/// `SignedHeadersAuthorizer` (per-request signature headers), `BasicAuthorizer`,
/// `HostTokenAuthorizer` (the host app owns the session) and `NoAuthorizer`.
@_spi(EngageProvider) public protocol RequestAuthorizer: Sendable {
    /// Adds credentials to `request`. When `request.options.authorization` is `.required` and there are
    /// none, throws `.unauthorized` without a network call.
    func authorize(_ request: inout HTTPRequestMessage) async throws

    /// Called at most once per call, when the server refused a credential of the request as sent (a 401,
    /// or what the provider's `ResponsePolicy` reads as a refusal). Returns `true` when this
    /// authoriser renewed that credential and the request should be sent again (once); `false` leaves
    /// the refusal as the call's outcome.
    func renew(after rejection: CredentialRejection) async throws -> Bool
}

extension RequestAuthorizer {
    /// Never renews by default: the refusal stands.
    public func renew(after rejection: CredentialRejection) async throws -> Bool { false }
}

/// Sends requests without credentials.
@_spi(EngageProvider) public struct NoAuthorizer: RequestAuthorizer {
    /// An authoriser that adds nothing.
    public init() {}

    /// Leaves the request as it is.
    public func authorize(_ request: inout HTTPRequestMessage) async throws {}
}

/// `Authorization: Bearer <access token>` from a `TokenManager`, refreshed when needed.
@_spi(EngageProvider) public struct BearerAuthorizer: RequestAuthorizer {
    /// The session whose access token is sent.
    public let tokens: TokenManager

    /// An authoriser sending `tokens`' access token.
    public init(tokens: TokenManager) {
        self.tokens = tokens
    }

    /// Adds `Authorization: Bearer <token>`, refreshing first if needed; throws `.unauthorized` for a required request without a session.
    public func authorize(_ request: inout HTTPRequestMessage) async throws {
        guard let token = try await tokens.validAccessToken() else {
            if request.options.authorization == .required {
                throw EngageError(
                    .unauthorized, "This operation needs a logged-in user.", providerID: tokens.providerID,
                    recoverySuggestion: "Log in first."
                )
            }
            return
        }
        request.head.headerFields[.authorization] = "Bearer \(token)"
    }

    /// For a refused access token, refreshes if it is still current (else uses the newer one); returns
    /// `true` to resend.
    public func renew(after rejection: CredentialRejection) async throws -> Bool {
        guard rejection.credential == .accessToken, let header = rejection.request.head.headerFields[.authorization],
            header.hasPrefix("Bearer ")
        else { return false }
        _ = try await tokens.accessTokenAfterUnauthorized(failedAccessToken: String(header.dropFirst("Bearer ".count)))
        return true
    }
}

/// `Authorization: Bearer <key>` with a fixed key: an API key or a token that does not expire. It is
/// not sent on requests marked `authorization: .none` (the authorisation middleware skips them), and a
/// 401 is returned as it is, since there is nothing to renew. The key never appears in `description`,
/// `dump` or `Mirror` output.
@_spi(EngageProvider) public struct StaticBearerAuthorizer: RequestAuthorizer, CustomStringConvertible, CustomReflectable {
    private let key: String

    /// An authoriser sending `key`; an empty key sends nothing and fails `.required` requests with
    /// `.unauthorized` before they are sent.
    public init(key: String) {
        self.key = key
    }

    /// Adds `Authorization: Bearer <key>`.
    public func authorize(_ request: inout HTTPRequestMessage) async throws {
        guard !key.isEmpty else {
            if request.options.authorization == .required {
                throw EngageError(
                    .unauthorized, "This operation needs an API key.", recoverySuggestion: "Configure the provider's API key.")
            }
            return
        }
        request.head.headerFields[.authorization] = "Bearer \(key)"
    }

    /// `StaticBearerAuthorizer(key: <redacted>)`.
    public var description: String { "StaticBearerAuthorizer(key: \(Redactor.mask))" }

    /// No children: the key stays out of `dump` and debuggers.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// `Authorization: Basic base64(user:password)`.
@_spi(EngageProvider) public struct BasicAuthorizer: RequestAuthorizer {
    private let credentials: @Sendable () async throws -> (username: String, password: String)?

    /// Uses fixed credentials.
    public init(username: String, password: String) {
        self.credentials = { (username, password) }
    }

    /// Reads credentials on every request (`nil` when there are none).
    public init(credentials: @escaping @Sendable () async throws -> (username: String, password: String)?) {
        self.credentials = credentials
    }

    /// Adds `Authorization: Basic …`; throws `.unauthorized` for a required request without credentials.
    public func authorize(_ request: inout HTTPRequestMessage) async throws {
        guard let (username, password) = try await credentials() else {
            if request.options.authorization == .required {
                throw EngageError(.unauthorized, "No credentials are configured for this request.")
            }
            return
        }
        let encoded = Data("\(username):\(password)".utf8).base64EncodedString()
        request.head.headerFields[.authorization] = "Basic \(encoded)"
    }
}

/// Computes headers that sign each request (for example Warply's `loyalty-signature`).
@_spi(EngageProvider) public protocol RequestSigner: Sendable {
    /// The header fields to add to `request`, signed at `date`.
    func signatureHeaders(for request: HTTPRequestMessage, at date: Date) async throws -> HTTPFields

    /// Renews the signing key the server refused (`rejection.credential` is `.signingKey`; the
    /// refused request carries the headers this signer added). `true` when the next request is signed
    /// with another key. Never renews by default.
    func renewKey(after rejection: CredentialRejection) async throws -> Bool
}

extension RequestSigner {
    /// Never renews: a refused key stands.
    public func renewKey(after rejection: CredentialRejection) async throws -> Bool { false }
}

/// Adds the headers computed by a `RequestSigner`.
@_spi(EngageProvider) public struct SignedHeadersAuthorizer: RequestAuthorizer {
    /// Computes the signature headers.
    public let signer: any RequestSigner
    /// The clock whose time is signed.
    public let clock: any EngageClock

    /// An authoriser adding `signer`'s headers, signed at `clock.now`.
    public init(signer: any RequestSigner, clock: any EngageClock = SystemClock()) {
        self.signer = signer
        self.clock = clock
    }

    /// Adds (replacing) the signature headers for `request`.
    public func authorize(_ request: inout HTTPRequestMessage) async throws {
        let fields = try await signer.signatureHeaders(for: request, at: clock.now)
        for field in fields {
            request.head.headerFields[field.name] = field.value
        }
    }

    /// Asks the signer to renew a refused signing key.
    public func renew(after rejection: CredentialRejection) async throws -> Bool {
        guard rejection.credential == .signingKey else { return false }
        return try await signer.renewKey(after: rejection)
    }
}

/// Applies several authorisers in order (e.g. signed headers plus a bearer token); renewal is asked
/// of each until one renews the refused credential.
@_spi(EngageProvider) public struct CompositeAuthorizer: RequestAuthorizer {
    /// The authorisers, applied in order.
    public let authorizers: [any RequestAuthorizer]

    /// Applies `authorizers` in order.
    public init(_ authorizers: [any RequestAuthorizer]) {
        self.authorizers = authorizers
    }

    /// Applies every authoriser's credentials, in order.
    public func authorize(_ request: inout HTTPRequestMessage) async throws {
        for authorizer in authorizers {
            try await authorizer.authorize(&request)
        }
    }

    /// Asks each authoriser in order to renew; `true` as soon as one did.
    public func renew(after rejection: CredentialRejection) async throws -> Bool {
        for authorizer in authorizers where try await authorizer.renew(after: rejection) {
            return true
        }
        return false
    }
}
