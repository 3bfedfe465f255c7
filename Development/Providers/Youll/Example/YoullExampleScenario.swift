@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageYoull
import Foundation
import Logging

/// The host app's session in the example: a fixed token, whose JWT names the user.
struct ExampleSession: YoullSession {
    let token: String?

    var isLoggedIn: Bool { get async { token != nil } }
    func accessToken() async -> String? { token }
    func userInfo() async -> YoullUserInfo { YoullUserInfo(userID: token.flatMap(Self.userID(in:))) }
    func refreshToken() async throws -> String {
        throw EngageError(.sessionExpired, "The example's token expired; pass a fresh one with --token.", providerID: .youll)
    }

    /// The `sub` claim of a JWT, without verifying it (the backend verifies).
    static func userID(in token: String) -> String? {
        (try? JWTClaims(decoding: token))?.subject
    }
}

/// The browsing scenario, on a registry with only the Youll provider.
struct YoullExampleScenario {
    let registry: ProviderRegistry
    let youll: YoullProvider
    let isUser: Bool

    static let appID = "org.engagekit.youll-example"

    init(graphQLEndpoint: URL, restBaseURL: URL?, language: String, token: String?, storage: ExampleStorage) async throws {
        var configuration = EngageConfiguration.preset(.development, appID: Self.appID)
        configuration.storage = storage.location
        configuration.logLevel = .error
        try configuration.setProvider(
            .youll,
            YoullConfiguration(
                graphQLEndpoint: graphQLEndpoint, restBaseURL: restBaseURL, extraLang: language, appVersion: "1.0.0"
            ))
        registry = try ProviderRegistry(
            configuration: configuration,
            environment: RegistryEnvironment(secretStore: storage.secretStore, logger: ExampleBackend.quietLogger(label: "youll-example"))
        )
        try await registry.register(.provider(YoullProvider.self, from: configuration))
        let report = await registry.start()
        if let failure = report.failures[.youll] { throw failure }
        youll = try await registry.provider(YoullProvider.self)
        youll.setSession(ExampleSession(token: token))
        isUser = token != nil
    }

    struct Report: Encodable {
        var homeFeed: [YoullFeedSection]
        var categories: [YoullCategory]
        var profile: YoullProfile?
        /// With `--paywall`: the placement's paywall (`null` when it has none) and the super paywall.
        var paywall: YoullPaywallConfig?
        var superPaywall: YoullPaywallConfig?
    }

