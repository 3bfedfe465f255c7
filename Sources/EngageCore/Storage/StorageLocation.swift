import Foundation

/// Where an `EngageDatabase` (and, on Linux, the key files of the default secret store) live.
///
/// ```swift
/// let database = try EngageDatabase(location: .applicationDefault(appID: "com.example.shop"))
/// ```
///
/// Encoded in configuration JSON as `{"kind": "inMemory"}`, `{"kind": "directory", "path": "/var/lib/app"}`,
/// `{"kind": "applicationDefault", "appID": "com.example.shop"}` or `{"kind": "appGroup", "group":
/// "group.com.example.shop", "appID": "com.example.shop", "keychainAccessGroup": "ABCDE12345.com.example.shop"}`.
public enum StorageLocation: Sendable, Codable, Equatable {
    /// A private in-memory database, gone when the `EngageDatabase` is released. For tests and previews.
    case inMemory
    /// A directory given by its path; created (mode 0700) if needed.
    case directory(String)
    /// The platform's per-application data directory, in a sub-directory named `appID`:
    /// `Application Support/<appID>` on Apple platforms, `$XDG_DATA_HOME/<appID>` (or
    /// `~/.local/share/<appID>`) elsewhere.
    case applicationDefault(appID: String)
    /// The container of the app group `group`, shared by the app and its extensions (a widget, a
    /// notification service extension), in a sub-directory named `appID`:
    /// `<group container>/Library/Application Support/<appID>` on Apple platforms. The database and the
    /// sessions sealed in it are then the same for every process of the group.
    ///
    /// The sealing key must be shared too: on Apple platforms it is kept in the Keychain under
    /// `keychainAccessGroup` (one of the app's `keychain-access-groups`, with the team prefix, e.g.
    /// `"ABCDE12345.com.example.shop"`), which every target of the group must list; `nil` uses the
    /// app's default access group, which extensions do not share. Elsewhere the group is a directory
    /// name: `$XDG_DATA_HOME/<group>/<appID>`, with the key files under
    /// `$XDG_STATE_HOME/<group>/<appID>/keys`, shared by every process of the user.
    ///
    /// Only one process writes to a database at a time (SQLite's locks); EngageKit keeps one registry
    /// per database file in a process. Let the extension read (sessions, cached content) and leave the
    /// analytics queue to the app, or give the extension its own `appID`.
    case appGroup(_ group: String, appID: String, keychainAccessGroup: String? = nil)

    /// Resolves the directory this location stands for, or `nil` for `.inMemory`.
    ///
    /// - Parameter environment: The process environment, consulted on Linux for `XDG_DATA_HOME` and
    ///   `HOME` (a parameter so that resolution is testable).
    /// - Throws: `EngageError(.invalidConfiguration)` for an empty path or an invalid `appID`.
    public func resolvedDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String? {
        switch self {
        case .inMemory:
            return nil
        case let .directory(path):
            guard !path.isEmpty, !path.contains("\0") else {
                throw EngageError(.invalidConfiguration, "The storage directory path is empty or contains a NUL byte.")
            }
            return path
        case let .applicationDefault(appID):
            try Self.validateAppID(appID)
            return try Self.applicationDataDirectory(environment: environment) + "/" + appID
        case let .appGroup(group, appID, _):
            try Self.validateAppID(appID)
            try Self.validateGroup(group)
            return try Self.groupDataDirectory(group, environment: environment) + "/" + appID
        }
    }

    /// Where the key files of the default secret store live on platforms without a keychain: outside
    /// the database directory, so a copy of the data folder does not carry the key that opens its
    /// sealed values. `$XDG_STATE_HOME/<appID>/keys` (or `~/.local/state/<appID>/keys`) for
    /// `.applicationDefault`; the sibling `<path>.keys` for `.directory(path)`; `nil` in memory.
    func keyDirectory(environment: [String: String]) throws -> String? {
        switch self {
        case .inMemory:
            return nil
        case .directory:
            guard let directory = try resolvedDirectory(environment: environment) else { return nil }
            let trimmed = Self.trimmingTrailingSlashes(directory)
            return trimmed.isEmpty ? "/.keys" : trimmed + ".keys"
        case let .applicationDefault(appID):
            try Self.validateAppID(appID)
            return try Self.stateDirectory(environment: environment) + "/" + appID + "/keys"
        case let .appGroup(group, appID, _):
            try Self.validateAppID(appID)
            try Self.validateGroup(group)
            return try Self.stateDirectory(environment: environment) + "/" + group + "/" + appID + "/keys"
        }
    }

    /// The Keychain access group the sealing key is kept under, for an app-group location that names one.
    var keychainAccessGroup: String? {
        if case let .appGroup(_, _, accessGroup) = self { return accessGroup }
        return nil
    }

