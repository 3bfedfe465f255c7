@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
import EngageTestTraits
import Testing
import YoullEmulator

/// The completion-handler form of every operation answers what the `async` form answers.
@Suite(.bounded) struct YoullCallbackTests {
    /// Runs `query` in both forms and returns both answers.
    func both<Value: Sendable & Equatable>(_ youll: YoullProvider, _ query: YoullQuery<Value>) async throws -> (Value, Value) {
        let viaAsync = try await youll.fetch(query)
        let viaCallback = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            youll.fetch(query) { continuation.resume(with: $0.mapError { $0 as any Error }) }
        }
        return (viaAsync, viaCallback)
    }

    func callback<Value: Sendable>(_ youll: YoullProvider, _ mutation: YoullMutation<Value>) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            youll.perform(mutation) { continuation.resume(with: $0.mapError { $0 as any Error }) }
        }
    }

    @Test func everyQueryAnswersTheSameInBothForms() async throws {
        let harness = try await YoullHarness.make(extraLang: "el")
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession())
        try await youll.perform(.setActiveLinearJourney(id: "j-calm"))
        var checked = 0
        func check<Value: Sendable & Equatable>(_ query: YoullQuery<Value>) async throws {
            let (viaAsync, viaCallback) = try await both(youll, query)
            #expect(viaAsync == viaCallback, "\(query.name)")
            checked += 1
        }
        try await check(.categories())
        try await check(.subcategories(categoryID: "cat-mind"))
        try await check(.content(id: "c-002"))
        try await check(.contents(categoryID: "cat-food"))
        try await check(.favourites())
        try await check(.homeFeed())
        try await check(.exploreFeed())
        try await check(.searchFeed())
        try await check(.exploreTags())
        try await check(.exploreTag(id: "t-focus"))
        try await check(.taggedItems(tagID: "t-focus"))
        try await check(.searchFilters())
        try await check(.search(text: "yoga"))
        try await check(.journey(id: "j-sleep"))
        try await check(.linearJourney())
        try await check(.activityPageSlices())
        try await check(.nextWorkout())
        try await check(.events())
        try await check(.event(id: "e-cook"))
        try await check(.userEvents())
        try await check(.playlists())
        try await check(.meals())
        try await check(.mealDetailCards(mealID: "m-1"))
        try await check(.quiz(id: "q-sleep"))
        try await check(.playerConfig())
        try await check(.onboardingConfig())
        try await check(.quizConfig())
        try await check(.appConfig())
        try await check(.widgetConfig(widget: "today"))
        try await check(.socialProof())
        try await check(.facilitator(id: "f-anna"))
        try await check(.facilitators(ids: ["f-anna"]))
        try await check(.profile())
        try await check(.earnedBadges())
        try await check(.notificationSettings())
        try await check(.promoOffers())
        let (first, second) = try await (youll.fetch(.vectorSearch(text: "sleep")), youll.fetch(.vectorSearch(text: "sleep")))
        #expect(first == second)
        #expect(checked == 36)
    }

    @Test func everyMutationWorksInTheCallbackForm() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession("u-9"))
        #expect(try await callback(youll, .like(contentID: "c-001")).isLiked)
        #expect(try await callback(youll, .unlike(contentID: "c-001")).isLiked == false)
        try await callback(youll, .timerSession(contentID: "c-001", duration: .seconds(30), completed: false))
        try await callback(youll, .dismissHomeSlice(id: "home-new"))
        try await callback(youll, .setActiveLinearJourney(id: "j-calm"))
        try await callback(youll, .restartJourney(id: "j-calm"))
        try await callback(youll, .workoutCompleted(id: "w-2"))
        try await callback(youll, .activityFeedback(workoutID: "w-2", rating: 5))
        try await callback(youll, .respond(toEvent: "e-cook", with: .interested))
        let playlist = try await callback(youll, .createPlaylist(name: "Callbacks"))
        try await callback(youll, .addToPlaylist(playlistID: playlist.id, contentID: "c-002"))
        try await callback(youll, .deletePlaylist(id: playlist.id))
        try await callback(youll, .markMeal(id: "m-1", checked: true))
        try await callback(youll, .saveQuizAnswers(id: "q-sleep", answers: [YoullQuizAnswer(questionID: "q-sleep-2", optionID: "no")]))
        #expect(
            try await callback(youll, .submitQuiz(id: "q-sleep", answers: [YoullQuizAnswer(questionID: "q-sleep-2", optionID: "no")]))
                .answered == 1)
        #expect(
            try await callback(youll, .registerTransaction(productID: "monthly", transactionID: "7", receipt: "r")).status == "verified")
        #expect(try await callback(youll, .registerUser(name: "Nine")).name == "Nine")
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 1, count: 64))
        #expect(try await callback(youll, .uploadProfilePicture(jpeg, mimeType: "image/jpeg")).pictureURL != nil)
        #expect(
            try await callback(youll, .updateNotificationSettings(YoullNotificationSettings(push: true, email: true, reminders: false)))
                .email)
        try await callback(youll, .deleteAccount())
        #expect(harness.emulator.isDeleted("u-9") && harness.emulator.eventResponses(of: "u-9") == ["e-cook": "interested"])
        // Failures arrive as EngageError values.
        youll.setSession(TestSession(token: nil, userID: nil))
        await #expect(throws: EngageError.self) { try await callback(youll, .like(contentID: "c-001")) }
    }

    @Test func localOperationsHaveCallbackFormsToo() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        _ = try await harness.youll.fetch(.exploreTags())
        let usage = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<(entries: Int, bytes: Int), any Error>) in
            harness.youll.cacheUsage { continuation.resume(with: $0.mapError { $0 as any Error }) }
        }
        #expect(usage.entries == 1)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            harness.youll.logOut { continuation.resume(with: $0.mapError { $0 as any Error }) }
        }
        #expect(try await harness.youll.cacheUsage().entries == 0)
    }
}
