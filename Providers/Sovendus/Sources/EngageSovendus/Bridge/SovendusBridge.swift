@_spi(EngageProvider) import EngageCore
import Foundation

/// A message the banner page sent to the native side, checked.
public enum SovendusBridgeMessage: Sendable, Hashable {
    /// The page's content is this many points high: resize the web view to it.
    case height(Double)
    /// The user asked to open this http(s) URL: open it in the system browser (or an in-app browser
    /// such as `SFSafariViewController`), never in the banner's web view.
    case openURL(URL)
}

/// Where a message to the bridge came from, as the web view tells it (on Apple platforms,
/// `WKScriptMessage.frameInfo`).
public struct SovendusMessageSource: Sendable, Hashable {
    /// Whether the message came from the page itself rather than a frame inside it.
    public var isMainFrame: Bool
    /// The sending frame's origin, `scheme://host[:port]`.
    public var origin: String

    /// A source: the main frame or not, and its origin.
    public init(isMainFrame: Bool, origin: String) {
        self.isMainFrame = isMainFrame
        self.origin = origin
    }
}

/// Which frames may talk to the bridge: the banner page itself (its origin is the script's), and https
/// frames on the script's registrable domain.
public struct SovendusFrameTrust: Sendable, Hashable {
    /// The banner page's origin (the script's, `scheme://host[:port]`).
    public var pageOrigin: String
    /// The registrable domain whose https frames are Sovendus' (`sovendus.com`), `nil` to trust the
    /// page alone.
    public var domain: String?

    /// Trust for a page at `pageOrigin` with Sovendus frames under `domain`.
    public init(pageOrigin: String, domain: String?) {
        self.pageOrigin = pageOrigin
        self.domain = domain
    }

    /// Whether a message from `source` may be acted on: one from the page's own origin (the page
    /// itself), or from an https frame on the domain. Any other origin is refused, in the main frame
    /// too (the page never navigates away).
    package func trusts(_ source: SovendusMessageSource) -> Bool {
        let origin = source.origin.lowercased()
        if origin == pageOrigin.lowercased() { return true }
        guard let domain = domain?.lowercased(), origin.hasPrefix("https://") else { return false }
        var host = String(origin.dropFirst("https://".count))
        if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") { host = String(host[..<colon]) }
        return host == domain || host.hasSuffix("." + domain)
    }
}

/// The native end of the banner page's messages, for every web view: it reads what the view hands
/// over (a dictionary, a JSON string, or React Native's `"height"+N` / `"openUrl"+url` strings), checks
/// it and calls the app's handlers on the main actor.
///
/// Heights at or below the configured minimum are ignored (the page has not laid out yet). Heights
/// that are not finite, negative or above `SovendusConfiguration.maximumBannerHeight`, URLs that are
/// not http(s) (`javascript:`, `data:`, `file:`, `intent:`, custom schemes) and unknown shapes are
/// refused: no handler runs and `onRejected` gets the error.
///
/// ```swift
/// let bridge = sovendus.bridge(
///     onHeight: { height in heightConstraint.constant = height },
///     openURL: { url in UIApplication.shared.open(url) }
/// )
/// // WKScriptMessageHandler:
/// bridge.receive(message.body)
/// ```
public struct SovendusBridge: Sendable {
    /// Receives a new banner height, in points.
    public typealias HeightHandler = @MainActor @Sendable (Double) -> Void
    /// Opens a checked http(s) URL outside the banner's web view.
    public typealias URLOpener = @MainActor @Sendable (URL) -> Void
    /// Learns about a refused message.
    public typealias RejectionHandler = @MainActor @Sendable (EngageError) -> Void

    /// Heights at or below this are ignored.
    public let minimumHeight: Double
    /// The frames whose messages ``receive(_:from:)`` acts on; `nil` accepts the main frame only.
    package let trust: SovendusFrameTrust?
    private let onHeight: HeightHandler
    private let openURL: URLOpener
    private let onRejected: RejectionHandler

    /// A bridge calling `onHeight` and `openURL` for accepted messages and `onRejected` for refused
    /// ones. ``SovendusProvider/bridge(onHeight:openURL:)`` makes one with the configured minimum
    /// height that also logs and reports refusals.
    public init(
        minimumHeight: Double = 100, trust: SovendusFrameTrust? = nil, onHeight: @escaping HeightHandler, openURL: @escaping URLOpener,
        onRejected: @escaping RejectionHandler = { _ in }
    ) {
        self.minimumHeight = minimumHeight
        self.trust = trust
        self.onHeight = onHeight
        self.openURL = openURL
        self.onRejected = onRejected
    }

    /// Reads a message that `source` sent and acts on it as ``receive(_:)`` does, but only when the
    /// bridge's frame trust accepts the source: the page itself, or an https frame on Sovendus'
    /// domain. A message from any other frame (an ad or a third-party frame inside the banner) is
    /// refused. Use
    /// this form wherever the web view says who sent a message (WebKit does: see
    /// `receive(_ message: WKScriptMessage)`).
    @MainActor
    @discardableResult
    public func receive(_ body: Any, from source: SovendusMessageSource) -> SovendusBridgeMessage? {
        guard trust.map({ $0.trusts(source) }) ?? source.isMainFrame else {
            onRejected(Self.rejected("A message from a frame the banner does not trust was refused."))
            return nil
        }
        return receive(body)
    }

