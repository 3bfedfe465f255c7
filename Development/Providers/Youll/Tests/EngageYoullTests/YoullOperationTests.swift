@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
import EngageTestTraits
import Testing
import YoullEmulator

/// Every operation against the emulator over real HTTP, with its state changes visible in later calls.
@Suite(.bounded) struct YoullOperationTests {
    @Test func contentQueriesAnswerTheSeededCatalogue() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        let categories = try await youll.fetch(.categories())
        #expect(categories.map(\.id) == ["cat-mind", "cat-move", "cat-food", "cat-learn"])
        #expect(categories[0].subcategories.map(\.title) == ["Breathing", "Sleep"])
        #expect(try await youll.fetch(.subcategories(categoryID: "cat-move")).map(\.id) == ["sub-yoga", "sub-strength"])
        let item = try #require(try await youll.fetch(.content(id: "c-001")))
        #expect(item.title == "Morning breath" && item.kind == "audio" && item.language == nil)
        #expect(item.duration == .seconds(720) && item.imageURL?.host == "cdn.youll.test" && item.tags == ["breathing", "morning"])
        #expect(try await youll.fetch(.content(id: "no-such")) == nil)
        let page = try await youll.fetch(.contents(categoryID: "cat-mind", page: PageRequest(offset: 2, limit: 3)))
        #expect(page.map(\.id) == ["c-003", "c-004", "c-013"])
        #expect(try await youll.fetch(.exploreTags()).map(\.name) == ["morning", "sleep", "focus", "strength"])
        #expect(try await youll.fetch(.exploreTag(id: "t-sleep"))?.itemCount == 8)
        #expect(try await youll.fetch(.taggedItems(tagID: "t-sleep", page: PageRequest(limit: 2))).map(\.id) == ["c-003", "c-004"])
        #expect(try await youll.fetch(.searchFilters()).map(\.id) == ["kind", "length"])
        #expect(try await youll.fetch(.search(text: "lentil", filterIDs: ["recipe"])).map(\.id) == ["c-010", "c-022", "c-034", "c-046"])
        let matches = try await youll.fetch(.vectorSearch(text: "box breathing", limit: 2))
        #expect(matches.map(\.content.id) == ["c-002", "c-014"] && matches.allSatisfy { $0.score == 1 })
    }

    @Test func feedsHaveTypedSectionsAndKeepUnknownKindsRaw() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let feed = try await harness.youll.fetch(.homeFeed())
        #expect(feed.map(\.id) == ["home-hero", "home-continue", "home-popular", "home-poll", "home-categories", "home-new"])
        guard case let .contents(hero) = feed[0], case let .unknown(kind, raw) = feed[3], case let .categories(row) = feed[4] else {
            Issue.record("unexpected section kinds: \(feed)")
            return
        }
        #expect(hero.style == .hero && hero.items.map(\.id) == ["c-001"] && !hero.isDismissible)
        #expect(kind == "poll" && row.categories.count == 4)
        // The raw section is the JSON as sent: snake_case keys, every field asked for.
        guard case let .object(object) = raw else { Issue.record("raw is not an object"); return }
        #expect(object["dismissible"] == .bool(true) && object["title"] == .string("How do you feel?"))
        #expect(try await harness.youll.fetch(.exploreFeed()).map(\.id) == ["explore-all", "explore-categories"])
        #expect(try await harness.youll.fetch(.searchFeed()).map(\.id) == ["search-suggested"])
    }

    @Test func theUsersChangesShowInLaterAnswers() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession("u-1"))

        let like = try await youll.perform(.like(contentID: "c-005"))
        #expect(like.isLiked && like.contentID == "c-005")
        #expect(try await youll.fetch(.content(id: "c-005"))?.isLiked == true)
        #expect(try await youll.fetch(.favourites()).map(\.id) == ["c-005"])
        #expect(try await youll.perform(.unlike(contentID: "c-005")).isLiked == false)
        #expect(try await youll.fetch(.favourites()).isEmpty)

        try await youll.perform(.timerSession(contentID: "c-001", duration: .seconds(600), completed: true))
        #expect(harness.emulator.timerSessions.map(\.seconds) == [600])

        try await youll.perform(.dismissHomeSlice(id: "home-popular"))
        #expect(!(try await youll.fetch(.homeFeed())).contains { $0.id == "home-popular" })

        #expect(try await youll.fetch(.linearJourney()) == nil)
        try await youll.perform(.setActiveLinearJourney(id: "j-strong"))
        let journey = try #require(try await youll.fetch(.linearJourney()))
        #expect(journey.id == "j-strong" && journey.isActive && journey.steps.map(\.position) == [1, 2, 3, 4] && journey.progress == 0)
        #expect(try await youll.fetch(.journey(id: "j-sleep"))?.isLinear == false)
        try await youll.perform(.restartJourney(id: "j-strong"))

        #expect(try await youll.fetch(.activityPageSlices()).map(\.id) == ["act-week1", "act-week2"])
        #expect(try await youll.fetch(.nextWorkout())?.id == "w-1")
        try await youll.perform(.workoutCompleted(id: "w-1"))
        try await youll.perform(.activityFeedback(workoutID: "w-1", rating: 4, comment: "Hard but good"))
        #expect(try await youll.fetch(.nextWorkout())?.id == "w-2")
        #expect(try await youll.fetch(.activityPageSlices())[0].workouts[0].feedbackRating == 4)

        #expect(try await youll.fetch(.events()).map(\.id) == ["e-breath", "e-yoga", "e-cook"])
        let before = try #require(try await youll.fetch(.event(id: "e-yoga")))
        try await youll.perform(.respond(toEvent: "e-yoga", with: .going))
        let after = try #require(try await youll.fetch(.event(id: "e-yoga")))
        #expect(after.response == .going && after.attendeeCount == before.attendeeCount + 1)
        #expect(try await youll.fetch(.userEvents()).map(\.id) == ["e-yoga"])

        let playlist = try await youll.perform(.createPlaylist(name: "  Evenings "))
        #expect(playlist.name == "Evenings" && playlist.items.isEmpty)
        try await youll.perform(.addToPlaylist(playlistID: playlist.id, contentID: "c-003"))
        #expect(try await youll.fetch(.playlists()).first?.items.map(\.id) == ["c-003"])
        try await youll.perform(.deletePlaylist(id: playlist.id))
        #expect(try await youll.fetch(.playlists()).isEmpty)

        #expect(try await youll.fetch(.meals()).map(\.isChecked) == [false, false, false, false])
        try await youll.perform(.markMeal(id: "m-2", checked: true))
        #expect(try await youll.fetch(.meals()).filter(\.isChecked).map(\.id) == ["m-2"])
        #expect(try await youll.fetch(.mealDetailCards(mealID: "m-2")).map(\.kind) == ["ingredients", "steps", "nutrition"])

        let answers = [YoullQuizAnswer(questionID: "q-sleep-1", optionID: "6to8")]
        try await youll.perform(.saveQuizAnswers(id: "q-sleep", answers: answers))
        #expect(try await youll.fetch(.quiz(id: "q-sleep"))?.questions.first?.savedOptionID == "6to8")
        let result = try await youll.perform(
            .submitQuiz(id: "q-sleep", answers: answers + [YoullQuizAnswer(questionID: "q-sleep-2", optionID: "yes")]))
        #expect(result.answered == 2 && result.score == 20)
        #expect(try await youll.fetch(.quiz(id: "q-sleep"))?.isCompleted == true)

        let transaction = try await youll.perform(
            .registerTransaction(productID: "yearly", transactionID: "1000", receipt: "base64receipt"))
        #expect(transaction.status == "verified" && transaction.productID == "yearly")
        #expect(harness.emulator.eventResponses(of: "u-1") == ["e-yoga": "going"])
    }

    @Test func configurationQueriesAndFacilitators() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        #expect(try await youll.fetch(.playerConfig()) == ["autoplay": "true", "skip_seconds": "15"])
        #expect(try await youll.fetch(.onboardingConfig())["skippable"] == "true")
        #expect(try await youll.fetch(.quizConfig()) == ["quiz_id": "q-sleep"])
        #expect(try await youll.fetch(.appConfig())["paywall"] == "soft")
        #expect(try await youll.fetch(.widgetConfig(widget: "daily"))["widget"] == "daily")
        #expect(try await youll.fetch(.socialProof()).rating == 4.8)
        #expect(try await youll.fetch(.facilitator(id: "f-anna"))?.name == "Anna Papadopoulou")
        #expect(try await youll.fetch(.facilitators(ids: ["f-jonas", "nobody", "f-anna"])).map(\.id) == ["f-jonas", "f-anna"])
    }

    @Test func theAccountOverREST() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession("u-7"))
        let registered = try await youll.perform(.registerUser(name: "Eleni", email: "eleni@example.com", language: "el"))
        #expect(registered.id == "u-7" && registered.name == "Eleni")
        try await youll.perform(.timerSession(contentID: "c-002", duration: .seconds(120), completed: false))
        let profile = try await youll.fetch(.profile(stats: ["minutes", "sessions"]))
        #expect(profile.stats == ["minutes": 2, "sessions": 1] && profile.email == "eleni@example.com")
        #expect(try await youll.fetch(.earnedBadges()).map(\.id) == ["b-week", "b-first"])
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 2000))
        let updated = try await youll.perform(.uploadProfilePicture(png, mimeType: "image/png"))
        #expect(updated.pictureURL?.lastPathComponent == "u-7.jpg" && harness.emulator.picture(of: "u-7") == png)
        let settings = YoullNotificationSettings(push: false, email: true, reminders: true, reminderHour: 21)
        #expect(try await youll.perform(.updateNotificationSettings(settings)) == settings)
        #expect(try await youll.fetch(.notificationSettings()) == settings)
        let offers = try await youll.fetch(.promoOffers())
        #expect(offers.map(\.id) == ["p-winter", "p-friend"] && offers[0].discountPercent == 40)
        try await youll.perform(.deleteAccount())
        #expect(harness.emulator.isDeleted("u-7"))
        // The deleted user's token is refused from then on: one refresh is asked, then the call fails.
        await #expect(throws: EngageError.self) { try await youll.fetch(.profile()) }
    }

    @Test func capabilitiesThroughTheFacadeContract() async throws {
        let harness = try await YoullHarness.make(extraLang: "de")
        defer { Task { await harness.stop() } }
        let items = try await harness.youll.content(ContentQuery(page: PageRequest(limit: 500)))
        // The home feed's content once each (hero, continue, popular, new: 1 + 4 + 24 + 12), then 4 categories.
        #expect(items.count == 41 + 4 && items[0].title.value() == "Morgenatmung" && items.last?.type == "category")
        #expect(
            try await harness.youll.content(ContentQuery(category: "cat-food", page: PageRequest(limit: 2))).map(\.id) == [
                "c-009", "c-010",
            ])
        #expect(try await harness.youll.content(ContentQuery(text: "yoga")).isEmpty == false)
        let offers = try await harness.youll.offers(OfferQuery())
        #expect(offers.map(\.kind) == [.promotion, .promotion] && offers[0].attributes["discount_percent"] == "40")
        let login = await #expect(throws: EngageError.self) { try await harness.youll.logIn(UserIdentity(userID: "x")) }
        #expect(login?.code == .notApplicable)  // engage.logIn reports it in notApplicable, not as a failure
    }

    @Test func inputIsRefusedBeforeAnythingIsSent() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession())
        let refused: [() async throws -> Void] = [
            { try await youll.perform(.activityFeedback(workoutID: "w-1", rating: 6)) },
            { try await youll.perform(.activityFeedback(workoutID: "w-1", rating: 3, comment: String(repeating: "x", count: 2001))) },
            { try await youll.perform(.createPlaylist(name: "   ")) },
            { try await youll.perform(.timerSession(contentID: "c-001", duration: .seconds(-5), completed: false)) },
            { try await youll.perform(.timerSession(contentID: "c-001", duration: .milliseconds(-500), completed: false)) },
            { try await youll.perform(.timerSession(contentID: "c-001", duration: .seconds(86_401), completed: false)) },
            { try await youll.perform(.submitQuiz(id: "q-sleep", answers: [])) },
            { try await youll.perform(.uploadProfilePicture(Data("GIF89a".utf8), mimeType: "image/gif")) },
            { try await youll.perform(.uploadProfilePicture(Data(), mimeType: "image/png")) },
            {
                try await youll.perform(
                    .updateNotificationSettings(YoullNotificationSettings(push: true, email: true, reminders: true, reminderHour: 24)))
            },
            { try await youll.perform(.registerUser(name: "")) },
        ]
        for operation in refused {
            do {
                try await operation()
                Issue.record("an invalid operation was accepted")
            } catch let error as EngageError {
                #expect(error.code == .invalidInput)
            }
        }
        #expect(harness.host.journal.entries(for: "youll").isEmpty)
    }

    @Test func hostileIDsStayOneSegmentAndUnknownIDsAreClearErrors() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession())
        await #expect(throws: EngageError.self) { try await youll.perform(.like(contentID: "../users/me")) }
        let error = await #expect(throws: EngageError.self) { try await youll.perform(.like(contentID: "a/b?c#d")) }
        #expect(error?.httpStatus == 404)
        #expect(harness.host.journal.entries(for: "youll").last?.path == "/api/rest/content/a%2Fb%3Fc%23d/like")
        // A GraphQL mutation on an unknown id is an error with Hasura's code and the field's path.
        let mutation = await #expect(throws: EngageError.self) { try await youll.perform(.dismissHomeSlice(id: "</script>\u{2028}")) }
        #expect(mutation?.code == .graphQL && mutation?.message.contains("[not-found] at dismiss_home_slice") == true)
    }
}
