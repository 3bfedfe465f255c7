import Foundation
import EngageCore
import Testing

/// A launch of `engage-restart-child` (Tests/EngageRestartChild), the app side of the kill-and-restart
/// tests: its output lines as they come, a SIGKILL, and its end.
final class ChildProcess: Sendable {
    private let process: Process
    private let output = OutputLines()
    private let ended: Task<Int32, Never>

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
                throw ChildProcessError(message: "engage-restart-child is missing from \(folders.map(\.path)): build everything first (swift build --build-tests)")
            }
            return url
        }
    }

    /// Starts the child with `arguments`.
    init(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = try Self.executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        let output = self.output
        let (closed, closing) = AsyncStream.makeStream(of: Void.self)
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                // End of file: the child (the pipe's only writer) is gone.
                handle.readabilityHandler = nil
                closing.finish()
                return
            }
            output.append(data)
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { process in
            continuation.yield(process.terminationStatus)
            continuation.finish()
        }
        try process.run()
        self.process = process
        ended = Task {
            let status = await stream.first { _ in true } ?? -1
            for await _ in closed {}  // every line read
            return status
        }
    }

    /// The lines printed so far.
    var lines: [String] { output.state.withLock { $0.lines } }

    /// Kills the child at once (SIGKILL: no handler, no clean-up) and waits for it to end.
    func kill() async {
        signalIfRunning()
        _ = await exitStatus()
        #expect(process.terminationReason == .uncaughtSignal)
    }

    /// Waits for the child to end and returns its exit status. A cancelled wait (a test's time limit)
    /// kills the child, so no test waits on it for ever and no child outlives its test.
    func exitStatus() async -> Int32 {
        await withTaskCancellationHandler {
            await ended.value
        } onCancel: {
            signalIfRunning()
        }
    }

    /// SIGKILL, only while the child runs (a pid is reused once its process has been reaped).
    private func signalIfRunning() {
        guard process.isRunning else { return }
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
    }

    deinit {
        signalIfRunning()
    }

    /// Runs a child to its end; fails the test unless it exits 0. Returns its lines.
    static func run(_ arguments: [String]) async throws -> [String] {
        let child = try ChildProcess(arguments)
        let status = await child.exitStatus()
        guard status == 0 else { throw ChildProcessError(message: "engage-restart-child \(arguments.first ?? "") exited \(status): \(child.lines)") }
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