    /// Reads `body` (what the web view handed over) and calls the matching handler; returns the
    /// message acted on, or `nil` when it was ignored or refused. For web views that cannot say which
    /// frame sent a message (Android's JavaScript interface, React Native): the page relays only
    /// messages from trusted origins. Where the sender is known, use ``receive(_:from:)``.
    @MainActor
    @discardableResult
    public func receive(_ body: Any) -> SovendusBridgeMessage? {
        do {
            guard let message = try Self.message(from: body, minimumHeight: minimumHeight) else { return nil }
            switch message {
            case let .height(height): onHeight(height)
            case let .openURL(url): openURL(url)
            }
            return message
        } catch {
            onRejected(error)
            return nil
        }
    }

    /// The checked message in `body`, `nil` for a height at or below `minimumHeight`.
    ///
    /// - Throws: `.sovendusRejectedMessage` for a shape the page does not send, a non-http(s) URL, or
    ///   a height that is not a finite number between 0 and the maximum.
    package static func message(from body: Any, minimumHeight: Double = 100) throws(EngageError) -> SovendusBridgeMessage? {
        let (type, value) = try typeAndValue(body)
        switch type {
        case "height":
            let height = try Self.height(value)
            return height > minimumHeight ? .height(height) : nil
        case "openUrl":
            guard let text = value as? String else { throw rejected("An openUrl message must carry the URL as a string.") }
            return .openURL(try checkedURL(text))
        default:
            // The page's text is not repeated: any frame can post, and this message is logged.
            throw rejected("Unknown message type.")
        }
    }

    private static func typeAndValue(_ body: Any) throws(EngageError) -> (String, Any) {
        if let dictionary = body as? [String: Any] {
            guard let type = dictionary["type"] as? String, let value = dictionary["value"] else {
                throw rejected("A message must be {type, value}.")
            }
            return (type, value)
        }
        if let dictionary = body as? [AnyHashable: Any] {
            var strings: [String: Any] = [:]
            for case let (key as String, value) in dictionary { strings[key] = value }
            return try typeAndValue(strings)
        }
        if let data = body as? Data {
            return try typeAndValue(String(decoding: data, as: UTF8.self))
        }
        guard let text = body as? String else { throw rejected("A message must be a dictionary or a string.") }
        guard text.utf8.count <= maxMessageBytes else { throw rejected("The message is larger than \(maxMessageBytes) bytes.") }
        if text.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw rejected("The message is not a JSON object.")
            }
            return try typeAndValue(object)
        }
        // React Native: the type and the value run together.
        for type in ["height", "openUrl"] where text.hasPrefix(type) {
            return (type, String(text.dropFirst(type.count)))
        }
        throw rejected("The message string is neither JSON nor \"height\"/\"openUrl\" followed by a value.")
    }

    private static func height(_ value: Any) throws(EngageError) -> Double {
        let height: Double?
        // A Swift Bool is not a height (where the platform bridges `true` to NSNumber, it reads as 1
        // and is ignored as too small).
        if type(of: value) == Bool.self { throw rejected("A height must be a number, not a boolean.") }
        switch value {
        case let number as Double: height = number
        case let number as Int: height = Double(number)
        case let number as Float: height = Double(number)
        case let text as String: height = Double(text.trimmingCharacters(in: .whitespaces))
        case let number as NSNumber: height = number.doubleValue
        default: height = nil
        }
        guard let height, height.isFinite, height >= 0, height <= SovendusConfiguration.maximumBannerHeight else {
            throw rejected("A height must be a finite number of points between 0 and \(Int(SovendusConfiguration.maximumBannerHeight)).")
        }
        return height
    }

    /// `text` as a URL the app may open: absolute http(s) with a host, at most 8 KiB.
    static func checkedURL(_ text: String) throws(EngageError) -> URL {
        guard text.utf8.count <= 8192, let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw rejected("The URL to open is not a valid absolute URL.")
        }
        guard scheme == "http" || scheme == "https" else {
            // Name the scheme (a few letters), never the URL: it may carry personal data.
            throw rejected("Only http(s) URLs may be opened (got a '\(String(scheme.prefix(16)))' URL).")
        }
        guard let host = url.host, !host.isEmpty else { throw rejected("The URL to open has no host.") }
        return url
    }

    private static let maxMessageBytes = 16_384

    private static func rejected(_ message: String) -> EngageError {
        EngageError(.sovendusRejectedMessage, message, providerID: .sovendus)
    }
}

#if canImport(WebKit)
    import WebKit

    extension SovendusBridge {
        /// Reads a WebKit script message, refusing it unless its frame is trusted (see
        /// ``receive(_:from:)``): the form to call from `WKScriptMessageHandler`.
        @MainActor
        @discardableResult
        public func receive(_ message: WKScriptMessage) -> SovendusBridgeMessage? {
            let origin = message.frameInfo.securityOrigin
            let port = origin.port > 0 ? ":\(origin.port)" : ""
            let source = SovendusMessageSource(
                isMainFrame: message.frameInfo.isMainFrame, origin: "\(origin.protocol)://\(origin.host)\(port)")
            return receive(message.body, from: source)
        }
    }
#endif
