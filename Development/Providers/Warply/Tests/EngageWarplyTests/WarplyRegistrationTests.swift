@_spi(EngageProvider) @testable import EngageCore
import Crypto
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator

@Suite("Warply device registration and signing", .bounded)
struct WarplyRegistrationTests {
    @Test("initialize registers the device once; every later request is signed with it")
    func registersAndSigns() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let (engage, warply) = try await harness.startProvider()
        try await warply.initialize()
        #expect(harness.emulator.registrationCount == 1)
        _ = try await warply.campaigns()
        _ = try await warply.merchantCategories()
        #expect(harness.emulator.registrationCount == 1)

        let registration = try #require(harness.requests(to: WarplyPaths.register).first)
        #expect(registration.header("loyalty-signature") == nil)  // registration itself is unsigned
        let signed = harness.requests(to: WarplyPaths.standardContext)
        #expect(signed.count == 2)
        for entry in signed {
            let date = try #require(entry.header("loyalty-date"))
            #expect(Int(date) == Int(harness.clock.now.timeIntervalSince1970))
            #expect(entry.header("loyalty-signature")?.count == 64)
            #expect(entry.header("loyalty-web-id")?.isEmpty == false)
            #expect(entry.header("channel") == "mobile")
            #expect(entry.header("loyalty-bundle-id")?.hasSuffix(":org.engagekit.warply-tests") == true)
            #expect(entry.header("unique-device-id") == "device-under-test")
            #expect(entry.header("platform") != nil && entry.header("vendor") != nil && entry.header("os_version") != nil)
        }
        #expect(harness.emulator.signatureFailureCount == 0)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the signature is hex SHA-256 of api key + date string")
    func signatureVector() {
        let expected = SHA256.hash(data: Data("key-123".utf8) + Data("1700000000".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(WarplyWire.signature(apiKey: "key-123", date: "1700000000") == expected)
        #expect(WarplyWire.signature(apiKey: "", date: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("concurrent first calls share one registration")
    func concurrentFirstCalls() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let (engage, provider) = try await harness.startProvider()
        // start() registered already; forget it on both sides and race 20 calls.
        harness.emulator.forgetRegistrations()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = try await provider.merchantCategories() } }
            try await group.waitForAll()
        }
        #expect(harness.emulator.registrationCount == 2)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("status 9 re-registers once and resends the request")
    func status9Reregisters() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let (engage, warply) = try await harness.loggedIn()
        harness.emulator.forgetRegistrations()
        let before = harness.requests(to: WarplyPaths.authenticatedContext).count
        let profile = try await warply.profile()
        #expect(profile.email == "maria@example.gr")
        #expect(harness.emulator.registrationCount == 2)
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).count == before + 2)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("concurrent requests refused with status 9 re-register once: each invalidates only the registration that signed it")
    func concurrentStatus9ReregistersOnce() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let (engage, warply) = try await harness.startProvider()
        try await warply.initialize()
        harness.emulator.forgetRegistrations()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<30 { group.addTask { _ = try await warply.merchantCategories() } }
            try await group.waitForAll()
        }
        #expect(harness.emulator.registrationCount == 2)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a status 9 body with leading whitespace or of an unexpected shape still re-registers")
    func status9WithLeadingWhitespace() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let (engage, warply) = try await harness.startProvider()
        try await warply.initialize()
        harness.host.faults.inject(
            FaultRule(
                .status(
                    200, body: Data(" \n\t{\"status\":\"9\",\"context\":\"gone\"}".utf8), headers: ["Content-Type": "application/json"]),
                emulatorID: "warply", method: "POST", path: WarplyPaths.standardContext, trigger: .times(1)
            ))
        #expect(try await !warply.merchantCategories().isEmpty)
        #expect(harness.emulator.registrationCount == 2)
        #expect(harness.requests(to: WarplyPaths.standardContext).count == 2)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a body refusing the request without the expected payload is warplyRequestRejected with the server's message")
    func refusalWithoutPayload() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let (engage, warply) = try await harness.startProvider()
        harness.host.faults.inject(
            FaultRule(
                .status(
                    200, body: Data(#"{"status":0,"msg":"Service paused","context":[]}"#.utf8),
                    headers: ["Content-Type": "application/json"]),
                emulatorID: "warply", method: "POST", path: WarplyPaths.standardContext, trigger: .times(1)
            ))
        await #expect { try await warply.merchantCategories() } throws: { error in
            let error = error as? EngageError
            return error?.code == .warplyRequestRejected && error?.message.contains("Service paused") == true
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a server answering status 9 forever gets one re-registration, not a loop")
    func status9DoesNotLoop() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let (engage, warply) = try await harness.startProvider()
        try await warply.initialize()
        harness.emulator.setAnswersStatus9Always(true)
        await #expect { try await warply.campaigns() } throws: { ($0 as? EngageError)?.code == .warplyRegistrationInvalid }
        #expect(harness.emulator.registrationCount == 2)
        #expect(harness.requests(to: WarplyPaths.standardContext).count == 2)
        harness.emulator.setAnswersStatus9Always(false)
        #expect(try await !warply.campaigns().isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a registration that fails is retried on the next call; a bad registration body is a decoding error")
    func failedRegistration() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        harness.host.faults.inject(FaultRule(.malformedBody, emulatorID: "warply", path: WarplyPaths.register, trigger: .times(1)))
        harness.host.faults.inject(FaultRule(.status(500), emulatorID: "warply", path: WarplyPaths.register, trigger: .times(1)))
        // start() swallows the first failure (registration is deferred).
        let (engage, warply) = try await harness.startProvider()
        await #expect { try await warply.initialize() } throws: { error in
            let code = (error as? EngageError)?.code
            return code == .decoding || code == .httpStatus
        }
        try await warply.initialize()
        #expect(harness.emulator.registrationCount == 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a registration the server does not know for the app is refused with a clear error")
    func unknownApplication() async throws {
        let harness = try await WarplyHarness(
            signing: .deviceRegistration, emulatorConfiguration: WarplyEmulator.Configuration(acceptsAnyAppUUID: false))
        let configuration = harness.warplyConfiguration { $0.appUUID = "00000000000000000000000000000000" }
        let (engage, warply) = try await harness.startProvider(configuration)
        await #expect { try await warply.initialize() } throws: { error in
            let error = error as? EngageError
            return error?.code == .warplyRequestRejected && error?.recoverySuggestion?.contains("appUUID") == true
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("an invalid configuration is refused with every issue and a suggestion")
    func invalidConfiguration() async throws {
        var configuration = WarplyConfiguration.preset(.production, appUUID: "not-a-uuid")
        configuration.requestTimeoutSeconds = 0
        configuration.auth = AuthSettings(breakerFailureThreshold: 0)
        let issues = configuration.validationIssues()
        #expect(issues.count == 3)
        #expect(issues.contains { $0.contains("appUUID") && $0.contains("dashboard") })
        #expect(throws: EngageError.self) { try configuration.validate(for: .warply) }
    }
}
