/// Sends one HTTP request and returns its response: the bottom of the transport stack.
///
/// The default is `URLSessionTransport`; an app may plug in its own (for example one that routes
/// through its existing networking layer), and tests use `EngageTesting.InMemoryTransport`.
///
/// A transport returns every HTTP response, whatever its status; it throws only when no response was
/// received (connection failure, timeout, cancellation), preferably as `EngageError`.
@_spi(EngageProvider) public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response whatever its status.
    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage

    /// Whether the transport itself fails a request after `request.options.timeout` (with `.timeout`),
    /// so the stack need not race it against a timer. `false` by default.
    var enforcesTimeouts: Bool { get }
}

extension HTTPTransport {
    public var enforcesTimeouts: Bool { false }
}

/// A step in the transport stack that may change the request, the response, or call `next` more than
/// once (retry) or not at all (a cached answer, an open circuit).
package protocol HTTPMiddleware: Sendable {
    /// Handles `request`; `next` sends it (or a changed copy) down the rest of the stack.
    func intercept(
        _ request: HTTPRequestMessage,
        next: @escaping @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage
}

/// A transport followed by middleware: the first middleware in the list is the outermost.
package struct MiddlewareTransport: HTTPTransport {
    /// The transport at the bottom.
    public let transport: any HTTPTransport
    /// The middleware, outermost first.
    public let middlewares: [any HTTPMiddleware]

    /// `transport` wrapped in `middlewares`, the first one outermost.
    public init(transport: any HTTPTransport, middlewares: [any HTTPMiddleware]) {
        self.transport = transport
        self.middlewares = middlewares
    }

    /// Sends `request` through every middleware, then the transport.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        try await send(request, from: middlewares[...])
    }

    private func send(_ request: HTTPRequestMessage, from remaining: ArraySlice<any HTTPMiddleware>) async throws -> HTTPResponseMessage {
        guard let first = remaining.first else { return try await transport.send(request) }
        let rest = remaining.dropFirst()
        return try await first.intercept(request) { next in
            try await send(next, from: rest)
        }
    }
}
