/// A value that holds secrets (tokens, passwords, card numbers, e-mail addresses): it writes its own
/// redacted `description`, and every other way of looking at it shows that description only.
///
/// `String(reflecting:)`, `dump`, debuggers and reflection-based loggers read a value's `Mirror`, which
/// by default lists every stored property with its value, whatever `description` says. Conforming
/// replaces the mirror (and `debugDescription`) with the redacted description:
///
/// ```swift
/// struct AcmeSession: Codable, Sendable, SecretBearing {
///     var apiKey: String
///     var description: String { "AcmeSession(apiKey: <redacted>)" }
/// }
/// ```
///
/// A public type of a provider declares its `description` publicly and conforms in an extension of the
/// same SPI, `@_spi(EngageProvider) extension AcmeCard: SecretBearing {}` (a public type cannot list
/// an SPI protocol among its conformances): an app then prints, dumps and reflects it redacted, since
/// the conformance is there at run time, without the protocol in its API.
@_spi(EngageProvider) public protocol SecretBearing: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

@_spi(EngageProvider) extension SecretBearing {
    /// The redacted `description`.
    public var debugDescription: String { description }

    /// A mirror with one child, the redacted `description`: no stored property is reachable by
    /// reflection.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": description], displayStyle: .struct) }
}
