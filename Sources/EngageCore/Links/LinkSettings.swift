import Foundation

/// Which links belong to which provider: the link formats are the app's (its universal-link domain,
/// its URL scheme) and its providers' operators', so the configuration names them.
///
/// ```swift
/// configuration.links.routes = [
///     LinkRoute(provider: "warply", destination: .campaign, template: "https://offers.example.com/campaigns/{id}/index.html"),
///     LinkRoute(provider: "youll", destination: .content, template: "exampleapp://content/{id}"),
/// ]
/// ```
///
/// In JSON: `"links": {"routes": [{"provider": "warply", "destination": "campaign", "template": "…"}]}`.
public struct LinkSettings: Codable, Sendable, Equatable {
    /// The routes, tried in order: the first that matches a URL owns it.
    public var routes: [LinkRoute]
    /// The keys of a notification's payload whose string value is a link (the first present wins):
    /// `url`, `link`, `deeplink` and `deep_link` by default.
    public var notificationKeys: [String]

    /// Settings; each argument defaults to the value documented on its property.
    public init(routes: [LinkRoute] = [], notificationKeys: [String] = ["url", "link", "deeplink", "deep_link"]) {
        self.routes = routes
        self.notificationKeys = notificationKeys
    }

    /// Decodes settings; missing fields take their defaults.
    public init(from decoder: any Decoder) throws {
        let defaults = LinkSettings()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            routes: try container.decodeIfPresent([LinkRoute].self, forKey: .routes) ?? defaults.routes,
            notificationKeys: try container.decodeIfPresent([String].self, forKey: .notificationKeys) ?? defaults.notificationKeys
        )
    }

    /// The link `url` stands for: the first route that matches it, or `nil`. Apps call
    /// `engage.link(for:)`; this is the facade's.
    package func link(for url: URL, origin: EngageLink.Origin = .url) -> EngageLink? {
        for route in routes {
            if let link = route.link(for: url, origin: origin) { return link }
        }
        return nil
    }

    /// Every problem with the settings, as readable sentences.
    public func validationIssues() -> [String] {
        var issues: [String] = []
        if routes.count > 100 { issues.append("links.routes: at most 100 routes (got \(routes.count)).") }
        for (index, route) in routes.prefix(100).enumerated() {
            issues += route.validationIssues().map { "links.routes[\(index)]: \($0)" }
        }
        if notificationKeys.count > 20 || notificationKeys.contains(where: { $0.isEmpty || $0.count > 64 }) {
            issues.append("links.notificationKeys: at most 20 keys of 1 to 64 characters.")
        }
        return issues
    }
}

/// One link format of a provider: a URL template with one `{id}` in its path, such as
/// `https://offers.example.com/campaigns/{id}/index.html` or `exampleapp://content/{id}`.
///
/// A URL matches when its scheme and host are the template's (letter case aside), its path is the
/// template's with `{id}` standing for one non-empty path segment or part of one, and it has no user
/// or password. The query is not part of the match: its items become the link's `parameters`.
public struct LinkRoute: Codable, Sendable, Hashable {
    /// The provider the links belong to.
    public var provider: ProviderID
    /// What the links point to.
    public var destination: EngageLink.Destination
    /// The URL template, with exactly one `{id}` in its path.
    public var template: String

    /// A route of `provider`'s links to `destination`, in the format `template`.
    public init(provider: ProviderID, destination: EngageLink.Destination, template: String) {
        self.provider = provider
        self.destination = destination
        self.template = template
    }

    /// The longest identifier a link may carry.
    static let maximumIdentifierLength = 256

    /// The template's parts: scheme, host (lowercased, empty for `scheme:path` URLs), and the path
    /// before and after `{id}`; `nil` for a template that is not valid.
    private var parts: (scheme: String, host: String, prefix: String, suffix: String)? {
        guard template.count <= 2_048, template.components(separatedBy: "{id}").count == 2,
            let components = URLComponents(string: template.replacingOccurrences(of: "{id}", with: "%7Bid%7D")),
            let scheme = components.scheme?.lowercased(), !scheme.isEmpty, components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else { return nil }
        let path = components.percentEncodedPath.components(separatedBy: "%7Bid%7D")
        guard path.count == 2 else { return nil }
        return (scheme, components.host?.lowercased() ?? "", path[0], path[1])
    }

    /// Every problem with the route, as readable sentences (``LinkSettings/validationIssues()`` reports
    /// them with the route's index).
    func validationIssues() -> [String] {
        var issues: [String] = []
        if !provider.isValid { issues.append("'\(provider.rawValue.prefix(64))' is not a valid provider id.") }
        if destination.rawValue.isEmpty || destination.rawValue.count > 64 {
            issues.append("the destination must have 1 to 64 characters.")
        }
        if parts == nil {
            issues.append(
                "the template '\(template.prefix(120))' must be a URL with a scheme, no query, fragment or credentials, and one {id} in its path."
            )
        }
        return issues
    }

    /// The link `url` is, if this route matches it.
    func link(for url: URL, origin: EngageLink.Origin) -> EngageLink? {
        guard let parts, let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.scheme?.lowercased() == parts.scheme, (components.host?.lowercased() ?? "") == parts.host,
            components.user == nil, components.password == nil
        else { return nil }
        let path = components.percentEncodedPath
        guard path.count > parts.prefix.count + parts.suffix.count, path.hasPrefix(parts.prefix), path.hasSuffix(parts.suffix) else {
            return nil
        }
        let encoded = path.dropFirst(parts.prefix.count).dropLast(parts.suffix.count)
        guard !encoded.contains("/"), let identifier = String(encoded).removingPercentEncoding, !identifier.isEmpty,
            identifier.count <= Self.maximumIdentifierLength,
            !identifier.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) || $0 == "/" })
        else { return nil }
        var parameters: [String: String] = [:]
        for item in components.queryItems?.prefix(50) ?? [] { parameters[item.name] = item.value ?? "" }
        return EngageLink(
            provider: provider, destination: destination, identifier: identifier, parameters: parameters, url: url, origin: origin)
    }
}
