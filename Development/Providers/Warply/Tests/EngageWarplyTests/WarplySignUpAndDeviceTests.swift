// End-to-end tests of the seed's user registration, the device details sent at registration, and the
// presets' behaviour (attempts, log level, Wi-Fi only): the provider against the emulator over a real socket.
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import HTTPTypes
import Logging
import EngageTestTraits
import Testing
import WarplyEmulator

/// Passes requests on to URLSession, failing the first `failures` requests to `failingPath` with a 503,
/// and recording what every request asked of the network.
final class ObservingTransport: HTTPTransport {
    private let base = URLSessionTransport()
    private let failingPath: String
    private let state: Locked<(failuresLeft: Int, seen: [(path: String, allowsCellularAccess: Bool)])>

    init(failingPath: String = "", failures: Int = 0) {
        self.failingPath = failingPath
        state = Locked((failures, []))
    }

    var enforcesTimeouts: Bool { base.enforcesTimeouts }

    /// Every request's path (query removed) and cellular choice, in order.
    var seen: [(path: String, allowsCellularAccess: Bool)] { state.value.seen }

    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        let path = String((request.head.path ?? "").split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        let fails = state.withLock { state -> Bool in
            state.seen.append((path, request.options.allowsCellularAccess))
            guard path.hasSuffix(failingPath), !failingPath.isEmpty, state.failuresLeft > 0 else { return false }
            state.failuresLeft -= 1
            return true
        }
        if fails { return HTTPResponseMessage(head: HTTPResponse(status: .serviceUnavailable)) }
        return try await base.send(request)
    }
}

@Suite("Warply sign-up, device details and presets end to end", .bounded)
struct WarplySignUpAndDeviceTests {
    static let signUp = WarplySignUp(
        email: "Eleni@example.gr", password: "a-long-secret-1", firstName: "Ελένη", lastName: "Κωστοπούλου", phoneNumber: "+30 694-123 4567"
    )

    // MARK: Sign-up

    @Test("register signs the user up with their details, logs them in, and the profile shows the details")
    func registerLogsIn() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        #expect(try await warply.isLoggedIn() == false)
        try await warply.register(Self.signUp)
        #expect(try await warply.isLoggedIn())
        #expect(harness.emulator.signUps == ["eleni@example.gr"])

        let sent = try #require(harness.requests(to: WarplyWire.path(.registerUser, appUUID: WarplyHarness.appUUID)).first)
        #expect(sent.method == "POST")
        #expect(sent.header("loyalty-signature")?.count == 64)
        let body = try JSONDecoder().decode(WarplyAuthRequest.RegisterUser.self, from: sent.body)
        #expect(body.msisdn == "+306941234567" && body.firstName == "Ελένη" && body.language == "el")
        #expect(body.email == Self.signUp.email && body.password == Self.signUp.password)
        #expect(String(decoding: sent.body, as: UTF8.self).contains(#""firstname""#))

