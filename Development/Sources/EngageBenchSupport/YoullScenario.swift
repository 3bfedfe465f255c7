@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) import EngageYoull
import Foundation
import Logging
import YoullEmulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Youll benchmark: the home feed (about 20 KB of JSON) through the full stack (the provider's
/// query, its GraphQL client, the transport stack, decoding into models and the cache write) versus a
/// bare `URLSession` POST of the same document, with the same headers, to the same emulator; and a
/// `cacheFirst` hit.
public final class YoullScenario: Sendable {
    public let host: SandboxHost
    @_spi(EngageProvider) public let registry: ProviderRegistry
    public let youll: YoullProvider
    public let session: URLSession
    /// The POST the stack sent, replayed by the baseline.
    public let bareRequest: URLRequest
    /// The size of the home feed answer, in bytes.
    public let answerBytes: Int

    private init(
        host: SandboxHost, registry: ProviderRegistry, youll: YoullProvider, session: URLSession, bareRequest: URLRequest, answerBytes: Int
    ) {
        self.host = host
        self.registry = registry
        self.youll = youll
        self.session = session
        self.bareRequest = bareRequest
        self.answerBytes = answerBytes
    }

    public static func start() async throws -> YoullScenario {
        var logger = Logger(label: "engage.bench.youll")
        logger.logLevel = .error
        let emulator = YoullEmulator()
        let host = SandboxHost(
            emulators: [emulator],
            configuration: SandboxConfiguration(journalCapacity: 2_000, shutdownGracePeriod: .seconds(1), logger: logger))
        do {
            guard let base = try await host.start().baseURL(for: emulator.id) else {
                throw BenchFailure("The sandbox does not serve Youll.")
            }
            let endpoint = base.appendingPathComponent("v1/graphql")
            var configuration = EngageConfiguration.preset(.production, appID: "org.engagekit.bench")
            configuration.storage = .inMemory
            configuration.logLevel = .error
            try configuration.setProvider(.youll, YoullConfiguration(graphQLEndpoint: endpoint))
            let registry = try ProviderRegistry(
                configuration: configuration, environment: RegistryEnvironment(secretStore: InMemorySecretStore(), logger: logger))
            try await registry.register(.provider(YoullProvider.self, from: configuration))
            let report = await registry.start()
            if let failure = report.failures[.youll] { throw failure }
            let youll = try await registry.provider(YoullProvider.self)
            _ = try await youll.fetch(.homeFeed())
            // The baseline replays exactly what the stack sent.
            guard let sent = host.journal.entries(for: emulator.id).last else { throw BenchFailure("No home feed request was journalled.") }
            var request = URLRequest(url: endpoint)
            request.httpMethod = "POST"
            request.httpBody = sent.body
            for header in sent.headers
            where !["host", "content-length", "user-agent", "connection", "accept-encoding"].contains(header.name.lowercased()) {
                request.setValue(header.value, forHTTPHeaderField: header.name)
            }
            request.timeoutInterval = 30
            let session = URLSession(configuration: .ephemeral)
            let (data, response) = try await session.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200, data.count > 10_000 else {
                throw BenchFailure("The bare home feed POST answered \(data.count) bytes.")
            }
            return YoullScenario(
                host: host, registry: registry, youll: youll, session: session, bareRequest: request, answerBytes: data.count)
        } catch {
            await host.stop()
            throw error
        }
    }

    /// A: the home feed through the provider, asking the backend.
    public func homeFeedViaStack() async throws -> Int {
        try await youll.fetch(.homeFeed(), cachePolicy: .networkOnly).count
    }

    /// B: the same POST with a bare `URLSession`.
    public func homeFeedViaURLSession() async throws -> Int {
        let (data, response) = try await session.data(for: bareRequest)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw BenchFailure("The bare home feed POST failed.") }
        return data.count
    }

    /// A cache hit: the stored answer opened, decoded and localised.
    public func homeFeedFromCache() async throws -> Int {
        try await youll.fetch(.homeFeed(), cachePolicy: .cacheFirst).count
    }

    /// Cache hits of smaller answers, to see where a hit's time goes (`--diagnose`): the tags (tiny),
    /// the categories (no dates), the events (dates), a content item.
    public func diagnosticHits() async throws -> [(String, @Sendable () async throws -> Void)] {
        let youll = self.youll
        _ = try await youll.fetch(.exploreTags())
        _ = try await youll.fetch(.categories())
        _ = try await youll.fetch(.events())
        _ = try await youll.fetch(.content(id: "c-001"))
        return [
            ("tags", { _ = try await youll.fetch(.exploreTags(), cachePolicy: .cacheFirst) }),
            ("categories", { _ = try await youll.fetch(.categories(), cachePolicy: .cacheFirst) }),
            ("events", { _ = try await youll.fetch(.events(), cachePolicy: .cacheFirst) }),
            ("content", { _ = try await youll.fetch(.content(id: "c-001"), cachePolicy: .cacheFirst) }),
        ]
    }

    public func stop() async {
        await registry.shutdown()
        await host.stop()
    }
}
