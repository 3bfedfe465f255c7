@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Logging

/// Where an example sends its requests: a backend given on the command line, or its provider's
/// emulator started in-process on a free port.
public struct ExampleBackend: Sendable {
    /// The provider's base URL.
    public let baseURL: URL
    /// The in-process sandbox, when the emulator is used.
    public let sandbox: SandboxHost?

    /// Uses `baseURL` when given (validated by the command), else starts `emulator` and says so on `output`.
    public static func resolve(
        baseURL: String?, emulator: @autoclosure () -> any Emulator, output: ExampleOutput
    ) async throws -> ExampleBackend {
        if let baseURL, let url = URL(string: baseURL) {
            return ExampleBackend(baseURL: url, sandbox: nil)
        }
        let emulator = emulator()
        var logger = Logger(label: "engagekit-example.sandbox")
        logger.logLevel = .error
        let host = SandboxHost(emulators: [emulator], configuration: SandboxConfiguration(logger: logger))
        guard let url = try await host.start().baseURL(for: emulator.id) else {
            await host.stop()
            throw ExampleBackendError(message: "The \(emulator.id) emulator did not start.")
        }
        output.line("\(emulator.id) emulator at \(url.absoluteString)")
        return ExampleBackend(baseURL: url, sandbox: host)
    }

    /// Stops the in-process sandbox, if any.
    public func stop() async {
        await sandbox?.stop()
    }

    /// A logger at `error` level for the example's own registry.
    public static func quietLogger(label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = .error
        return logger
    }
}

/// The backend could not be prepared.
public struct ExampleBackendError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// The message.
    public var description: String { message }
}
