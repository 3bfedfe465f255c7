@_spi(EngageProvider) import Engage
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageCrobox
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageSovendus
@_spi(EngageProvider) import EngageWarply
@_spi(EngageProvider) import EngageYoull
import Crypto
import Foundation
import HTTPTypes
import Logging

/// The parsers that read bytes an attacker may control, each as a function of arbitrary bytes that
/// must return (an error is a fine answer) and never crash, hang or touch memory it does not own.
///
/// `engage-fuzz` runs one of them under libFuzzer with AddressSanitizer (`Development/Fuzz/README.md`); the
/// checked-in corpus (`Development/Fuzz/Corpus/<target>`), the inputs a fuzzer found that once crashed included,
/// is replayed by `EngageFuzzTests` in every test run.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// An Explore directory archive: the zip container (central directory, comment, local headers),
    /// the WinZip-AES layer (with the password `fuzz`) and the inflater, writing at most 1 MiB.
    case zipArchive = "zip-archive"
    /// A value read back from storage: the sealer's version, nonce, ciphertext and tag.
    case sealedValue = "sealed-value"
    /// A message the Sovendus banner page posts to the app (JSON, or any text), and the frame-trust
    /// check of its origin.
    case sovendusMessage = "sovendus-message"
    /// Sovendus' navigation policy: the input's first line is the page's URL, the second the URL the
    /// page navigates to.
    case sovendusURLPolicy = "sovendus-url-policy"
    /// An answer of any provider: every request of a fresh `Engage` with Crobox, Warply, Youll and
    /// Sovendus is answered with the input (HTTP 200, JSON), through each provider's whole decoding
    /// path (envelopes, error mapping, models) by way of the facade's offers, content and merchants.
    case providerAnswers = "provider-answers"

    /// Runs the target on `data`.
    package func run(_ data: Data) async {
        switch self {
        case .zipArchive: Self.zipArchive(data)
        case .sealedValue: Self.sealedValue(data)
        case .sovendusMessage: Self.sovendusMessage(data)
        case .sovendusURLPolicy: Self.sovendusURLPolicy(data)
        case .providerAnswers: await Self.providerAnswers(data)
        }
    }

    /// Runs the target on `data` from a thread outside Swift's cooperative pool (libFuzzer's), waiting
    /// for its asynchronous part.
    package func runBlocking(_ data: Data) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await run(data)
            done.signal()
        }
        done.wait()
    }

    // MARK: Targets

    private static let scratch = FileManager.default.temporaryDirectory
        .appendingPathComponent("engage-fuzz-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)

    private static func zipArchive(_ data: Data) {
        let archive = scratch.appendingPathComponent("archive.zip")
        let database = scratch.appendingPathComponent("explore.db")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: archive)
            try? FileManager.default.removeItem(at: database)
        }
        guard (try? data.write(to: archive)) != nil else { return }
        _ = try? ExploreArchive.extractDatabase(from: archive, to: database, maxBytes: 1 << 20, password: "fuzz")
    }

    private static let sealer: Sealer? = try? Sealer(key: SymmetricKey(data: Data(repeating: 7, count: 32)))

    private static func sealedValue(_ data: Data) {
        _ = try? sealer?.open(data, context: Data("fuzz/value".utf8))
    }

    private static func sovendusMessage(_ data: Data) {
        let body: Any =
            (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) ?? String(decoding: data, as: UTF8.self)
        _ = try? SovendusBridge.message(from: body)
        let text = String(decoding: data, as: UTF8.self)
        let trust = SovendusFrameTrust(pageOrigin: "https://shop.example", domain: text.split(separator: "\n").first.map(String.init))
        _ = trust.trusts(SovendusMessageSource(isMainFrame: data.count % 2 == 0, origin: text))
    }

    private static func sovendusURLPolicy(_ data: Data) {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let page = lines.first.flatMap({ URL(string: String($0)) }) else { return }
        let target = lines.count > 1 ? URL(string: String(lines[1])) : nil
        let policy = SovendusNavigationPolicy(pageURL: page)
        _ = policy.decision(for: target, trigger: .userAction)
        _ = policy.decision(for: target, trigger: .other)
    }

    private static func providerAnswers(_ data: Data) async {
        _ = await answerAllProviders(with: data)
    }

    /// Starts a fresh `Engage` whose every request is answered with `data`, asks for offers, content and
    /// merchants, and returns the paths requested (to check that every provider was reached).
    package static func answerAllProviders(with data: Data) async -> [String] {
        let transport = FixedAnswer(body: data)
        guard let configuration = try? providerConfiguration() else { return [] }
        let environment = RegistryEnvironment(transport: transport, secretStore: InMemorySecretStore())
        guard let engage = try? await Engage.start(configuration: configuration, environment: environment) else { return [] }
        _ = try? await engage.offers(OfferQuery(productIDs: ["sku-1", "sku-2"], placementID: "1"))
        _ = try? await engage.content(ContentQuery())
        _ = try? await engage.merchants(MerchantQuery())
        await engage.shutdown()
        return transport.paths.withLock { $0 }
    }

    private static func providerConfiguration() throws -> EngageConfiguration {
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.fuzz")
        configuration.storage = .inMemory
        configuration.network.maxAttempts = 1
        configuration.network.timeoutSeconds = 5
        configuration.logLevel = .critical
        let base = URL(literal: "https://fuzz.invalid")
        try configuration.setProvider(.crobox, CroboxConfiguration(containerID: "fuzz1", baseURL: base.appendingPathComponent("crobox")))
        var warply = WarplyConfiguration.preset(.testing, appUUID: "f83dfde1145e4c2da69793abb2f579af")
        warply.environment = .custom(base.appendingPathComponent("warply"))
        try configuration.setProvider(.warply, warply)
        try configuration.setProvider(
            .youll,
            YoullConfiguration(
                graphQLEndpoint: base.appendingPathComponent("youll/v1/graphql"), restBaseURL: base.appendingPathComponent("youll/api/rest")
            ))
        try configuration.setProvider(
            .sovendus,
            SovendusConfiguration(
                trafficSourceNumber: 1, trafficMediumNumber: 1, benefitsBaseURL: base.appendingPathComponent("sovendus"),
                reportsErrors: false))
        return configuration
    }
}

/// Answers every request with one body (HTTP 200, JSON), and keeps the paths asked for.
private struct FixedAnswer: HTTPTransport {
    let body: Data
    let paths = Locked<[String]>([])

    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        paths.withLock { $0.append(request.head.path ?? "") }
        var head = HTTPResponse(status: .ok)
        head.headerFields[.contentType] = "application/json"
        return HTTPResponseMessage(head: head, body: body)
    }
}
