import Foundation
import Logging

/// What a ``SandboxHost`` gives each emulator when it adds the emulator's routes.
public struct EmulatorEnvironment: Sendable {
    /// The id of the emulator this environment was made for.
    public let emulatorID: String
    /// The host's seed.
    public let seed: UInt64
    /// The host's clock (injectable): use it for every timestamp and expiry.
    public let now: @Sendable () -> Date
    /// The host's token issuer: real HS256 JWTs with the configured lifetime and clock.
    public let jwt: JWTIssuer
    /// A logger with `emulator` metadata.
    public let logger: Logger

    /// Creates an environment (the host does this; emulator unit tests may too).
    public init(emulatorID: String, seed: UInt64, now: @escaping @Sendable () -> Date, jwt: JWTIssuer, logger: Logger) {
        self.emulatorID = emulatorID
        self.seed = seed
        self.now = now
        self.jwt = jwt
        self.logger = logger
    }

    /// A deterministic generator for the named stream of this emulator: the same seed, emulator and
    /// stream always produce the same sequence, and different streams are independent.
    public func makeGenerator(stream: String) -> SeededGenerator {
        SeededGenerator(seed: seed, stream: "\(emulatorID)/\(stream)")
    }
}