    /// The tour; with `paywallPlacement`, the paywall of that placement and the super paywall too.
    func run(output: ExampleOutput, paywallPlacement: String? = nil) async throws {
        let feed = try await youll.fetch(.homeFeed())
        let categories = try await youll.fetch(.categories())
        var profile: YoullProfile?
        if !output.json {
            output.section("Home feed (\(isUser ? "user" : "guest"))")
            for section in feed {
                switch section {
                case let .contents(row):
                    output.line(
                        "\(row.style.rawValue) \"\(row.title)\": \(row.items.prefix(3).map(\.title).joined(separator: ", "))\(row.items.count > 3 ? "…" : "")"
                    )
                case let .categories(row):
                    output.line("categories \"\(row.title)\": \(row.categories.map(\.title).joined(separator: ", "))")
                case let .unknown(kind, _): output.line("(a \(kind) section this version does not show)")
                }
            }
            output.section("Categories")
            for category in categories {
                output.line("\(category.id) \(category.title) (\(category.subcategories.map(\.title).joined(separator: ", ")))")
            }
        }
        // The answers just fetched were stored: read again, they cost no request.
        let cached = try await youll.fetch(.categories(), cachePolicy: .cacheOnly)
        output.line("Cache hit: \(cached.count) categories read without a request")
        guard case let .contents(first)? = feed.first, let item = first.items.first,
            let content = try await youll.fetch(.content(id: item.id))
        else { throw EngageError(.decoding, "The home feed has no content.", providerID: .youll) }
        output.line(
            "Content \(content.id): \"\(content.title)\" \(content.kind)\(content.duration.map { ", \($0.components.seconds / 60) min" } ?? "")"
        )
        if isUser {
            let viewed = try await youll.perform(.setViewedContent(contentID: content.id))
            output.line("Viewed \(viewed.contentID), recorded at \(viewed.viewedAt.formatted(.iso8601))")
            let like = try await youll.perform(.like(contentID: content.id))
            output.line("Liked \(like.contentID): \(like.likeCount) likes")
            let review = try await youll.perform(.review(contentID: content.id, rating: 5, text: "Just what I needed."))
            let reviews = try await youll.fetch(.reviews(contentID: content.id))
            output.line("Reviewed \(review.contentID): \(review.rating) stars (\(reviews.count) review\(reviews.count == 1 ? "" : "s"))")
            if let link = try await youll.fetch(.shareLink(contentID: content.id)) {
                output.line("Share link: \(link.url.absoluteString)")
            }
            do {
                let badge = try await youll.perform(.earnBadge(id: "b-review"))
                output.line("Badge earned: \(badge.title)")
            } catch {
                // Another backend may not offer the emulator's badge.
                guard error.httpStatus == 404 else { throw error }
                output.line("This backend has no badge b-review")
            }
            let end = Date()
            try await youll.perform(
                .trackingSession(YoullTrackingSession(startedAt: end.addingTimeInterval(-300), endedAt: end, screenCount: 6)))
            output.line("Tracking session of 5 min sent")
            let playlist = try await youll.perform(.createPlaylist(name: "Evenings"))
            try await youll.perform(.addToPlaylist(playlistID: playlist.id, contentID: content.id))
            output.line("Playlist \"\(playlist.name)\" created with \(content.id)")
            if let event = try await youll.fetch(.events()).first {
                try await youll.perform(.respond(toEvent: event.id, with: .going))
                output.line("Going to \"\(event.title)\"")
            }
            if let quiz = try await youll.fetch(.quiz(id: "q-sleep")) {
                let answers = quiz.questions.compactMap { question in
                    question.options.first.map { YoullQuizAnswer(questionID: question.id, optionID: $0.id) }
                }
                let result = try await youll.perform(.submitQuiz(id: quiz.id, answers: answers))
                output.line("Quiz \"\(quiz.title)\": \(result.answered) answers, score \(result.score)")
            }
            profile = try await youll.fetch(.profile())
            if let profile {
                output.line(
                    "Profile \(profile.name): \(profile.stats.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
                )
            }
        }
        var paywall: YoullPaywallConfig?
        var superPaywall: YoullPaywallConfig?
        if let paywallPlacement {
            paywall = try await youll.fetch(.paywallConfig(placement: paywallPlacement))
            output.section("Paywall \"\(paywallPlacement)\"")
            if let paywall { Self.show(paywall, output: output) } else { output.line("(none for this placement)") }
            // As the Youll SDK reads it: the last offer at once (none on a first run), then the current one.
            for try await response in youll.responses(.superPaywallConfig()) {
                superPaywall = response.value
                output.section("Super paywall (\(response.isFromCache ? "from the cache" : "from Youll"))")
                Self.show(response.value, output: output)
            }
        }
        if output.json {
            try output.printJSON(
                Report(homeFeed: feed, categories: categories, profile: profile, paywall: paywall, superPaywall: superPaywall))
        }
    }

    private static func show(_ paywall: YoullPaywallConfig, output: ExampleOutput) {
        output.line("\(paywall.title)\(paywall.subtitle.map { " — \($0)" } ?? "")\(paywall.isDismissible ? "" : " (cannot be closed)")")
        for feature in paywall.features { output.line("  • \(feature)") }
        for product in paywall.products {
            let trial = product.trialDays > 0 ? ", \(product.trialDays)-day trial" : ""
            let mark = product.id == paywall.preselectedProduct?.id ? "▸" : " "
            let billing = product.period == .lifetime ? "once" : "per \(product.period.rawValue)"
            output.line("  \(mark) \(product.id) \(billing)\(trial)\(product.badge.map { " [\($0)]" } ?? "")")
        }
    }

    func shutdown() async {
        await registry.shutdown()
    }
}
