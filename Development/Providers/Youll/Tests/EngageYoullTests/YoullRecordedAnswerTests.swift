@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageYoull
import EngageTestTraits
import Foundation
import HTTPTypes
import Testing
import YoullEmulator

/// Youll's answers as recorded in `Development/Providers/Youll/Tests/Fixtures` (each file's source is in its README):
/// the emulator, which has types of its own, answers every operation in the recorded shape, and the
/// client reads the recorded answers. A client type renamed, retyped or dropped without a new recording
/// fails here, and so does an emulator that drifts from the recording.
@Suite("Youll: client and emulator speak the recorded shapes", .bounded)
struct YoullRecordedAnswerTests {
    /// One operation and the file that records its answer (and, for REST writes, its request).
    struct Recording: Sendable, CustomTestStringConvertible {
        var file: String
        var request: String?
        /// Whether every recorded key must be in the emulator's answer: GraphQL answers hold every field
        /// asked for, REST answers leave out the empty optional ones.
        var exact = true
        var run: @Sendable (YoullProvider) async throws -> Void
        var testDescription: String { file }
    }

    static let recordings: [Recording] = [
        Recording(file: "home-feed.json") { _ = try await $0.fetch(.homeFeed()) },
        Recording(file: "categories.json") { _ = try await $0.fetch(.categories()) },
        Recording(file: "content-by-pk.json") { _ = try await $0.fetch(.content(id: "c-001")) },
        Recording(file: "journey.json") { _ = try await $0.fetch(.journey(id: "j-calm")) },
        Recording(file: "activity-slices.json") { _ = try await $0.fetch(.activityPageSlices()) },
        Recording(file: "events.json") { _ = try await $0.fetch(.events()) },
        Recording(file: "meals.json") { _ = try await $0.fetch(.meals()) },
        Recording(file: "quiz.json") { _ = try await $0.fetch(.quiz(id: "q-sleep")) },
        Recording(file: "app-config.json") { _ = try await $0.fetch(.appConfig()) },
        Recording(file: "paywall-config.json") { _ = try await $0.fetch(.paywallConfig(placement: "onboarding")) },
        Recording(file: "share-link.json") { _ = try await $0.fetch(.shareLink(contentID: "c-001")) },
        Recording(file: "create-playlist.json") { _ = try await $0.perform(.createPlaylist(name: "Evening")) },
        Recording(file: "set-workout-completed.json") {
            _ = try await $0.perform(.workoutCompleted(id: "w-1"))
        },
        Recording(file: "submit-quiz.json") {
            _ = try await $0.perform(.submitQuiz(id: "q-sleep", answers: [YoullQuizAnswer(questionID: "q-sleep-1", optionID: "6to8")]))
        },
        Recording(file: "profile.json", exact: false) { _ = try await $0.fetch(.profile()) },
        Recording(file: "like.json", exact: false) { _ = try await $0.perform(.like(contentID: "c-002")) },
        Recording(file: "earn-badge.json", request: "earn-badge-request.json", exact: false) {
            _ = try await $0.perform(.earnBadge(id: "b-first"))
        },
        Recording(file: "notification-settings.json", exact: false) {
            _ = try await $0.fetch(.notificationSettings())
        },
        Recording(file: "promo-offers.json", exact: false) { _ = try await $0.fetch(.promoOffers()) },
        Recording(file: "review.json", request: "review-request.json", exact: false) {
            _ = try await $0.perform(.review(contentID: "c-002", rating: 5, text: "Calming"))
        },
        Recording(file: "vector-search.json", exact: false) { _ = try await $0.fetch(.vectorSearch(text: "box breathing", limit: 2)) },
    ]

    /// Passes every request on and keeps the last request body and answer.
    final class Recorder: HTTPTransport {
        private let base = URLSessionTransport()
        private let kept = Locked<(request: Data?, answer: Data)?>(nil)

        func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
            let response = try await base.send(request)
            kept.withLock { $0 = (request.body, response.body) }
            return response
        }

        /// The last exchange, forgotten once read.
        func take() -> (request: Data?, answer: Data)? {
            kept.withLock { kept in
                defer { kept = nil }
                return kept
            }
        }
    }

    @Test("the emulator answers every recorded operation in the recorded shape")
    func emulatorAnswersInTheRecordedShapes() async throws {
        let recorder = Recorder()
        let harness = try await YoullHarness.make(extraLang: "el", transport: recorder)
        defer { Task { await harness.stop() } }
        harness.youll.setSession(harness.userSession("u-1"))
        for recording in Self.recordings {
            try await recording.run(harness.youll)
            let kept = try #require(recorder.take(), "no request for \(recording.file)")
            let answer = try JSONSerialization.jsonObject(with: kept.answer, options: [.fragmentsAllowed])
            let differences = JSONShape.differences(answer, from: try Self.recorded(recording.file), exact: recording.exact)
            #expect(differences.isEmpty, "\(recording.file): \(differences)")
            if let request = recording.request {
                let sent = try JSONSerialization.jsonObject(with: try #require(kept.request))
                let differences = JSONShape.differences(sent, from: try Self.recorded(request), exact: true)
                #expect(differences.isEmpty, "\(request): \(differences)")
            }
        }
    }

    /// A provider whose every request is answered with the recorded `file`.
    static func reading(_ file: String) async throws -> YoullHarness {
        let body = try Data(contentsOf: folder.appendingPathComponent(file))
        let transport = InMemoryTransport { _ in
            var head = HTTPResponse(status: .ok)
            head.headerFields[.contentType] = "application/json"
            return HTTPResponseMessage(head: head, body: body)
        }
        let harness = try await YoullHarness.make(extraLang: "el", transport: transport)
        harness.youll.setSession(harness.userSession("u-1"))
        return harness
    }

    @Test("the client reads each recorded answer", arguments: recordings)
    func clientReadsTheRecording(_ recording: Recording) async throws {
        let harness = try await Self.reading(recording.file)
        defer { Task { await harness.stop() } }
        try await recording.run(harness.youll)
    }

    @Test("the recorded values reach the models")
    func recordedValues() async throws {
        var harness = try await Self.reading("home-feed.json")
        let feed = try await harness.youll.fetch(.homeFeed())
        #expect(feed.map(\.id) == ["home-hero", "home-continue", "home-popular", "home-poll", "home-categories", "home-new"])
        guard case let .contents(hero) = feed[0], case .unknown("poll", _) = feed[3], case let .categories(row) = feed[4] else {
            Issue.record("unexpected section kinds: \(feed)")
            return
        }
        #expect(hero.items.first?.id == "c-001" && hero.items.first?.duration == .seconds(720) && hero.items.first?.language == "el")
        #expect(row.categories.count == 2)
        await harness.stop()

        harness = try await Self.reading("profile.json")
        let profile = try await harness.youll.fetch(.profile())
        #expect(profile.name == "Ana" && profile.email == "ana@example.com" && profile.pictureURL?.host == "cdn.youll.test")
        #expect(profile.stats == ["minutes": 0, "sessions": 0, "streak": 0])
        await harness.stop()

        harness = try await Self.reading("paywall-config.json")
        let paywall = try #require(try await harness.youll.fetch(.paywallConfig(placement: "onboarding")))
        #expect(
            paywall.placement == "onboarding" && paywall.products.map(\.id) == ["com.youll.premium.monthly", "com.youll.premium.yearly"])
        await harness.stop()
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func recorded(_ file: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(file)), options: [.fragmentsAllowed])
    }
}
