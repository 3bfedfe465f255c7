@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageReference
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import ReferenceEmulator
import EngageTestTraits
import Testing

@Suite("Reference provider contract", .bounded)
struct ReferenceContractTests {
    @Test("the reference provider passes the conformance suite against its emulator, logging in and reading items")
    func conformance() async throws {
        let password = "pw-7Qz81-reference"
        let host = SandboxHost(emulators: [ReferenceEmulator(configuration: .init(password: password))])
        let baseURL = try #require(try await host.start().baseURL(for: "reference"))
        let report = await ProviderConformanceSuite(
            ReferenceProvider.self,
            configuration: ReferenceProvider.Configuration(baseURL: baseURL),
            invalidConfiguration: ReferenceProvider.Configuration(baseURL: baseURL, itemsSize: 0),
            secrets: [password, "maria@example.gr"],
            operationProbe: { provider in
                try await provider.logIn(
                    UserIdentity(userID: "maria", email: "maria@example.gr", attributes: ["reference.password": .string(password)]))
                _ = try await provider.items()
            }
        ).run()
        #expect(report.failures.isEmpty, "\(report)")
        await host.stop()
    }
}
