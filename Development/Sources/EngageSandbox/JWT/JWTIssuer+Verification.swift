@_spi(EngageProvider) import EngageCore
import Foundation

extension JWTIssuer {
    /// Verifies a token this issuer (or one with the same secret) signed.
    ///
    /// Checks, in order: the shape and the HS256 header (`.malformed`), the signature in constant
    /// time (`.badSignature`), the claims (`.malformed`), then that `exp` is after ``now``
    /// (`.expired`).
    public func verify(_ token: String) throws(JWTVerificationError) -> VerifiedClaims {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
            let headerData = Base64URL.decode(segments[0]),
            let header = try? JSONDecoder().decode([String: String].self, from: headerData),
            header["alg"] == "HS256"
        else {
            throw .malformed
        }
        guard let signature = Base64URL.decode(segments[2]) else { throw .malformed }
        guard isValidSignature(signature, for: "\(segments[0]).\(segments[1])") else { throw .badSignature }
        guard let payload = Base64URL.decode(segments[1]),
            let claimSet = try? JSONDecoder().decode(JWTClaimSet.self, from: payload),
            let issuer = claimSet.claims["iss"]?.string,
            let subject = claimSet.claims["sub"]?.string,
            let issuedAt = claimSet.claims["iat"]?.integer,
            let expiresAt = claimSet.claims["exp"]?.integer,
            let tokenID = claimSet.claims["jti"]?.string
        else {
            throw .malformed
        }
        let expiry = Date(timeIntervalSince1970: TimeInterval(expiresAt))
        guard now() < expiry else { throw .expired }
        var extras: [String: String] = [:]
        for (name, value) in claimSet.claims where !JWTClaimSet.registeredNames.contains(name) {
            if let text = value.string { extras[name] = text }
        }
        return VerifiedClaims(
            issuer: issuer, subject: subject, issuedAt: Date(timeIntervalSince1970: TimeInterval(issuedAt)),
            expiresAt: expiry, tokenID: tokenID, extraClaims: extras
        )
    }
}
