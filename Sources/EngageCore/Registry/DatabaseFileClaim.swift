import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif

/// One live registry's exclusive use of a database file within this process.
///
/// Two registries on one file would run two analytics queues over the same rows, and both would
/// deliver them. Claims are keyed by the file's resolved absolute path (symlinks and `..` resolved),
/// so two spellings of one file conflict. A claim is released explicitly (registry shutdown) or when
/// it is deallocated with its registry.
final class DatabaseFileClaim: Sendable {
    private static let claimedPaths = Locked<Set<String>>([])

    /// The resolved absolute path of the claimed file.
    let path: String
    private let released = Locked(false)

    /// Claims `path`; throws `.invalidConfiguration` when another live registry holds it.
    init(path: String) throws(EngageError) {
        let resolved = Self.resolvedPath(path)
        let inserted = Self.claimedPaths.withLock { $0.insert(resolved).inserted }
        guard inserted else {
            throw EngageError(
                .invalidConfiguration, "Another registry already uses \(resolved).",
                recoverySuggestion: "Shut the other registry down first, or give each registry its own storage location."
            )
        }
        self.path = resolved
    }

    deinit {
        release()
    }

    /// Gives the file up; later calls do nothing.
    func release() {
        let wasReleased = released.withLock { released -> Bool in
            defer { released = true }
            return released
        }
        guard !wasReleased else { return }
        _ = Self.claimedPaths.withLock { $0.remove(path) }
    }

    /// Whether a live registry of this process holds `path` (for tests).
    static func isClaimed(_ path: String) -> Bool {
        let resolved = resolvedPath(path)
        return claimedPaths.withLock { $0.contains(resolved) }
    }

    /// The canonical absolute form of `path`: `realpath(3)` when the file exists, else the standardised
    /// absolute path.
    static func resolvedPath(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }
}
