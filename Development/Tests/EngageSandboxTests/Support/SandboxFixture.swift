@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import ReferenceEmulator

/// Starts a host on an ephemeral loopback port, runs `body`, and stops the host even when `body` throws.
@discardableResult
func withSandbox<T>(
    _ emulators: [any Emulator] = [ReferenceEmulator()],
    configuration: SandboxConfiguration = SandboxConfiguration(),
    _ body: (SandboxHost, SandboxEndpoints) async throws -> T
) async throws -> T {
    let host = SandboxHost(emulators: emulators, configuration: configuration)
    let endpoints = try await host.start()
    do {
        let result = try await body(host, endpoints)
        await host.stop()
        return result
    } catch {
        await host.stop()
        throw error
    }
}

extension SandboxEndpoints {
    /// `<base URL of emulatorID>/<path>`; fails the test loudly when the emulator is not served.
    func url(_ emulatorID: String, _ pathAndQuery: String) throws -> URL {
        guard let base = baseURL(for: emulatorID), let url = URL(string: base.absoluteString + pathAndQuery) else {
            throw FixtureError.noURL(emulatorID, pathAndQuery)
        }
        return url
    }

    /// A URL on the reference emulator.
    func reference(_ pathAndQuery: String) throws -> URL {
        try url("reference", pathAndQuery)
    }
}

enum FixtureError: Error {
    case noURL(String, String)
    case unexpected(String)
}