    /// `$XDG_STATE_HOME` (absolute), else `~/.local/state`.
    private static func stateDirectory(environment: [String: String]) throws -> String {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return trimmingTrailingSlashes(xdg)
        }
        return try homeDirectory(environment: environment) + "/.local/state"
    }

    /// Throws `.invalidConfiguration` unless `group` is an app group identifier usable as a directory
    /// name (the rules of `validateAppID(_:)`).
    static func validateGroup(_ group: String) throws {
        guard StorageIdentifier.isValidSimpleName(group) else {
            throw EngageError(
                .invalidConfiguration,
                "Invalid app group '\(group.prefix(80))' for the storage location: use 1 to 128 letters, digits, '.', '-' or '_'.",
                recoverySuggestion: "Use the identifier of an app group in the app's entitlements, such as 'group.com.example.shop'."
            )
        }
    }

    /// The shared directory of app group `group`: its container's `Library/Application Support` on
    /// Apple platforms, `$XDG_DATA_HOME/<group>` (or `~/.local/share/<group>`) elsewhere.
    static func groupDataDirectory(_ group: String, environment: [String: String]) throws -> String {
        #if canImport(Darwin)
            guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else {
                throw EngageError(
                    .invalidConfiguration, "The app group '\(group)' has no container: it is not in this target's entitlements.",
                    recoverySuggestion:
                        "Add the App Groups capability with '\(group)' to the app and to each extension that shares the data."
                )
            }
            return container.appendingPathComponent("Library/Application Support").path
        #else
            return try applicationDataDirectory(environment: environment) + "/" + group
        #endif
    }

    /// Throws `.invalidConfiguration` unless `appID` can be used as a directory name: not empty, at most
    /// 128 characters of ASCII letters, digits, `.`, `-` and `_`, no path separator, no `..`.
    package static func validateAppID(_ appID: String) throws {
        guard StorageIdentifier.isValidSimpleName(appID) else {
            throw EngageError(
                .invalidConfiguration,
                "Invalid application id '\(appID.prefix(80))' for the storage location: use 1 to 128 letters, "
                    + "digits, '.', '-' or '_', without '/' or '..'.",
                recoverySuggestion: "Use the app's bundle identifier, such as 'com.example.shop'."
            )
        }
    }

    /// The platform's per-user application data directory, without the app's sub-directory.
    static func applicationDataDirectory(environment: [String: String]) throws -> String {
        #if canImport(Darwin)
            guard let url = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first else {
                throw EngageError(.storage, "The Application Support directory could not be located.")
            }
            return url.path
        #else
            // XDG Base Directory spec: a relative XDG_DATA_HOME is invalid and must be ignored.
            if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
                return trimmingTrailingSlashes(xdg)
            }
            return try homeDirectory(environment: environment) + "/.local/share"
        #endif
    }

    /// `$HOME` (absolute), or the process's home directory, without a trailing slash.
    private static func homeDirectory(environment: [String: String]) throws -> String {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        guard home.hasPrefix("/") else {
            throw EngageError(
                .storage, "The home directory could not be determined to locate the application data directory.",
                recoverySuggestion: "Set HOME or XDG_DATA_HOME, or use StorageLocation.directory(_:)."
            )
        }
        return trimmingTrailingSlashes(home)
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path == "/" ? "" : path
    }
}

extension StorageLocation {
    private enum CodingKeys: String, CodingKey {
        case kind, path, appID, group, keychainAccessGroup
    }

    private enum Kind: String, Codable {
        case inMemory, directory, applicationDefault, appGroup
    }

    /// Decodes `{"kind": …}` as described on the type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .inMemory:
            self = .inMemory
        case .directory:
            self = .directory(try container.decode(String.self, forKey: .path))
        case .applicationDefault:
            self = .applicationDefault(appID: try container.decode(String.self, forKey: .appID))
        case .appGroup:
            self = .appGroup(
                try container.decode(String.self, forKey: .group), appID: try container.decode(String.self, forKey: .appID),
                keychainAccessGroup: try container.decodeIfPresent(String.self, forKey: .keychainAccessGroup))
        }
    }

    /// Encodes the location as `{"kind": …}` as described on the type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .inMemory:
            try container.encode(Kind.inMemory, forKey: .kind)
        case let .directory(path):
            try container.encode(Kind.directory, forKey: .kind)
            try container.encode(path, forKey: .path)
        case let .applicationDefault(appID):
            try container.encode(Kind.applicationDefault, forKey: .kind)
            try container.encode(appID, forKey: .appID)
        case let .appGroup(group, appID, keychainAccessGroup):
            try container.encode(Kind.appGroup, forKey: .kind)
            try container.encode(group, forKey: .group)
            try container.encode(appID, forKey: .appID)
            try container.encodeIfPresent(keychainAccessGroup, forKey: .keychainAccessGroup)
        }
    }
}
