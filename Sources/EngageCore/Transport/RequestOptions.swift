import Foundation
/// Per-request choices read by the middleware.
@_spi(EngageProvider) public struct RequestOptions: Sendable {
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
    /// The operation the request belongs to, for logs, retries and the provider's answer rules; `nil`
    /// takes the operation it is sent in (``ProviderOperation``, set by `ProviderContext.perform`). A
    /// repeatable operation makes its requests repeatable.
    public var operation: (any ProviderOperation)?
    /// The name of ``operation``.
    public var operationName: OperationName? { operation?.name }
    /// A file that receives the response body instead of memory (large downloads); `nil` keeps the
    /// body in the response. `maxResponseBytes` still applies to what is written.
    public var bodyFile: ResponseBodyFile?
    /// Whether the request may go over a cellular network. `false` keeps it on Wi-Fi or wired
    /// networks (`URLRequest.allowsCellularAccess`): on Apple platforms a device with only a cellular
    /// connection then fails the call with a retryable `.network`; elsewhere there is no cellular
    /// interface and it changes nothing. Set for a whole client by `APIClient.allowsCellularAccess`.
    public var allowsCellularAccess: Bool
    /// When the call this request belongs to must be over, as a reading of the client's clock's
    /// `uptime`; set by `APIClient` from ``deadline``.
    package var expiresAt: Duration?
    /// How long the call has left as this attempt starts, measured on the client's clock; set by the
    /// timeout middleware for the transport, which runs in real time and turns it into a deadline on
    /// its own clock.
    package var remaining: Duration?

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
        operation: (any ProviderOperation)? = nil,
        bodyFile: ResponseBodyFile? = nil,
        allowsCellularAccess: Bool = true
    ) {
        self.allowsCellularAccess = allowsCellularAccess
        self.timeout = timeout
        self.deadline = deadline
        self.isRepeatable = isRepeatable
        self.allowsRetry = allowsRetry
        self.authorization = authorization
        self.maxResponseBytes = maxResponseBytes
        self.operation = operation
        self.bodyFile = bodyFile
    }
}
