#if Youll
    @_spi(EngageProvider) import Engage
    import EngageSandbox
    import Foundation
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Youll: the home feed and categories through the facade, then, as the sandbox's user, a like, a
    /// playlist and the profile, read again from the cache.
    struct YoullScenario: DemoScenario {
        static let emulatorID = "youll"

        let engage: Engage
        /// The embedded sandbox, when the scenario runs against it.
        let sandbox: SandboxHost?

        static func configure(_ configuration: inout EngageConfiguration, setup: DemoSetup) throws {
            let base = try setup.baseURL(for: emulatorID)
            try configuration.setProvider(
                .youll,
                YoullConfiguration(
                    graphQLEndpoint: base.appendingPathComponent("v1/graphql"), restBaseURL: base.appendingPathComponent("api/rest"),
                    extraLang: "en", appVersion: "1.0.0"
                ))
        }

        /// The host app's session in the demo: the token the emulator's stand-in auth service issued.
        struct DemoSession: YoullSession {
            let token: String
            let userID: String
            var isLoggedIn: Bool { get async { true } }
            func accessToken() async -> String? { token }
            func userInfo() async -> YoullUserInfo { YoullUserInfo(userID: userID) }
            func refreshToken() async throws -> String { token }
        }

        func run(into report: inout DemoReport) async throws {
            let youll = try await engage.provider(YoullProvider.self)
            let content = try await engage.content(ContentQuery())
            let feed = try await youll.fetch(.homeFeed())
            var lines: [String] = []
            if let sandbox, let base = sandbox.endpoints?.baseURL(for: Self.emulatorID) {
                // The emulator stands in for the app's own auth service.
                var request = URLRequest(url: base.appendingPathComponent("auth/token"))
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(#"{"user_id":"u-demo"}"#.utf8)
                let (data, _) = try await URLSession.shared.data(for: request)
                let token = (try JSONDecoder().decode([String: String].self, from: data))["access_token"] ?? ""
                youll.setSession(DemoSession(token: token, userID: "u-demo"))
                let like = try await youll.perform(.like(contentID: "c-001"))
                let playlist = try await youll.perform(.createPlaylist(name: "Demo"))
                try await youll.perform(.addToPlaylist(playlistID: playlist.id, contentID: "c-001"))
                let profile = try await youll.fetch(.profile())
                let cached = try await youll.fetch(.profile(), cachePolicy: .cacheOnly)
                lines.append("As u-demo: liked c-001 (\(like.likeCount) likes), playlist \"\(playlist.name)\", profile \(profile.name)")
                lines.append("Profile read again from the cache: \(cached.id == profile.id ? "hit" : "miss")")
            }
            report.section("Youll content") {
                $0.line(
                    "Through the facade: \(content.items.count) content item(s) from \(content.report.succeeded.map(\.rawValue).joined(separator: ", "))"
                )
                $0.line("Home feed: \(feed.count) section(s): \(feed.map { Self.describe($0) }.joined(separator: ", "))")
                for line in lines { $0.line(line) }
            }
        }

        static func describe(_ section: YoullFeedSection) -> String {
            switch section {
            case let .contents(row): "\(row.style.rawValue) (\(row.items.count))"
            case let .categories(row): "categories (\(row.categories.count))"
            case let .unknown(kind, _): "\(kind) (kept raw)"
            }
        }
    }
#endif
