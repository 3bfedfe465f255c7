import Foundation
@_spi(EngageProvider) @testable import EngageCore
import Testing

/// A launch of `engage-restart-child` (Development/Sources/EngageRestartChild), the app side of the kill-and-restart
/// tests: its output lines as they come, a SIGKILL, and its end.
///
/// The child is started with `posix_spawn`, not Foundation's `Process`: on Linux, `Process.run()`
/// (swift-corelibs-foundation up to Swift 6.3.1) over-reads a `dirent` while listing `/proc/self/fd`
/// and crashes the test process now and then (swiftlang/swift-corelibs-foundation#5472; seen here
/// in a parallel run). One plain thread per child reads its output to the end and then waits for it,
/// so no blocking call runs on the cooperative pool.
final class ChildProcess: Sendable {
    private let processID: pid_t
    private let output = OutputLines()
    private let ended: Task<Termination, Never>
    /// Whether the child has been reaped; `kill` is sent only before (a reaped pid can be reused).
    private let reaped = Locked(false)

    /// How the child ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// The child executable, built beside the test bundle by `swift build --build-tests`: the
    /// bundle's folder on macOS (where the process is the toolchain's test runner), the test binary's
    /// folder on Linux.
    static var executable: URL {
        get throws {
            let folders = [
                Bundle(for: ChildProcess.self).bundleURL.deletingLastPathComponent(),
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            ]
            let candidates = folders.map { $0.appendingPathComponent("engage-restart-child") }
            guard let url = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
                throw ChildProcessError(
                    message:
                        "engage-restart-child is missing from \(folders.map(\.path)): build everything first (swift build --build-tests)")
            }
            return url
        }
    }

    /// Starts the child with `arguments`; its standard output is read line by line.
    init(_ arguments: [String]) throws {
        let executable = try Self.executable.path
        var fds: [Int32] = [-1, -1]
        // Close-on-exec: a process spawned meanwhile by another test (a browser, another child) must
        // not inherit the write end, or this child's end of file would never come. (Glibc's module
        // does not export pipe2; the window between the two calls is a few instructions.)
        let opened = pipe(&fds)
        if opened == 0 { fds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) } }
        guard opened == 0 else { throw ChildProcessError(message: "pipe() failed: errno \(errno)") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        var processID: pid_t = 0
        let spawned = Self.spawn(executable, arguments: [executable] + arguments, stdout: writeEnd, readEnd: readEnd, processID: &processID)
        close(writeEnd)  // the child holds its copy: end of file comes when the child is gone
        guard spawned == 0 else {
            close(readEnd)
            throw ChildProcessError(message: "posix_spawn(\(executable)) failed: \(spawned)")
        }
        self.processID = processID
        let spawnedID = processID
        let output = output
        let reaped = reaped
        let (stream, continuation) = AsyncStream.makeStream(of: Termination.self)
        let waiter = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count > 0 {
                    output.append(Data(buffer[0..<count]))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(readEnd)
            continuation.yield(Self.reap(spawnedID, reaped: reaped))
            continuation.finish()
        }
        waiter.start()
        ended = Task { await stream.first { _ in true } ?? .exited(-1) }
    }

    /// The lines printed so far.
    var lines: [String] { output.state.withLock { $0.lines } }

    /// Kills the child at once (SIGKILL: no handler, no clean-up), waits for it to end and returns how
    /// it ended: `.signalled(SIGKILL)`, or its own exit when it had finished before the signal.
    @discardableResult
    func kill() async -> Termination {
        signalIfRunning()
        return await ended.value
    }

    /// Waits for the child to end and returns its exit status (-1 when a signal ended it). A
    /// cancelled wait (a test's time limit) kills the child, so no test waits on it for ever and no
    /// child outlives its test.
    func exitStatus() async -> Int32 {
        let termination = await withTaskCancellationHandler {
            await ended.value
        } onCancel: {
            signalIfRunning()
        }
        if case let .exited(status) = termination { return status }
        return -1
    }

    /// SIGKILL, only while the child has not been reaped.
    private func signalIfRunning() {
        let processID = processID
        reaped.withLock { reaped in
            if !reaped { _ = Foundation.kill(processID, SIGKILL) }
        }
    }

    deinit {
        signalIfRunning()
    }

    /// Waits for the child to end without reaping it, then reaps it under `reaped`'s lock, so that
    /// `signalIfRunning` never signals a pid the system may have handed to another process.
    private static func reap(_ processID: pid_t, reaped: Locked<Bool>) -> Termination {
        var info = siginfo_t()
        while waitid(P_PID, id_t(processID), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        return reaped.withLock { reaped -> Termination in
            var status: Int32 = 0
            while waitpid(processID, &status, 0) == -1 && errno == EINTR {}
            reaped = true
            // The POSIX encoding: the low 7 bits are the signal (0 for a normal exit), bits 8-15 the status.
            let signal = status & 0x7f
            return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        }
    }

    private static func spawn(_ executable: String, arguments: [String], stdout: Int32, readEnd: Int32, processID: inout pid_t) -> Int32 {
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_addclose(&actions, stdout)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        return posix_spawn(&processID, executable, &actions, nil, argv, environ)
    }

    /// Runs a child to its end; fails the test unless it exits 0. Returns its lines.
    static func run(_ arguments: [String]) async throws -> [String] {
        let child = try ChildProcess(arguments)
        let status = await child.exitStatus()
        guard status == 0 else {
            throw ChildProcessError(message: "engage-restart-child \(arguments.first ?? "") exited \(status): \(child.lines)")
        }
        return child.lines
    }
}

/// The complete lines a child printed, and the start of the next one.
private final class OutputLines: Sendable {
    let state = Locked<(lines: [String], partial: String)>(([], ""))

    func append(_ data: Data) {
        state.withLock { output in
            output.partial += String(decoding: data, as: UTF8.self)
            while let newline = output.partial.firstIndex(of: "\n") {
                output.lines.append(String(output.partial[..<newline]))
                output.partial = String(output.partial[output.partial.index(after: newline)...])
            }
        }
    }
}

struct ChildProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
