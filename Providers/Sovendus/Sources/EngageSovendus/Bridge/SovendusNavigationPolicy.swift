import Foundation

/// Which navigations a web view showing a Sovendus banner may perform.
///
/// The banner must never turn into a browser: Sovendus' links reach the native side through the
/// bridge, and anything else the page tries is stopped. The rules, first match wins:
///
/// | navigation | decision |
/// |---|---|
/// | `about:blank` | allow |
/// | the page's own URL, not by a user action (the initial load) | allow |
/// | a Sovendus frame: an http(s) URL on the page's host or its registrable domain (`*.sovendus.com` for a page on `api.sovendus.com`, `*.sovendus.co.uk` for one on `api.sovendus.co.uk`) whose path is `/banner/api/banner`, `/app-list` or below `/app-list/` | allow |
/// | any other http(s) URL the user activated (a tapped link, a new window) | open externally |
/// | everything else (redirects, script navigations, other schemes) | cancel |
///
/// ```swift
/// // WKNavigationDelegate
/// let trigger: SovendusNavigationPolicy.Trigger =
///     action.navigationType == .linkActivated || action.targetFrame == nil ? .userAction : .other
/// switch page.navigationPolicy.decision(for: action.request.url, trigger: trigger) {
/// case .allow: decisionHandler(.allow)
/// case let .openExternally(url): UIApplication.shared.open(url); decisionHandler(.cancel)
/// case .cancel: decisionHandler(.cancel)
/// }
/// ```
public struct SovendusNavigationPolicy: Sendable, Hashable {
    /// What started a navigation.
    public enum Trigger: Sendable, Hashable {
        /// The user tapped a link or a button that opens a window.
        case userAction
        /// Anything else: the initial load, a script, a redirect, a frame loading.
        case other
    }

    /// What the web view should do with a navigation.
    public enum Decision: Sendable, Hashable {
        /// Let the web view load it.
        case allow
        /// Cancel it in the web view and open the URL in the system browser.
        case openExternally(URL)
        /// Cancel it.
        case cancel
    }

    /// The URL the page was loaded with (its base URL).
    public let pageURL: URL

    /// A policy for a page loaded with `pageURL`.
    public init(pageURL: URL) {
        self.pageURL = pageURL
    }

    /// The decision for a navigation to `url` (cancel when the web view gives none).
    public func decision(for url: URL?, trigger: Trigger) -> Decision {
        guard let url, let scheme = url.scheme?.lowercased() else { return .cancel }
        if scheme == "about" {
            return url.absoluteString.lowercased() == "about:blank" ? .allow : .cancel
        }
        guard scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else { return .cancel }
        if trigger == .other, Self.withoutFragment(url) == Self.withoutFragment(pageURL) { return .allow }
        let path = url.path
        if isSovendusHost(host), path == "/banner/api/banner" || path == "/app-list" || path.hasPrefix("/app-list/") { return .allow }
        return trigger == .userAction ? .openExternally(url) : .cancel
    }

    /// Whether `host` is the page's host or under its registrable domain (public-suffix aware: a page
    /// on `api.sovendus.co.uk` trusts `*.sovendus.co.uk`, never `*.co.uk`; an IP address only matches
    /// itself).
    private func isSovendusHost(_ host: String) -> Bool {
        guard let pageHost = pageURL.host?.lowercased(), !pageHost.isEmpty else { return false }
        let host = host.lowercased()
        if host == pageHost { return true }
        guard let domain = SovendusConfiguration.parentDomain(of: pageHost) else { return false }
        return host == domain || host.hasSuffix("." + domain)
    }

    private static func withoutFragment(_ url: URL) -> String {
        let text = url.absoluteString
        return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
    }
}
