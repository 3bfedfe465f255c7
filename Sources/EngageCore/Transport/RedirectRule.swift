import Foundation
import HTTPTypes
import HTTPTypesFoundation

/// How `URLSessionTransport` follows an HTTP redirect (301, 302, 303, 307, 308). URLSession is never
/// left to follow one itself: FoundationNetworking on Linux resends the original request, credential
/// headers included, to the new URL (and drops a 307's body even on the same origin), and Darwin keeps
/// most headers too. The transport receives the redirect and builds the next request with this rule,
/// the same on every platform and whichever session it uses.
///
/// A request carries credentials: `Authorization` (bearer or basic), provider signatures and ids in
/// headers of their own (Warply's `loyalty-signature`, `loyalty-web-id`), and secrets in its body (a
/// refresh token, a password). So:
///
/// - The method follows RFC 9110: 303 turns anything but `HEAD` into a `GET` without a body, 301 and
///   302 turn a `POST` into a `GET` without a body, 307 and 308 keep the method and the body.
/// - **Same origin** (scheme, host and port as the first request): followed with every header and the
///   body.
/// - **Scheme downgrade** (`https` → `http`) anywhere in the chain: refused.
/// - **Another origin**: a `GET` or `HEAD` is followed with only the headers in
///   ``portableHeaderNames`` (credentials stay behind); a request that would take a body or another
///   method there (307/308 of a `POST`, `PUT`, `DELETE`…) is refused.
/// - A target that is not `http`/`https`, a missing or malformed `Location`, or more than
///   ``maxRedirects`` hops: refused.
///
/// A refused redirect ends the call with ``EngageError/Code/redirectRefused``; nothing is sent to its
/// target.
enum RedirectRule {
    /// The most redirects one call follows (Darwin's and FoundationNetworking's own limit is 20).
    static let maxRedirects = 10

    /// The redirect statuses the rule follows; 300, 304 and 305 are answers, not redirects.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The headers a request keeps when it is redirected to another origin: content negotiation and
    /// caching only. Everything else may identify or authenticate the user.
    static let portableHeaderNames: Set<String> = [
        "accept", "accept-language", "user-agent", "cache-control", "if-none-match", "if-modified-since", "range",
    ]

    /// Whether `response` is a redirect the transport must decide on.
    static func isRedirect(_ response: HTTPResponse) -> Bool {
        redirectStatuses.contains(response.status.code)
    }

    /// The request to send after `current` (the chain started with `original`) was answered with the
    /// redirect `response`, or the error that refuses it.
    static func next(
        after current: HTTPRequestMessage, original: HTTPRequestMessage, response: HTTPResponse
    ) -> Result<HTTPRequestMessage, EngageError> {
        let status = response.status.code
        guard let location = response.headerFields[.location], let currentURL = current.head.url,
            let target = URL(string: location, relativeTo: currentURL)?.absoluteURL, let targetOrigin = Origin(target)
        else {
            return .failure(refusal(status: status, "its Location is missing or not an http or https URL"))
        }
        let earlier = [original, current].compactMap { $0.head.url.flatMap(Origin.init) }
        if targetOrigin.scheme == "http", earlier.contains(where: { $0.scheme == "https" }) {
            return .failure(refusal(status: status, "it downgrades https to http"))
        }
        var next = current
        let becomesGet = status == 303 ? current.head.method != .head : (status == 301 || status == 302) && current.head.method == .post
        if becomesGet {
            next.head.method = .get
            next.body = nil
            next.head.headerFields[.contentType] = nil
            next.head.headerFields[.contentLength] = nil
        }
        next.head.scheme = target.scheme
        let host = targetOrigin.host.contains(":") ? "[\(targetOrigin.host)]" : targetOrigin.host  // IPv6 literal
        next.head.authority = target.port.map { "\(host):\($0)" } ?? host
        next.head.path = target.path(percentEncoded: true).isEmpty ? "/" : target.path(percentEncoded: true)
        if let query = target.query(percentEncoded: true) { next.head.path = (next.head.path ?? "/") + "?" + query }
        guard earlier.contains(where: { $0 != targetOrigin }) else { return .success(next) }
        guard next.head.method == .get || next.head.method == .head, next.body == nil else {
            return .failure(refusal(status: status, "it would take a \(next.head.method.rawValue) request and its body to another origin"))
        }
        next.head.headerFields = HTTPFields(next.head.headerFields.filter { portableHeaderNames.contains($0.name.canonicalName) })
        return .success(next)
    }

    /// The error for a chain longer than ``maxRedirects``.
    static func tooManyRedirects(status: Int) -> EngageError {
        refusal(status: status, "the server redirected more than \(maxRedirects) times")
    }

    private static func refusal(status: Int, _ reason: String) -> EngageError {
        EngageError(
            .redirectRefused, "A redirect (HTTP \(status)) was not followed: \(reason).", httpStatus: status,
            recoverySuggestion: "Point the configuration at the final URL; credentials are never sent to another origin."
        )
    }

    /// Scheme, host and port, with the scheme's default port made explicit.
    struct Origin: Equatable {
        var scheme: String
        var host: String
        var port: Int

        init?(_ url: URL) {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = url.host?.lowercased(), !host.isEmpty
            else { return nil }
            self.scheme = scheme
            self.host = host
            port = url.port ?? (scheme == "https" ? 443 : 80)
        }
    }
}
