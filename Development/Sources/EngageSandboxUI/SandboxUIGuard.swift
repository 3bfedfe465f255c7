@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird

/// In front of every UI route: refuses clients that are not on this machine, requests for another
/// host name (DNS rebinding), cross-origin writes (CSRF from a page the developer has open), and
/// writes that are not JSON; and adds the page's security headers to every answer.
struct SandboxUIGuard: RouterMiddleware {
    typealias Context = SandboxRequestContext

    /// The page's Content-Security-Policy: its own scripts, styles and API only.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        if let refusal = Self.refusal(for: request, fromLoopback: context.isFromLoopback) {
            response = SandboxResponse.error(refusal.status, code: refusal.code, description: refusal.message)
        } else {
            response = try await next(request, context)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.cacheControl] = response.headers[.cacheControl] ?? "no-store"
        if let referrerPolicy = HTTPField.Name("Referrer-Policy") { response.headers[referrerPolicy] = "no-referrer" }
        return response
    }

    struct Refusal: Equatable {
        var status: HTTPResponse.Status
        var code: String
        var message: String
    }

    /// Why `request` is refused, or `nil` when it may proceed.
    static func refusal(for request: Request, fromLoopback: Bool) -> Refusal? {
        guard fromLoopback else {
            return Refusal(status: .forbidden, code: "not_loopback", message: "The sandbox UI answers clients on this machine only.")
        }
        guard let authority = request.head.authority, isLoopbackHost(authority) else {
            return Refusal(
                status: .forbidden, code: "foreign_host", message: "The sandbox UI answers requests for a loopback host name only.")
        }
        let isWrite = ![.get, .head, .options].contains(request.method)
        guard isWrite else { return nil }
        if let origin = request.headers[.origin], !isSameOrigin(origin, authority: authority) {
            return Refusal(status: .forbidden, code: "foreign_origin", message: "Cross-origin writes to the sandbox UI are refused.")
        }
        let hasBody = request.method == .post || request.method == .put || request.method == .patch
        if hasBody, !(request.headers[.contentType]?.lowercased().hasPrefix("application/json") ?? false) {
            return Refusal(status: .unsupportedMediaType, code: "json_required", message: "Send the body as application/json.")
        }
        return nil
    }

    /// Whether `authority` (`host[:port]`) names this machine: `localhost`, 127.x.y.z or `[::1]`.
    static func isLoopbackHost(_ authority: String) -> Bool {
        var host = authority.lowercased()
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return false }
            host = String(host[host.index(after: host.startIndex)..<end])
            return host == "::1"
        }
        if let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
        if host == "localhost" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Whether the `Origin` header names the UI's own origin.
    static func isSameOrigin(_ origin: String, authority: String) -> Bool {
        origin.lowercased() == "http://" + authority.lowercased()
    }
}
