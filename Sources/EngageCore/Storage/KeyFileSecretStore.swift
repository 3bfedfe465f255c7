import Crypto
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

/// Keys stored as files: one raw 32-byte file `<name>.key` per key, mode 0600, in a directory created
/// with mode 0700. The default secret store on Linux.
///
/// A new key is written to a private temporary file, flushed, then published with `link(2)`, which
/// never replaces an existing file: when two processes race to create the same key, exactly one file
/// wins and both use it. A key file of the wrong size, not a regular file, owned by another user or
/// readable by group or others is refused with `EngageError(.crypto)`, never used or overwritten.
///
/// The platform default (`SecretStores.platformDefault`) also moves a key it finds only where an
/// earlier version kept it into `directory` the first time it is asked for: published there the same
/// way, then removed from the old place.
@_spi(EngageProvider) public final class KeyFileSecretStore: SecretStore {
    /// The directory holding the key files.
    public let directory: String
    /// Where keys were kept before, read once and moved into `directory`.
    package let legacyDirectory: String?
    private let cache = Locked<[String: SymmetricKey]>([:])

    /// A store in `directory`, created (mode 0700) if needed.
    ///
    /// - Throws: `EngageError(.storage)` if the directory cannot be created.
    public convenience init(directory: String) throws {
        try self.init(directory: directory, legacyDirectory: nil)
    }

    /// A store in `directory` that moves keys it finds only in `legacyDirectory` into `directory`.
    package init(directory: String, legacyDirectory: String?) throws {
        for path in [directory] + [legacyDirectory].compactMap({ $0 }) where path.isEmpty || path.contains("\0") {
            throw EngageError(.invalidConfiguration, "The key directory path '\(path.prefix(80))' is empty or contains a NUL byte.")
        }
        self.directory = directory
        self.legacyDirectory = legacyDirectory == directory ? nil : legacyDirectory
        try FileSystem.createPrivateDirectory(atPath: directory)
    }

    /// The path of the key file for `name`.
    public func path(forKeyNamed name: String) -> String {
        directory + "/" + name + ".key"
    }

    /// The key named `name`, read from its 0600 key file or created (and published with `link(2)`) on first use.
    public func key(named name: String) throws -> SymmetricKey {
        try SecretStores.validateName(name)
        if let key = cache.withLock({ $0[name] }) { return key }
        let path = path(forKeyNamed: name)
        // Read, or create; if another process created it first, read theirs.
        for _ in 0..<3 {
            if let bytes = try readKeyFile(at: path) ?? moveLegacyKeyFile(named: name, to: path) ?? createKeyFile(at: path, name: name) {
                let key = SymmetricKey(data: bytes)
                return cache.withLock { cache in
                    if let existing = cache[name] { return existing }
                    cache[name] = key
                    return key
                }
            }
        }
        throw EngageError(.storage, "The key file \(path) could not be created or read; it keeps disappearing.")
    }

    /// Deletes the key file of `name`, if it exists; values sealed with it no longer open.
    public func deleteKey(named name: String) throws {
        try SecretStores.validateName(name)
        let path = path(forKeyNamed: name)
        cache.withLock { _ = $0.removeValue(forKey: name) }
        if unlink(path) != 0, errno != ENOENT {
            throw EngageError(.storage, "The key file \(path) could not be deleted: \(FileSystem.errnoText()).")
        }
        FileSystem.syncDirectory(directory)
    }

    /// The key bytes at `path`, `nil` if there is no file; throws for an unusable file.
    private func readKeyFile(at path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw EngageError(
                .storage, "The key file \(path) could not be opened: \(FileSystem.errnoText()).",
                recoverySuggestion: "Check the file's owner and permissions (it must be a regular file, mode 0600)."
            )
        }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw EngageError(.storage, "The key file \(path) could not be inspected: \(FileSystem.errnoText()).")
        }
        let mode = UInt32(info.st_mode)
        guard mode & UInt32(S_IFMT) == UInt32(S_IFREG) else {
            throw EngageError(.crypto, "The key file \(path) is not a regular file; it was not used.")
        }
        guard info.st_uid == geteuid() else {
            throw EngageError(
                .crypto, "The key file \(path) belongs to another user; it was not used.",
                recoverySuggestion: "Run as the file's owner, or remove the file (values sealed with it will be lost)."
            )
        }
        guard mode & 0o077 == 0 else {
            throw EngageError(
                .crypto,
                "The key file \(path) is readable or writable by group or others (mode "
                    + "\(String(mode & 0o777, radix: 8))); it was not used.",
                recoverySuggestion: "Restrict it with `chmod 600`, or remove it if it may have leaked "
                    + "(values sealed with it will be lost)."
            )
        }
        guard info.st_size == 32 else {
            throw EngageError(
                .crypto, "The key file \(path) has \(info.st_size) bytes instead of 32; it is damaged and was not used.",
                recoverySuggestion: "Restore it from a backup, or remove it (values sealed with it will be lost)."
            )
        }
        let bytes = try FileSystem.readAll(fd, count: 32)
        guard bytes.count == 32 else {
            throw EngageError(.crypto, "The key file \(path) was truncated while reading; it was not used.")
        }
        return bytes
    }

    /// Publishes the key of `name` found in the legacy directory at `path`, then removes the old file;
    /// `nil` when there is none (or another process moved it first).
    private func moveLegacyKeyFile(named name: String, to path: String) throws -> [UInt8]? {
        guard let legacyDirectory else { return nil }
        let legacyPath = legacyDirectory + "/" + name + ".key"
        guard let bytes = try readKeyFile(at: legacyPath) else { return nil }
        // Published (or found published by a racing process) before the old file goes.
        let published = try createKeyFile(at: path, name: name, bytes: bytes) ?? readKeyFile(at: path)
        guard published == bytes else {
            throw EngageError(
                .crypto, "The key file \(path) differs from the earlier \(legacyPath); neither was changed.",
                recoverySuggestion: "Remove the one that does not open the stored values."
            )
        }
        if unlink(legacyPath) == 0 { FileSystem.syncDirectory(legacyDirectory) }
        return bytes
    }

    /// Creates the key file atomically with `bytes` (random by default); returns its bytes, or `nil`
    /// if another writer created it first.
    private func createKeyFile(at path: String, name: String, bytes: [UInt8]? = nil) throws -> [UInt8]? {
        let bytes = bytes ?? SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        let temporary = directory + "/." + name + "." + UUID().uuidString + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw EngageError(
                .storage, "A key file could not be created in \(directory): \(FileSystem.errnoText()).",
                recoverySuggestion: "Check that the directory is writable by this process."
            )
        }
        defer { _ = unlink(temporary) }
        do {
            defer { _ = close(fd) }
            guard fchmod(fd, 0o600) == 0 else {
                throw EngageError(.storage, "The key file \(temporary) could not be made private: \(FileSystem.errnoText()).")
            }
            try FileSystem.writeAll(fd, bytes)
            guard fsync(fd) == 0 else {
                throw EngageError(.storage, "The key file \(temporary) could not be flushed: \(FileSystem.errnoText()).")
            }
        }
        // link(2) publishes the complete file atomically and fails if the name exists: no clobbering.
        if link(temporary, path) != 0 {
            if errno == EEXIST { return nil }
            throw EngageError(.storage, "The key file \(path) could not be created: \(FileSystem.errnoText()).")
        }
        FileSystem.syncDirectory(directory)
        return bytes
    }
}
