import Foundation

/// The claims of a token that ``JWTIssuer/verify(_:)`` accepted.
public struct VerifiedClaims: Sendable, Hashable {
    /// `iss`: the issuer name.
    public var issuer: String
    /// `sub`: whom the token was issued to.
    public var subject: String
    /// `iat`: when the token was issued (whole seconds).
    public var issuedAt: Date
    /// `exp`: when the token expires (whole seconds).
    public var expiresAt: Date
    /// `jti`: the token's unique identifier.
    public var tokenID: String
    /// Every other string claim the token carries.
    public var extraClaims: [String: String]

    /// Creates verified claims (normally only ``JWTIssuer`` does).
    public init(
        issuer: String, subject: String, issuedAt: Date, expiresAt: Date, tokenID: String,
        extraClaims: [String: String] = [:]
    ) {
        self.issuer = issuer
        self.subject = subject
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.tokenID = tokenID
        self.extraClaims = extraClaims
    }
}
