import Foundation
import Logging

/// How a ``SandboxHost`` listens and what it gives its emulators.
public struct SandboxConfiguration: Sendable {
    /// The seed the sandbox uses unless told otherwise.
    public static let defaultSeed: UInt64 = 0x5EED_5EED_5EED_5EED

    /// The address to bind; loopback by default.
    public var host: String
    /// The port to bind; `0` picks a free ephemeral port (read it from ``SandboxEndpoints/port``).
    public var port: Int
    /// Seeds every generator the host hands out (fault probabilities, emulator data, token ids).
    public var seed: UInt64
    /// The clock emulators and the JWT issuer read; inject one to test expiry.
    public var now: @Sendable () -> Date
    /// How `.delay` faults wait; inject one to control delays in tests.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// The HMAC-SHA256 secret of the host's ``JWTIssuer``.
    public var jwtSecret: String
    /// The `iss` claim of issued tokens.
    public var jwtIssuer: String
    /// The lifetime of access tokens unless an emulator asks for another one.
    public var tokenLifetime: Duration
    /// The largest request body accepted; larger requests are answered `413 Content Too Large`.
    public var maxBodySize: Int
    /// How many journal entries are kept (the most recent ones).
    public var journalCapacity: Int
    /// How long ``SandboxHost/stop()`` lets in-flight requests finish before cancelling them.
    public var shutdownGracePeriod: Duration
    /// The logger of the host and, with an `emulator` metadata key, of its emulators.
    public var logger: Logger

    /// Creates a configuration; every parameter has a sensible default for tests.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        seed: UInt64 = SandboxConfiguration.defaultSeed,
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        jwtSecret: String = "engage-sandbox-secret",
        jwtIssuer: String = "engage-sandbox",
        tokenLifetime: Duration = .seconds(300),
        maxBodySize: Int = 2 * 1024 * 1024,
        journalCapacity: Int = 10_000,
        shutdownGracePeriod: Duration = .seconds(5),
        logger: Logger = SandboxConfiguration.defaultLogger()
    ) {
        self.host = host
        self.port = port
        self.seed = seed
        self.now = now
        self.sleep = sleep
        self.jwtSecret = jwtSecret
        self.jwtIssuer = jwtIssuer
        self.tokenLifetime = tokenLifetime
        self.maxBodySize = maxBodySize
        self.journalCapacity = journalCapacity
        self.shutdownGracePeriod = shutdownGracePeriod
        self.logger = logger
    }

    /// A logger labelled `engage.sandbox` that only reports warnings and errors.
    public static func defaultLogger() -> Logger {
        var logger = Logger(label: "engage.sandbox")
        logger.logLevel = .warning
        return logger
    }
}
