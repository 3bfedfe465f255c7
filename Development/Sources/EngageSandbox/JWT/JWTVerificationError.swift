/// Why ``JWTIssuer/verify(_:)`` rejected a token.
public enum JWTVerificationError: Error, Sendable, Hashable {
    /// The token is not three base64url segments, its header is not HS256, or its claims are not JSON
    /// with the registered claims this issuer writes.
    case malformed
    /// The signature does not match the header and claims under this issuer's secret.
    case badSignature
    /// The token is well formed and correctly signed but its `exp` is not after the issuer's `now`.
    case expired
}
