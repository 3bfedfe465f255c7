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

/// Small POSIX helpers for storage files: private directories, exclusive creation, permission checks.
enum FileSystem {
    /// Creates `path` and any missing parents with mode 0700. An existing directory is left as it is.
    static func createPrivateDirectory(atPath path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw EngageError(.storage, "The storage path \(path) exists but is not a directory.")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
        } catch {
            // Another process may have created it in the meantime.
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return
            }
            throw EngageError(
                .storage, "The storage directory \(path) could not be created.",
                recoverySuggestion: "Check that the parent directory exists and is writable by this process.",
                underlyingError: error
            )
        }
    }

    /// The current `errno` as a readable text, such as `"Permission denied (errno 13)"`.
    static func errnoText(_ code: Int32 = errno) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }

    /// Reads exactly `count` bytes from `fd`, or fewer at end of file.
    static func readAll(_ fd: Int32, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress.map { $0 + total }, count - total)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw EngageError(.storage, "A file could not be read: \(errnoText()).")
            }
            if result == 0 { break }
            total += result
        }
        return Array(bytes.prefix(total))
    }

    /// Writes all of `bytes` to `fd`.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var total = 0
        while total < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress.map { $0 + total }, bytes.count - total)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw EngageError(.storage, "A file could not be written: \(errnoText()).")
            }
            total += result
        }
    }

    /// Flushes the directory entry changes of `path` to disk (best effort).
    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = close(fd)
    }
}