        let profile = try await warply.profile()
        #expect(profile.firstName == "Ελένη" && profile.lastName == "Κωστοπούλου")
        #expect(profile.msisdn == "+306941234567")
        #expect(profile.email == "eleni@example.gr")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a taken address and a weak password are Warply's refusals with its message; the session stays as it was")
    func serverRefusals() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: "maria@example.gr")
        let before = try await warply.tokens.currentTokens()

        var taken = Self.signUp
        taken.email = "MARIA@example.gr"
        await #expect { try await warply.register(taken) } throws: { error in
            let error = error as? EngageError
            return error?.code == .warplyRequestRejected && error?.message.contains("exists already") == true
        }
        var weak = Self.signUp
        weak.password = "short"
        await #expect { try await warply.register(weak) } throws: { error in
            let error = error as? EngageError
            return error?.code == .warplyRequestRejected && error?.message.contains("at least 8") == true
        }
        #expect(try await warply.tokens.currentTokens() == before)
        #expect(harness.emulator.signUps.isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("bad input is refused before anything is sent, and no sign-up value appears in its description or mirror")
    func badInputAndRedaction() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let path = WarplyWire.path(.registerUser, appUUID: WarplyHarness.appUUID)
        var cases: [WarplySignUp] = []
        for change in [
            { (s: inout WarplySignUp) in s.email = "eleni at example" },
            { $0.password = "" },
            { $0.password = String(repeating: "p", count: 257) },
            { $0.firstName = "Ελένη\nΚ" },
            { $0.lastName = String(repeating: "Κ", count: 129) },
            { $0.phoneNumber = "call me" },
        ] as [(inout WarplySignUp) -> Void] {
            var signUp = Self.signUp
            change(&signUp)
            cases.append(signUp)
        }
        for signUp in cases {
            await #expect { try await warply.register(signUp) } throws: { WarplyE2E.code($0) == .invalidInput }
        }
        #expect(harness.requests(to: path).isEmpty)

        let shown = [Self.signUp.description, Self.signUp.debugDescription, String(reflecting: Self.signUp), "\(Self.signUp)"]
        var dumped = ""
        dump(Self.signUp, to: &dumped)
        for text in shown + [dumped] {
            for secret in ["Eleni@example.gr", "a-long-secret-1", "Ελένη", "Κωστοπούλου", "694"] {
                #expect(!text.contains(secret), "\(text)")
            }
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("register's callback twin delivers the same outcome")
    func registerCallback() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let outcome = await withCheckedContinuation { continuation in
            warply.register(Self.signUp) { continuation.resume(returning: $0) }
        }
        try outcome.get()
        #expect(try await warply.isLoggedIn())
        await engage.shutdown()
        await harness.stop()
    }

    // MARK: Device details

    @Test("engage.setPushToken hands the APNs token, hex-encoded, to Warply with the device's details; nil forgets it")
    func pushTokenThroughTheFacade() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let report = try await engage.setPushToken(Data([0x00, 0x0f, 0xab, 0xff]))
        #expect(report.succeeded == [.warply])
        let sent = try #require(harness.emulator.receivedDeviceInfo.last { $0.action == WarplyWire.Action.updateToken })
        #expect(sent.string("device_token") == "000fabff")
        #expect(warply.pushToken.value == "000fabff")
        _ = try await engage.setPushToken(nil)
        #expect(warply.pushToken.value == nil)
        await #expect { _ = try await engage.setPushToken(Data()) } throws: { ($0 as? EngageError)?.code == .invalidInput }
        await engage.shutdown()
        await harness.stop()
    }

    /// Before, the device's model, OS, locale, time zone and id went to Warply at every start even with
    /// the user's analytics consent off.
    @Test("with analytics off for Warply the device's details are not sent; they go out at the first start after it is on again")
    func deviceInfoNeedsConsent() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warply-consent-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let secrets = InMemorySecretStore()
        let storage = StorageLocation.directory(directory.path)
        func infoUpdates() -> Int {
            harness.emulator.receivedDeviceInfo.filter { $0.action == WarplyWire.Action.updateDeviceInfo }.count
        }
        // The user declined before the first start that can send them (a first launch with a
        // consent screen turns analytics off before Warply registers, so the first start sends nothing).
        var (engage, warply) = try await harness.startProvider(storage: storage, secretStore: secrets)
        try await engage.setAnalyticsEnabled(false, for: .warply)
        harness.emulator.forgetRegistrations()
        _ = try await warply.campaigns()  // registers the device again: its details are due
        await engage.shutdown()
        try? engage.registry.database.close()
        let before = infoUpdates()
        (engage, warply) = try await harness.startProvider(storage: storage, secretStore: secrets)
        #expect(infoUpdates() == before, "the device's details went out with analytics off")
        try await warply.initialize()
        #expect(infoUpdates() == before)

        try await engage.setAnalyticsEnabled(true, for: .warply)
        await engage.shutdown()
        try? engage.registry.database.close()
        (engage, warply) = try await harness.startProvider(storage: storage, secretStore: secrets)
        #expect(infoUpdates() == before + 1, "with analytics on again, the next start sends them")
        await engage.shutdown()
        try? engage.registry.database.close()
        await harness.stop()
    }

    @Test("the device's details reach Warply once after it registers, again only for a new registration or new details")
    func deviceInfoOncePerRegistration() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warply-device-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let secrets = InMemorySecretStore()
        let storage = StorageLocation.directory(directory.path)
        func infoUpdates() -> [WarplyEmulatorContextRequest] {
            harness.emulator.receivedDeviceInfo.filter { $0.action == WarplyWire.Action.updateDeviceInfo }
        }

        var (engage, warply) = try await harness.startProvider(storage: storage, secretStore: secrets)
        let sent = try #require(infoUpdates().first)
        #expect(infoUpdates().count == 1)
        #expect(sent.string("unique_device_id") == "device-under-test")
        #expect(sent.string("bundle_id") == "org.engagekit.warply-tests")
        #expect(sent.string("sdk_version") == WarplyProvider.descriptor.version)
        #expect(sent.string("language") == "el")
        #expect(sent.string("platform") == DevicePlatform.name)
        #expect(sent.string("device_model") == DevicePlatform.model)
        for field in ["os_version", "vendor", "locale", "timezone"] { #expect(sent.string(field)?.isEmpty == false, "\(field)") }
        #expect(sent.string("device_token") == nil)

        // A restart with the same registration and details sends nothing.
        await engage.shutdown()
        try? engage.registry.database.close()
        (engage, warply) = try await harness.startProvider(storage: storage, secretStore: secrets)
        #expect(infoUpdates().count == 1)

        // A push token goes out with the details; Warply then has both, so the next start sends nothing.
        try await warply.updateDeviceToken("push-token-1")
        await engage.shutdown()
        try? engage.registry.database.close()
        (engage, warply) = try await harness.startProvider(storage: storage, secretStore: secrets)
        #expect(infoUpdates().count == 1)

        // The backend forgets the device: it registers again on the next call, and the next start
        // gives the new registration the details, the push token with them.
        harness.emulator.forgetRegistrations()
        _ = try await warply.campaigns()
        await engage.shutdown()
        try? engage.registry.database.close()
        (engage, warply) = try await harness.startProvider(storage: storage, secretStore: secrets)
        #expect(infoUpdates().count == 2)
        #expect(infoUpdates().last?.string("device_token") == "push-token-1")
        await engage.shutdown()
        try? engage.registry.database.close()
        await harness.stop()
    }

    @Test("details Warply refuses do not stop the start: they go out at the next one")
    func deviceInfoFailureIsDeferred() async throws {
        let harness = try await WarplyHarness()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warply-device-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let secrets = InMemorySecretStore()
        let storage = StorageLocation.directory(directory.path)
        let failing = ObservingTransport(failingPath: WarplyWire.path(.deviceInfo, appUUID: WarplyHarness.appUUID), failures: 1)
        let (engage, warply) = try await harness.startProvider(storage: storage, secretStore: secrets, transport: failing)
        #expect(harness.emulator.receivedDeviceInfo.isEmpty)
        #expect(try await warply.campaigns().isEmpty == false)
        await engage.shutdown()
        try? engage.registry.database.close()
        let (restarted, _) = try await harness.startProvider(storage: storage, secretStore: secrets)
        #expect(harness.emulator.receivedDeviceInfo.map(\.action) == [WarplyWire.Action.updateDeviceInfo])
        await restarted.shutdown()
        try? restarted.registry.database.close()
        await harness.stop()
    }

    // MARK: Presets

    @Test("the presets carry the seed's attempts, log levels and Wi-Fi rule; JSON overrides each")
    func presetValues() throws {
        let uuid = WarplyHarness.appUUID
        let expected: [(WarplyConfiguration.Preset, Int, Logger.Level, Bool)] = [
            (.development, 2, .trace, true), (.production, 3, .warning, true), (.testing, 1, .error, true),
            (.highSecurity, 2, .error, false),
        ]
        for (preset, attempts, level, cellular) in expected {
            let configuration = WarplyConfiguration.preset(preset, appUUID: uuid)
            #expect(configuration.maxAttempts == attempts && configuration.logLevel == level, "\(preset)")
            #expect(configuration.allowsCellularAccess == cellular, "\(preset)")
            #expect(configuration.validationIssues().isEmpty)
            let decoded = try JSONDecoder().decode(WarplyConfiguration.self, from: JSONEncoder().encode(configuration))
            #expect(decoded == configuration)
        }
        let json = #"{"appUUID":"\#(uuid)","preset":"highSecurity","allowsCellularAccess":true,"logLevel":"debug","maxAttempts":4}"#
        let overridden = try JSONDecoder().decode(WarplyConfiguration.self, from: Data(json.utf8))
        #expect(overridden.allowsCellularAccess && overridden.logLevel == .debug && overridden.maxAttempts == 4)
        #expect(overridden.auth?.breakerFailureThreshold == 3)
        let plain = WarplyConfiguration(appUUID: uuid)
        #expect(plain.maxAttempts == nil && plain.logLevel == nil && plain.allowsCellularAccess)

        for attempts in [0, 11, -1] {
            var invalid = plain
            invalid.maxAttempts = attempts
            #expect(invalid.validationIssues().contains { $0.hasPrefix("maxAttempts must be within 1...10") })
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(WarplyConfiguration.self, from: Data(#"{"appUUID":"\#(uuid)","logLevel":"loud"}"#.utf8))
        }
    }

    @Test("maxAttempts decides how often a transient failure is retried")
    func attemptsAreWarplys() async throws {
        for (attempts, registersAtStart) in [(2, true), (1, false)] {
            let harness = try await WarplyHarness(signing: .deviceRegistration)
            let register = WarplyWire.path(.register, appUUID: WarplyHarness.appUUID)
            let flaky = ObservingTransport(failingPath: register, failures: 1)
            var configuration = try harness.configuration(harness.warplyConfiguration { $0.maxAttempts = attempts })
            configuration.network.maxAttempts = 3
            configuration.network.retryBaseDelaySeconds = 0
            var environment = RegistryEnvironment(
                clock: harness.clock, random: SeededRandomSource(seed: 9), secretStore: InMemorySecretStore())
            environment.transport = flaky
            let engage = try await Engage.start(configuration: configuration, environment: environment)
            let warply = try await engage.provider(WarplyProvider.self)
            #expect(flaky.seen.filter { $0.path.hasSuffix(register) }.count == (registersAtStart ? 2 : 1), "\(attempts)")
            #expect((harness.emulator.registrationCount == 1) == registersAtStart, "\(attempts)")
            try await warply.initialize()
            #expect(harness.emulator.registrationCount == 1)
            await engage.shutdown()
            await harness.stop()
        }
    }

    @Test("logLevel quiets the provider's own lines without touching the registry's level")
    func logLevelIsWarplys() async throws {
        for level in [nil, Logger.Level.error] as [Logger.Level?] {
            let harness = try await WarplyHarness()
            let capture = LogCapture()
            var configuration = try harness.configuration(harness.warplyConfiguration { $0.logLevel = level })
            configuration.logLevel = .trace
            let engage = try await Engage.start(
                configuration: configuration,
                environment: RegistryEnvironment(
                    clock: harness.clock, random: SeededRandomSource(seed: 9), secretStore: InMemorySecretStore(),
                    logger: capture.logger(level: .trace))
            )
            let warply = try await engage.provider(WarplyProvider.self)
            _ = try await warply.campaigns()
            let requestLines = capture.entries.filter { $0.level < .error && $0.text.contains("/api/mobile/v2/") }
            #expect(requestLines.isEmpty == (level == .error), "\(String(describing: level)): \(requestLines.count) lines")
            await engage.shutdown()
            await harness.stop()
        }
    }

    @Test("Wi-Fi only marks every Warply request as not for cellular networks; the other presets leave them open")
    func wifiOnly() async throws {
        for allowsCellular in [false, true] {
            let harness = try await WarplyHarness()
            let observing = ObservingTransport()
            let (engage, warply) = try await harness.startProvider(
                harness.warplyConfiguration { $0.allowsCellularAccess = allowsCellular }, transport: observing)
            try await warply.logIn(deiEmail: "maria@example.gr")
            _ = try await warply.campaigns()
            _ = try await warply.profile()
            let warplyRequests = observing.seen.filter { $0.path.contains(WarplyHarness.appUUID) || $0.path.hasPrefix("/warply/partners") }
            #expect(warplyRequests.count >= 4)
            #expect(warplyRequests.allSatisfy { $0.allowsCellularAccess == allowsCellular }, "\(warplyRequests)")
            await engage.shutdown()
            await harness.stop()
        }
    }
}
