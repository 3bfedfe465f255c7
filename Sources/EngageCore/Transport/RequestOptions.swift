/// Per-request choices read by the middleware.
public struct RequestOptions: Sendable {
    /// Whether the request needs the client's authoriser.
    public enum Authorization: Sendable, Equatable {
        /// Authorise if the authoriser has credentials; send anyway if it has none.
        case ifAvailable
        /// Authorise or fail without a network call.
        case required
        /// Never authorise (public endpoints, token endpoints).
        case none
    }

    /// The per-attempt timeout (the longest silence); `nil` uses the client's default.
    public var timeout: Duration?
    /// The longest the whole call may take, all attempts and retry waits included; `nil` uses the
    /// client's (`network.callDeadlineSeconds`). A call past it fails with a retryable `.timeout`.
    public var deadline: Duration?
    /// Whether the request may be sent again after it may have reached the server. Idempotent methods
    /// always may; set this for a POST the server deduplicates (for example by an idempotency key).
    public var isRepeatable: Bool
    /// Whether automatic retries are allowed at all.
    public var allowsRetry: Bool
    /// Authorisation requirement.
    public var authorization: Authorization
    /// The largest response body accepted, in bytes; `nil` uses the `APIClient`'s limit (the
    /// configuration's `network.maxResponseBytes` for providers), or `defaultMaxResponseBytes` for a
    /// request sent to a transport directly. A larger body (announced by `Content-Length` or received)
    /// fails with `.decoding`.
    public var maxResponseBytes: Int?
    /// A name for logs and metrics, e.g. `"redeem_coupon"`.
    public var operationName: String?
    /// A file that receives the response body instead of memory (large downloads); `nil` keeps the
    /// body in the response. `maxResponseBytes` still applies to what is written.
    public var bodyFile: ResponseBodyFile?
    /// The credential a `RequestSigner` signs this request with, pinned by the provider for one pass
    /// of a call (`APIClient.Hooks.prepare`), so that an answer refusing it can be traced to exactly
    /// that credential. Never sent as such, and redacted from descriptions; `nil` lets the signer
    /// choose.
    public var signingCredential: SigningCredential?
    /// Whether this request is the re-send a provider's response interpreter asked for
    /// (`APIClient.Hooks.interpret`); set by `APIClient`.
    public internal(set) var isResend = false
    /// The sends left to the logical call this request belongs to; set by `APIClient`.
    var sendBudget: SendBudget?
    /// When the call this request belongs to must be over, on the monotonic clock (transfers happen in
    /// real time); set by `APIClient` from ``deadline``.
    package var expiresAt: ContinuousClock.Instant?

    /// The limit applied when neither the request nor its client sets one: 16 MiB.
    public static let defaultMaxResponseBytes = 16 * 1024 * 1024

    /// Options with the given choices; the defaults suit a non-repeatable call that authorises when it
    /// can, may be retried where safe, and uses the client's timeout and size limit.
    public init(
        timeout: Duration? = nil,
        deadline: Duration? = nil,
        isRepeatable: Bool = false,
        allowsRetry: Bool = true,
        authorization: Authorization = .ifAvailable,
        maxResponseBytes: Int? = nil,
        operationName: String? = nil,
        bodyFile: ResponseBodyFile? = nil,
        signingCredential: SigningCredential? = nil
    ) {
        self.timeout = timeout
        self.deadline = deadline
        self.isRepeatable = isRepeatable
        self.allowsRetry = allowsRetry
        self.authorization = authorization
        self.maxResponseBytes = maxResponseBytes
        self.operationName = operationName
        self.bodyFile = bodyFile
        self.signingCredential = signingCredential
    }
}

/// A key a request is signed with: its public id and its secret. The secret never appears in a
/// description, `dump` or mirror.
public struct SigningCredential: Sendable, Hashable, SecretBearing {
    /// The public half, sent with the request (e.g. Warply's `web_id`).
    public var keyID: String
    /// The secret the signature is computed with (e.g. Warply's `api_key`); never sent.
    public var secret: String

    /// A credential with its public `keyID` and its `secret`.
    public init(keyID: String, secret: String) {
        self.keyID = keyID
        self.secret = secret
    }

    /// The key id, with the secret redacted.
    public var description: String { "SigningCredential(keyID: \(keyID), secret: <redacted>)" }
}
