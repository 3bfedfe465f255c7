import Foundation

/// Base64url (RFC 4648 §5) without padding, as JWTs use it: the project's one implementation (the
/// core reads tokens with it, the sandbox and the emulators issue them).
@_spi(EngageProvider) public enum Base64URL {
    /// Encodes `data` as unpadded base64url.
    public static func encode(_ data: some DataProtocol) -> String {
        var text = Data(data).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Decodes unpadded (or padded) base64url, or returns `nil` when `text` is not valid (standard
    /// base64's `+` and `/` included).
    public static func decode(_ text: some StringProtocol) -> Data? {
        guard !text.contains("+"), !text.contains("/") else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let remainder = base64.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: base64)
    }
}
