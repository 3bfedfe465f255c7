@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
import Testing
import YoullEmulator

/// A host session for tests: a token that can be replaced, and a refresh that counts its calls.
final class TestSession: YoullSession {
    private struct State {
        var token: String?
        var userID: String?
        var refresh: @Sendable () async throws -> String
        var refreshes = 0
        var required: [String: Bool] = [:]
    }

    private let state: Locked<State>

    /// How many times the provider asked for a refresh.
    var refreshCount: Int { state.withLock { $0.refreshes } }
    /// Per-operation answers to `requiresToken`, overriding the configuration's.
    var required: [String: Bool] {
        get { state.withLock { $0.required } }
        set { state.withLock { $0.required = newValue } }
    }

    init(
        token: String?, userID: String?,
        refresh: @escaping @Sendable () async throws -> String = { throw EngageError(.sessionExpired, "no refresh") }
    ) {
        state = Locked(State(token: token, userID: userID, refresh: refresh))
    }

    var isLoggedIn: Bool { get async { state.withLock { $0.userID != nil } } }
    func accessToken() async -> String? { state.withLock { $0.token } }
    func userInfo() async -> YoullUserInfo { state.withLock { YoullUserInfo(userID: $0.userID) } }
    func requiresToken(operation: String, byDefault: Bool) -> Bool { state.withLock { $0.required[operation] } ?? byDefault }

    func refreshToken() async throws -> String {
        let refresh = state.withLock { state -> @Sendable () async throws -> String in
            state.refreshes += 1
            return state.refresh
        }
        let token = try await refresh()
        state.withLock { $0.token = token }
        return token
    }

    func setToken(_ token: String?) { state.withLock { $0.token = token } }
    func setRefresh(_ refresh: @escaping @Sendable () async throws -> String) { state.withLock { $0.refresh = refresh } }
}

/// A started sandbox serving a Youll emulator, and a registry with the Youll provider pointed at it.
struct YoullHarness {
    let host: SandboxHost
    let emulator: YoullEmulator
    let registry: ProviderRegistry
    let youll: YoullProvider
    let base: URL
    /// The clock of both the sandbox and the registry.
    let clock: FakeClock

    static func make(
        tokenLifetime: Duration = .seconds(900), extraLang: String = "", rest: Bool = true, storage: StorageLocation = .inMemory,
        transport: (any HTTPTransport)? = nil, secretStore: any SecretStore = InMemorySecretStore(),
        configure: (inout YoullConfiguration) -> Void = { _ in }, sleep: (@Sendable (Duration) async throws -> Void)? = nil,
        timeoutSeconds: Double = 20
    ) async throws -> YoullHarness {
        let clock = FakeClock(now: Date(timeIntervalSince1970: 1_795_000_000))
        let emulator = YoullEmulator(configuration: .init(tokenLifetime: tokenLifetime))
        var sandbox = SandboxConfiguration(now: { clock.now })
        if let sleep { sandbox.sleep = sleep }
        let host = SandboxHost(emulators: [emulator], configuration: sandbox)
        let base = try #require(try await host.start().baseURL(for: "youll"))
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.youll-tests")
        configuration.storage = storage
        configuration.network.timeoutSeconds = timeoutSeconds  // generous: the suite runs hundreds of tests at once
        var youllConfiguration = YoullConfiguration(
            graphQLEndpoint: base.appendingPathComponent("v1/graphql"), restBaseURL: rest ? base.appendingPathComponent("api/rest") : nil,
            extraLang: extraLang, appVersion: "9.9.9"
        )
        configure(&youllConfiguration)
        try configuration.setProvider(.youll, youllConfiguration)
        let registry = try ProviderRegistry(
            configuration: configuration, environment: RegistryEnvironment(transport: transport, clock: clock, secretStore: secretStore))
        try await registry.register(.provider(YoullProvider.self, from: configuration))
        let report = await registry.start()
        if let failure = report.failures[.youll] { throw failure }
        return YoullHarness(
            host: host, emulator: emulator, registry: registry, youll: try await registry.provider(YoullProvider.self), base: base,
            clock: clock)
    }

    /// A session for `userID` with a token the emulator issued.
    func userSession(_ userID: String = "u-1", lifetime: Duration? = nil) -> TestSession {
        TestSession(token: emulator.issueToken(userID: userID, lifetime: lifetime), userID: userID)
    }

    func requests(path suffix: String) async -> [JournalEntry] {
        host.journal.entries(for: "youll").filter { $0.path.hasSuffix(suffix) }
    }

    func stop() async {
        await registry.shutdown()
        await host.stop()
    }
}

/// The cache key function, reached through `@testable`.
enum YoullCacheKeyProbe {
    static func key(operation: String, variables: String, language: String, userID: String?) -> String {
        YoullCache.key(operation: operation, variables: Data(variables.utf8), language: language, owner: userID.map { .user($0) } ?? .guest)
    }
}

/// A session whose user changes the moment the provider first asks who it is (an app that switches
/// accounts while a request is being prepared): `first` answers that question, `second` everything after.
final class SwitchingSession: YoullSession {
    private let first: TestSession
    private let second: TestSession
    private let switched = Locked(false)

    init(from first: TestSession, to second: TestSession) {
        self.first = first
        self.second = second
    }

    private var current: TestSession { switched.value ? second : first }

    var isLoggedIn: Bool { get async { await current.isLoggedIn } }
    func accessToken() async -> String? { await current.accessToken() }
    func userInfo() async -> YoullUserInfo {
        let answer = await current.userInfo()
        switched.withLock { $0 = true }
        return answer
    }
    func refreshToken() async throws -> String { try await current.refreshToken() }
}

extension Date {
    /// The date without its fraction of a second (the emulator's timestamps are whole seconds).
    var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
