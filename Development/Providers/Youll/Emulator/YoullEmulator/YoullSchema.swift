@_spi(EngageProvider) import EngageCore
import Foundation
import Graphiti
import GraphQL

/// Who is asking, as the GraphQL handler verified it.
struct YoullGraphQLContext: Sendable {
    var userID: String?
    var emulator: YoullEmulator
}

/// An error a resolver throws; its code becomes `extensions.code`.
struct YoullGraphQLFailure: Error, CustomStringConvertible {
    var code: String
    var description: String

    /// Hasura's answer for a field the role cannot see.
    static func notVisible(_ field: String) -> Self {
        Self(code: "validation-failed", description: "field '\(field)' not found in type: 'query_root'")
    }

    static func notFound(_ what: String) -> Self {
        Self(code: "not-found", description: "\(what) does not exist")
    }

    static func invalid(_ message: String) -> Self {
        Self(code: "validation-failed", description: message)
    }
}

// Arguments (read with a snake_case key decoder: `extra_lang` fills `extraLang`).
struct LangArgs: Codable, Sendable { var extraLang: String? }
struct IDArgs: Codable, Sendable { var id: String }
struct IDLangArgs: Codable, Sendable { var id: String; var extraLang: String? }
struct CategoryArgs: Codable, Sendable { var categoryId: String; var extraLang: String? }
struct CategoryPageArgs: Codable, Sendable { var categoryId: String; var limit: Int?; var offset: Int?; var extraLang: String? }
struct TagPageArgs: Codable, Sendable { var tagId: String; var limit: Int?; var offset: Int?; var extraLang: String? }
struct SearchArgs: Codable, Sendable {
    var text: String; var filterIds: [String]; var limit: Int?; var offset: Int?; var extraLang: String?
}
struct MealArgs: Codable, Sendable { var mealId: String }
struct WidgetArgs: Codable, Sendable { var widget: String }
struct PlacementArgs: Codable, Sendable { var placement: String }
struct ContentIDArgs: Codable, Sendable { var contentId: String }
struct IDsArgs: Codable, Sendable { var ids: [String] }
struct SliceArgs: Codable, Sendable { var sliceId: String }
struct JourneyArgs: Codable, Sendable { var journeyId: String }
struct WorkoutArgs: Codable, Sendable { var workoutId: String }
struct FeedbackArgs: Codable, Sendable { var workoutId: String; var rating: Int; var comment: String? }
struct EventResponseArgs: Codable, Sendable { var eventId: String; var response: String }
struct CreatePlaylistArgs: Codable, Sendable { var name: String; var extraLang: String? }
struct PlaylistContentArgs: Codable, Sendable { var playlistId: String; var contentId: String }
struct PlaylistArgs: Codable, Sendable { var playlistId: String }
struct MarkMealArgs: Codable, Sendable { var mealId: String; var checked: Bool }
struct QuizAnswerInput: Codable, Sendable { var questionId: String; var optionId: String }
struct QuizAnswersArgs: Codable, Sendable { var quizId: String; var answers: [QuizAnswerInput] }
struct TransactionArgs: Codable, Sendable { var productId: String; var transactionId: String; var receipt: String }

/// The root resolvers: each reads or changes the emulator's state for the context's user.
struct YoullResolver: Sendable {
    func categories(context: YoullGraphQLContext, arguments: LangArgs) -> [ServedCategory] {
        context.emulator.categories(lang: arguments.extraLang)
    }

    func subcategories(context: YoullGraphQLContext, arguments: CategoryArgs) -> [ServedSubcategory] {
        context.emulator.categories(lang: arguments.extraLang).first { $0.id == arguments.categoryId }?.subcategories ?? []
    }

    func contentByPK(context: YoullGraphQLContext, arguments: IDLangArgs) -> ServedContent? {
        context.emulator.content(id: arguments.id, lang: arguments.extraLang, userID: context.userID)
    }

    func content(context: YoullGraphQLContext, arguments: CategoryPageArgs) throws -> [ServedContent] {
        let all = context.emulator.catalogue.contents.filter { $0.categoryID == arguments.categoryId }.map(\.id)
        return try context.emulator.page(all, limit: arguments.limit, offset: arguments.offset)
            .compactMap { context.emulator.content(id: $0, lang: arguments.extraLang, userID: context.userID) }
    }

    func favourites(context: YoullGraphQLContext, arguments: LangArgs) throws -> [ServedContent] {
        let userID = try context.requireUser("favourite_content")
        let liked = context.emulator.state.withLock { $0.likes[userID] ?? [] }
        return liked.reversed().compactMap { context.emulator.content(id: $0, lang: arguments.extraLang, userID: userID) }
    }

    func homeSections(context: YoullGraphQLContext, arguments: LangArgs) -> [ServedFeedSection] {
        context.emulator.sections(feed: "home", lang: arguments.extraLang, userID: context.userID)
    }

    func exploreSections(context: YoullGraphQLContext, arguments: LangArgs) -> [ServedFeedSection] {
        context.emulator.sections(feed: "explore", lang: arguments.extraLang, userID: context.userID)
    }

    func searchSections(context: YoullGraphQLContext, arguments: LangArgs) -> [ServedFeedSection] {
        context.emulator.sections(feed: "search", lang: arguments.extraLang, userID: context.userID)
    }

    func journey(context: YoullGraphQLContext, arguments: IDLangArgs) throws -> ServedJourney? {
        let userID = try context.requireUser("journey")
        return context.emulator.journey(id: arguments.id, lang: arguments.extraLang, userID: userID)
    }

    func linearJourney(context: YoullGraphQLContext, arguments: LangArgs) throws -> ServedJourney? {
        let userID = try context.requireUser("linear_journey")
        guard let active = context.emulator.state.withLock({ $0.activeJourney[userID] }) else { return nil }
        return context.emulator.journey(id: active, lang: arguments.extraLang, userID: userID)
    }

    func activitySlices(context: YoullGraphQLContext, arguments: NoArguments) throws -> [ServedActivitySlice] {
        let userID = try context.requireUser("activity_slices")
        return context.emulator.activitySlices(userID: userID)
    }

    func nextWorkout(context: YoullGraphQLContext, arguments: NoArguments) throws -> ServedWorkout? {
        let userID = try context.requireUser("next_workout")
        return context.emulator.activitySlices(userID: userID).flatMap(\.workouts).first { !$0.completed }
    }

    func exploreTags(context: YoullGraphQLContext, arguments: NoArguments) -> [ServedExploreTag] {
        context.emulator.catalogue.tags
    }

    func exploreTag(context: YoullGraphQLContext, arguments: IDArgs) -> ServedExploreTag? {
        context.emulator.catalogue.tags.first { $0.id == arguments.id }
    }

    func exploreTaggedItems(context: YoullGraphQLContext, arguments: TagPageArgs) throws -> [ServedContent] {
        guard let tag = context.emulator.catalogue.tags.first(where: { $0.id == arguments.tagId }) else { return [] }
        let ids = context.emulator.catalogue.contents.filter { $0.tags.contains(tag.name) }.map(\.id)
        return try context.emulator.page(ids, limit: arguments.limit, offset: arguments.offset)
            .compactMap { context.emulator.content(id: $0, lang: arguments.extraLang, userID: context.userID) }
    }

    func events(context: YoullGraphQLContext, arguments: LangArgs) -> [ServedEvent] {
        context.emulator.catalogue.events.map { context.emulator.event($0, lang: arguments.extraLang, userID: context.userID) }
    }

    func eventByPK(context: YoullGraphQLContext, arguments: IDLangArgs) -> ServedEvent? {
        context.emulator.catalogue.events.first { $0.id == arguments.id }
            .map { context.emulator.event($0, lang: arguments.extraLang, userID: context.userID) }
    }

    func userEvents(context: YoullGraphQLContext, arguments: LangArgs) throws -> [ServedEvent] {
        let userID = try context.requireUser("user_events")
        let answered = context.emulator.state.withLock { $0.eventResponses[userID] ?? [:] }
        return context.emulator.catalogue.events.filter { answered[$0.id] != nil }
            .map { context.emulator.event($0, lang: arguments.extraLang, userID: userID) }
    }

    func playlists(context: YoullGraphQLContext, arguments: LangArgs) throws -> [ServedPlaylist] {
        let userID = try context.requireUser("playlists")
        return context.emulator.state.withLock { $0.playlists[userID] ?? [] }
            .map { context.emulator.playlist($0, lang: arguments.extraLang, userID: userID) }
    }

    func meals(context: YoullGraphQLContext, arguments: LangArgs) throws -> [ServedMeal] {
        let userID = try context.requireUser("meals")
        let checked = context.emulator.state.withLock { $0.checkedMeals[userID] ?? [] }
        return context.emulator.catalogue.meals.map { meal in
            ServedMeal(
                id: meal.id, title: meal.title.en, day: meal.day, kind: meal.kind, calories: meal.calories,
                checked: checked.contains(meal.id),
                imageUrl: "https://cdn.youll.test/meals/\(meal.id).jpg", translations: meal.title.translations(arguments.extraLang)
            )
        }
    }

    func mealDetailCards(context: YoullGraphQLContext, arguments: MealArgs) throws -> [ServedMealDetailCard] {
        _ = try context.requireUser("meal_detail_cards")
        guard let meal = context.emulator.catalogue.meals.first(where: { $0.id == arguments.mealId }) else { return [] }
        return [
            ServedMealDetailCard(
                id: "\(meal.id)-ingredients", mealId: meal.id, kind: "ingredients", title: "Ingredients",
                body: "Everything for \(meal.title.en.lowercased())."),
            ServedMealDetailCard(id: "\(meal.id)-steps", mealId: meal.id, kind: "steps", title: "Steps", body: "Prepare, cook, enjoy."),
            ServedMealDetailCard(
                id: "\(meal.id)-nutrition", mealId: meal.id, kind: "nutrition", title: "Nutrition", body: "\(meal.calories) kcal."),
        ]
    }

    func searchFilters(context: YoullGraphQLContext, arguments: NoArguments) -> [ServedSearchFilter] {
        context.emulator.catalogue.searchFilters
    }

    func applySearch(context: YoullGraphQLContext, arguments: SearchArgs) throws -> [ServedContent] {
        let text = arguments.text.lowercased()
        let kinds = Set(arguments.filterIds).intersection(["audio", "video", "workout", "recipe", "article"])
        let ids = context.emulator.catalogue.contents.filter { content in
            (text.isEmpty || [content.title.en, content.title.el, content.title.de].contains { $0.lowercased().contains(text) }
                || content.tags.contains(text))
                && (kinds.isEmpty || kinds.contains(content.kind))
                && (!arguments.filterIds.contains("short") || (content.durationSeconds ?? 0) < 600)
                && (!arguments.filterIds.contains("long") || (content.durationSeconds ?? 0) >= 600)
        }.map(\.id)
        return try context.emulator.page(ids, limit: arguments.limit, offset: arguments.offset)
            .compactMap { context.emulator.content(id: $0, lang: arguments.extraLang, userID: context.userID) }
    }

    func quiz(context: YoullGraphQLContext, arguments: IDArgs) throws -> ServedQuiz? {
        let userID = try context.requireUser("quiz")
        return context.emulator.quiz(id: arguments.id, userID: userID)
    }

    func playerConfig(context: YoullGraphQLContext, arguments: NoArguments) -> [ServedSetting] {
        context.emulator.catalogue.settings["player_config"] ?? []
    }
    func onboardingConfig(context: YoullGraphQLContext, arguments: NoArguments) -> [ServedSetting] {
        context.emulator.catalogue.settings["onboarding_config"] ?? []
    }
    func quizConfig(context: YoullGraphQLContext, arguments: NoArguments) -> [ServedSetting] {
        context.emulator.catalogue.settings["quiz_config"] ?? []
    }
    func appConfig(context: YoullGraphQLContext, arguments: NoArguments) -> [ServedSetting] {
        context.emulator.catalogue.settings["app_config"] ?? []
    }

    func widgetConfig(context: YoullGraphQLContext, arguments: WidgetArgs) -> [ServedSetting] {
        [
            ServedSetting(key: "widget", value: arguments.widget), ServedSetting(key: "refresh_minutes", value: "60"),
            ServedSetting(key: "content_id", value: "c-001"),
        ]
    }

    func socialProof(context: YoullGraphQLContext, arguments: NoArguments) -> ServedSocialProof { context.emulator.catalogue.socialProof }

    func paywallConfig(context: YoullGraphQLContext, arguments: PlacementArgs) -> ServedPaywallConfig? {
        context.emulator.catalogue.paywalls[arguments.placement]
    }

    func shareLink(context: YoullGraphQLContext, arguments: ContentIDArgs) -> ServedShareLink? {
        guard context.emulator.catalogue.content(id: arguments.contentId) != nil else { return nil }
        let token = YoullShareLinks.token(contentID: arguments.contentId)
        let expires = context.emulator.date().addingTimeInterval(30 * 86_400)
        return ServedShareLink(url: "https://envoy.youll.test/s/\(token)", expiresAt: expires.formatted(.iso8601))
    }

    func superPaywallConfig(context: YoullGraphQLContext, arguments: NoArguments) -> ServedPaywallConfig {
        context.emulator.catalogue.superPaywall
    }

    func facilitatorByPK(context: YoullGraphQLContext, arguments: IDArgs) -> ServedFacilitator? {
        context.emulator.catalogue.facilitators.first { $0.id == arguments.id }
    }

    func facilitators(context: YoullGraphQLContext, arguments: IDsArgs) -> [ServedFacilitator] {
        arguments.ids.compactMap { id in context.emulator.catalogue.facilitators.first { $0.id == id } }
    }

    // MARK: Mutations

    func dismissHomeSlice(context: YoullGraphQLContext, arguments: SliceArgs) throws -> ServedMutationResult {
        let userID = try context.requireUser("dismiss_home_slice", root: "mutation_root")
        guard context.emulator.catalogue.sections.contains(where: { $0.id == arguments.sliceId && $0.dismissible }) else {
            throw YoullGraphQLFailure.notFound("dismissible slice '\(arguments.sliceId)'")
        }
        // Idempotent: dismissing a dismissed slice again changes nothing and is not an error.
        context.emulator.state.withLock { _ = $0.dismissedSlices[userID, default: []].insert(arguments.sliceId) }
        return ServedMutationResult(affectedRows: 1)
    }

    func setActiveLinearJourney(context: YoullGraphQLContext, arguments: JourneyArgs) throws -> ServedMutationResult {
        let userID = try context.requireUser("set_active_linear_journey", root: "mutation_root")
        guard context.emulator.catalogue.journeys.contains(where: { $0.id == arguments.journeyId && $0.isLinear }) else {
            throw YoullGraphQLFailure.notFound("linear journey '\(arguments.journeyId)'")
        }
        context.emulator.state.withLock { $0.activeJourney[userID] = arguments.journeyId }
        return ServedMutationResult(affectedRows: 1)
    }

    func restartJourney(context: YoullGraphQLContext, arguments: JourneyArgs) throws -> ServedMutationResult {
        let userID = try context.requireUser("restart_journey", root: "mutation_root")
        guard context.emulator.catalogue.journeys.contains(where: { $0.id == arguments.journeyId }) else {
            throw YoullGraphQLFailure.notFound("journey '\(arguments.journeyId)'")
        }
        context.emulator.state.withLock { state in
            state.completedSteps[userID] = state.completedSteps[userID]?.filter { !$0.hasPrefix(arguments.journeyId + "/") }
        }
        return ServedMutationResult(affectedRows: 1)
    }

    func setWorkoutCompleted(context: YoullGraphQLContext, arguments: WorkoutArgs) throws -> ServedMutationResult {
        let userID = try context.requireUser("set_workout_completed", root: "mutation_root")
        guard context.emulator.catalogue.workouts.contains(where: { $0.workout.id == arguments.workoutId }) else {
            throw YoullGraphQLFailure.notFound("workout '\(arguments.workoutId)'")
        }
        context.emulator.state.withLock { _ = $0.completedWorkouts[userID, default: []].insert(arguments.workoutId) }
        return ServedMutationResult(affectedRows: 1)
    }

    func updateActivityFeedback(context: YoullGraphQLContext, arguments: FeedbackArgs) throws -> ServedMutationResult {
        let userID = try context.requireUser("update_activity_feedback", root: "mutation_root")
        guard (1...5).contains(arguments.rating) else { throw YoullGraphQLFailure.invalid("rating must be 1 to 5") }
        guard context.emulator.catalogue.workouts.contains(where: { $0.workout.id == arguments.workoutId }) else {
            throw YoullGraphQLFailure.notFound("workout '\(arguments.workoutId)'")
        }
        context.emulator.state.withLock { $0.feedback[userID, default: [:]][arguments.workoutId] = arguments.rating }
        return ServedMutationResult(affectedRows: 1)
    }

    func setEventResponse(context: YoullGraphQLContext, arguments: EventResponseArgs) throws -> ServedMutationResult {
        let userID = try context.requireUser("set_event_response", root: "mutation_root")
        guard ["going", "interested", "not_going"].contains(arguments.response) else {
            throw YoullGraphQLFailure(code: "constraint-violation", description: "response must be going, interested or not_going")
        }
        guard context.emulator.catalogue.events.contains(where: { $0.id == arguments.eventId }) else {
            throw YoullGraphQLFailure.notFound("event '\(arguments.eventId)'")
        }
        context.emulator.state.withLock { $0.eventResponses[userID, default: [:]][arguments.eventId] = arguments.response }
        return ServedMutationResult(affectedRows: 1)
    }

    func setViewedContent(context: YoullGraphQLContext, arguments: ContentIDArgs) throws -> ServedViewedContent {
        let userID = try context.requireUser("set_viewed_content", root: "mutation_root")
        guard context.emulator.catalogue.contents.contains(where: { $0.id == arguments.contentId }) else {
            throw YoullGraphQLFailure.notFound("content '\(arguments.contentId.prefix(64))'")
        }
        let now = context.emulator.timestamp()
        context.emulator.state.withLock { $0.viewedContent[userID, default: [:]][arguments.contentId] = now }
        return ServedViewedContent(contentId: arguments.contentId, viewedAt: now)
    }

    func createPlaylist(context: YoullGraphQLContext, arguments: CreatePlaylistArgs) throws -> ServedPlaylist {
        let userID = try context.requireUser("create_playlist", root: "mutation_root")
        guard !arguments.name.isEmpty, arguments.name.count <= 100 else {
            throw YoullGraphQLFailure.invalid("name must have 1 to 100 characters")
        }
        let now = context.emulator.timestamp()
        let playlist = context.emulator.state.withLock { state in
            let playlist = YoullEmulatorState.Playlist(id: state.makeID("pl"), name: arguments.name, createdAt: now, contentIDs: [])
            state.playlists[userID, default: []].append(playlist)
            return playlist
        }
        return context.emulator.playlist(playlist, lang: arguments.extraLang, userID: userID)
    }

    func addContentToPlaylist(context: YoullGraphQLContext, arguments: PlaylistContentArgs) throws -> ServedMutationResult {
        let userID = try context.requireUser("add_content_to_playlist", root: "mutation_root")
        guard context.emulator.catalogue.content(id: arguments.contentId) != nil else {
            throw YoullGraphQLFailure(code: "constraint-violation", description: "content '\(arguments.contentId)' does not exist")
        }
        let changed = context.emulator.state.withLock { state -> Bool in
            guard let index = state.playlists[userID]?.firstIndex(where: { $0.id == arguments.playlistId }) else { return false }
            if state.playlists[userID]?[index].contentIDs.contains(arguments.contentId) == false {
                state.playlists[userID]?[index].contentIDs.append(arguments.contentId)
            }
            return true
        }
        guard changed else { throw YoullGraphQLFailure.notFound("playlist '\(arguments.playlistId)'") }
        return ServedMutationResult(affectedRows: 1)
    }

    func deletePlaylist(context: YoullGraphQLContext, arguments: PlaylistArgs) throws -> ServedMutationResult {
        let userID = try context.requireUser("delete_playlist", root: "mutation_root")
        let removed = context.emulator.state.withLock { state -> Int in
            let before = state.playlists[userID]?.count ?? 0
            state.playlists[userID]?.removeAll { $0.id == arguments.playlistId }
            return before - (state.playlists[userID]?.count ?? 0)
        }
        return ServedMutationResult(affectedRows: removed)
    }

    func markMealChecked(context: YoullGraphQLContext, arguments: MarkMealArgs) throws -> ServedMutationResult {
        let userID = try context.requireUser("mark_meal_checked", root: "mutation_root")
        guard context.emulator.catalogue.meals.contains(where: { $0.id == arguments.mealId }) else {
            throw YoullGraphQLFailure.notFound("meal '\(arguments.mealId)'")
        }
        context.emulator.state.withLock { state in
            if arguments.checked {
                state.checkedMeals[userID, default: []].insert(arguments.mealId)
            } else {
                state.checkedMeals[userID]?.remove(arguments.mealId)
            }
        }
        return ServedMutationResult(affectedRows: 1)
    }

    func insertQuizAnswers(context: YoullGraphQLContext, arguments: QuizAnswersArgs) throws -> ServedQuizResult {
        let userID = try context.requireUser("insert_quiz_answers", root: "mutation_root")
        try context.emulator.saveAnswers(arguments, userID: userID)
        context.emulator.state.withLock { _ = $0.submittedQuizzes[userID, default: []].insert(arguments.quizId) }
        let score = arguments.answers.reduce(0) { $0 + (["6to8", "yes"].contains($1.optionId) ? 10 : 5) }
        return ServedQuizResult(quizId: arguments.quizId, answered: arguments.answers.count, score: score)
    }

    func saveQuizAnswers(context: YoullGraphQLContext, arguments: QuizAnswersArgs) throws -> ServedMutationResult {
        let userID = try context.requireUser("save_quiz_answers", root: "mutation_root")
        try context.emulator.saveAnswers(arguments, userID: userID)
        return ServedMutationResult(affectedRows: arguments.answers.count)
    }

    func registerTransaction(context: YoullGraphQLContext, arguments: TransactionArgs) throws -> ServedTransaction {
        _ = try context.requireUser("register_transaction", root: "mutation_root")
        guard !arguments.receipt.isEmpty else { throw YoullGraphQLFailure.invalid("receipt must not be empty") }
        return context.emulator.state.withLock { state in
            if let existing = state.transactions.first(where: { $0.id == "tx-" + arguments.transactionId }) { return existing }
            let transaction = ServedTransaction(id: "tx-" + arguments.transactionId, status: "verified", productId: arguments.productId)
            state.transactions.append(transaction)
            return transaction
        }
    }
}

extension YoullGraphQLContext {
    /// The user id, or Hasura's "field not found" for a guest.
    func requireUser(_ field: String, root: String = "query_root") throws -> String {
        guard let userID else {
            throw YoullGraphQLFailure(code: "validation-failed", description: "field '\(field)' not found in type: '\(root)'")
        }
        return userID
    }
}

enum YoullSchema {
    /// The GraphQL schema of the emulated backend.
    static func make() throws -> Schema<YoullResolver, YoullGraphQLContext> {
        let coders = Coders()
        coders.decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try Schema<YoullResolver, YoullGraphQLContext>(coders: coders) {
            Type(ServedTranslation.self, as: "Translation") {
                Field("lang", at: \.lang)
                Field("title", at: \.title)
                Field("body", at: \.body)
            }
            Type(ServedContent.self, as: "Content") {
                Field("id", at: \.id)
                Field("title", at: \.title)
                Field("body", at: \.body)
                Field("kind", at: \.kind)
                Field("category_id", at: \.categoryId)
                Field("duration_seconds", at: \.durationSeconds)
                Field("image_url", at: \.imageUrl)
                Field("media_url", at: \.mediaUrl)
                Field("is_locked", at: \.isLocked)
                Field("is_liked", at: \.isLiked)
                Field("like_count", at: \.likeCount)
                Field("tags", at: \.tags)
                Field("published_at", at: \.publishedAt)
                Field("translations", at: \.translations)
            }
            Type(ServedSubcategory.self, as: "Subcategory") {
                Field("id", at: \.id)
                Field("category_id", at: \.categoryId)
                Field("title", at: \.title)
                Field("translations", at: \.translations)
            }
            Type(ServedCategory.self, as: "Category") {
                Field("id", at: \.id)
                Field("title", at: \.title)
                Field("image_url", at: \.imageUrl)
                Field("translations", at: \.translations)
                Field("subcategories", at: \.subcategories)
            }
            Type(ServedFeedSection.self, as: "FeedSection") {
                Field("id", at: \.id)
                Field("kind", at: \.kind)
                Field("title", at: \.title)
                Field("translations", at: \.translations)
                Field("dismissible", at: \.dismissible)
                Field("items", at: \.items)
                Field("categories", at: \.categories)
            }
            Type(ServedJourneyStep.self, as: "JourneyStep") {
                Field("id", at: \.id)
                Field("position", at: \.position)
                Field("completed", at: \.completed)
                Field("content", at: \.content)
            }
            Type(ServedJourney.self, as: "Journey") {
                Field("id", at: \.id)
                Field("title", at: \.title)
                Field("description", at: \.description)
                Field("is_linear", at: \.isLinear)
                Field("is_active", at: \.isActive)
                Field("translations", at: \.translations)
                Field("steps", at: \.steps)
            }
            Type(ServedWorkout.self, as: "Workout") {
                Field("id", at: \.id)
                Field("title", at: \.title)
                Field("day", at: \.day)
                Field("completed", at: \.completed)
                Field("content_id", at: \.contentId)
                Field("feedback_rating", at: \.feedbackRating)
            }
            Type(ServedActivitySlice.self, as: "ActivitySlice") {
                Field("id", at: \.id)
                Field("title", at: \.title)
                Field("kind", at: \.kind)
                Field("workouts", at: \.workouts)
            }
            Type(ServedExploreTag.self, as: "ExploreTag") {
                Field("id", at: \.id)
                Field("name", at: \.name)
                Field("item_count", at: \.itemCount)
            }
            Type(ServedEvent.self, as: "Event") {
                Field("id", at: \.id)
                Field("title", at: \.title)
                Field("description", at: \.description)
                Field("starts_at", at: \.startsAt)
                Field("ends_at", at: \.endsAt)
                Field("location", at: \.location)
                Field("capacity", at: \.capacity)
                Field("attendee_count", at: \.attendeeCount)
                Field("my_response", at: \.myResponse)
                Field("translations", at: \.translations)
            }
            Type(ServedPlaylist.self, as: "Playlist") {
                Field("id", at: \.id)
                Field("name", at: \.name)
                Field("created_at", at: \.createdAt)
                Field("items", at: \.items)
            }
            Type(ServedMeal.self, as: "Meal") {
                Field("id", at: \.id)
                Field("title", at: \.title)
                Field("day", at: \.day)
                Field("kind", at: \.kind)
                Field("calories", at: \.calories)
                Field("checked", at: \.checked)
                Field("image_url", at: \.imageUrl)
                Field("translations", at: \.translations)
            }
            Type(ServedMealDetailCard.self, as: "MealDetailCard") {
                Field("id", at: \.id)
                Field("meal_id", at: \.mealId)
                Field("kind", at: \.kind)
                Field("title", at: \.title)
                Field("body", at: \.body)
            }
            Type(ServedSearchOption.self, as: "SearchOption") {
                Field("id", at: \.id)
                Field("title", at: \.title)
            }
            Type(ServedSearchFilter.self, as: "SearchFilter") {
                Field("id", at: \.id)
                Field("title", at: \.title)
                Field("options", at: \.options)
            }
            Type(ServedQuizOption.self, as: "QuizOption") {
                Field("id", at: \.id)
                Field("text", at: \.text)
            }
            Type(ServedQuizQuestion.self, as: "QuizQuestion") {
                Field("id", at: \.id)
                Field("text", at: \.text)
                Field("options", at: \.options)
                Field("saved_option_id", at: \.savedOptionId)
            }
            Type(ServedQuiz.self, as: "Quiz") {
                Field("id", at: \.id)
                Field("title", at: \.title)
                Field("questions", at: \.questions)
                Field("completed", at: \.completed)
            }
            Type(ServedQuizResult.self, as: "QuizResult") {
                Field("quiz_id", at: \.quizId)
                Field("answered", at: \.answered)
                Field("score", at: \.score)
            }
            Type(ServedTransaction.self, as: "Transaction") {
                Field("id", at: \.id)
                Field("status", at: \.status)
                Field("product_id", at: \.productId)
            }
            Type(ServedSetting.self, as: "Setting") {
                Field("key", at: \.key)
                Field("value", at: \.value)
            }
            Type(ServedSocialProof.self, as: "SocialProof") {
                Field("headline", at: \.headline)
                Field("member_count", at: \.memberCount)
                Field("rating", at: \.rating)
            }
            Type(ServedPaywallProduct.self, as: "PaywallProduct") {
                Field("product_id", at: \.productId)
                Field("period", at: \.period)
                Field("trial_days", at: \.trialDays)
                Field("highlighted", at: \.highlighted)
                Field("badge", at: \.badge)
            }
            Type(ServedPaywallConfig.self, as: "PaywallConfig") {
                Field("id", at: \.id)
                Field("placement", at: \.placement)
                Field("title", at: \.title)
                Field("subtitle", at: \.subtitle)
                Field("features", at: \.features)
                Field("products", at: \.products)
                Field("dismissible", at: \.dismissible)
                Field("is_super", at: \.isSuper)
                Field("image_url", at: \.imageUrl)
            }
            Type(ServedShareLink.self, as: "ShareLink") {
                Field("url", at: \.url)
                Field("expires_at", at: \.expiresAt)
            }
            Type(ServedViewedContent.self, as: "ViewedContent") {
                Field("content_id", at: \.contentId)
                Field("viewed_at", at: \.viewedAt)
            }
            Type(ServedFacilitator.self, as: "Facilitator") {
                Field("id", at: \.id)
                Field("name", at: \.name)
                Field("bio", at: \.bio)
                Field("image_url", at: \.imageUrl)
            }
            Type(ServedMutationResult.self, as: "MutationResult") {
                Field("affected_rows", at: \.affectedRows)
            }
            Input(QuizAnswerInput.self) {
                InputField("question_id", at: \.questionId)
                InputField("option_id", at: \.optionId)
            }
            Query {
                Field("categories", at: YoullResolver.categories) { Argument("extra_lang", at: \.extraLang) }
                Field("subcategories", at: YoullResolver.subcategories) {
                    Argument("category_id", at: \.categoryId)
                    Argument("extra_lang", at: \.extraLang)
                }
                Field("content_by_pk", at: YoullResolver.contentByPK) {
                    Argument("id", at: \.id)
                    Argument("extra_lang", at: \.extraLang)
                }
                Field("content", at: YoullResolver.content) {
                    Argument("category_id", at: \.categoryId)
                    Argument("limit", at: \.limit)
                    Argument("offset", at: \.offset)
                    Argument("extra_lang", at: \.extraLang)
                }
                Field("favourite_content", at: YoullResolver.favourites) { Argument("extra_lang", at: \.extraLang) }
                Field("home_sections", at: YoullResolver.homeSections) { Argument("extra_lang", at: \.extraLang) }
                Field("explore_sections", at: YoullResolver.exploreSections) { Argument("extra_lang", at: \.extraLang) }
                Field("search_sections", at: YoullResolver.searchSections) { Argument("extra_lang", at: \.extraLang) }
                Field("journey", at: YoullResolver.journey) {
                    Argument("id", at: \.id)
                    Argument("extra_lang", at: \.extraLang)
                }
                Field("linear_journey", at: YoullResolver.linearJourney) { Argument("extra_lang", at: \.extraLang) }
                Field("activity_slices", at: YoullResolver.activitySlices)
                Field("next_workout", at: YoullResolver.nextWorkout)
                Field("explore_tags", at: YoullResolver.exploreTags)
                Field("explore_tag", at: YoullResolver.exploreTag) { Argument("id", at: \.id) }
                Field("explore_tagged_items", at: YoullResolver.exploreTaggedItems) {
                    Argument("tag_id", at: \.tagId)
                    Argument("limit", at: \.limit)
                    Argument("offset", at: \.offset)
                    Argument("extra_lang", at: \.extraLang)
                }
                Field("events", at: YoullResolver.events) { Argument("extra_lang", at: \.extraLang) }
                Field("event_by_pk", at: YoullResolver.eventByPK) {
                    Argument("id", at: \.id)
                    Argument("extra_lang", at: \.extraLang)
                }
                Field("user_events", at: YoullResolver.userEvents) { Argument("extra_lang", at: \.extraLang) }
                Field("playlists", at: YoullResolver.playlists) { Argument("extra_lang", at: \.extraLang) }
                Field("meals", at: YoullResolver.meals) { Argument("extra_lang", at: \.extraLang) }
                Field("meal_detail_cards", at: YoullResolver.mealDetailCards) { Argument("meal_id", at: \.mealId) }
                Field("search_filters", at: YoullResolver.searchFilters)
                Field("apply_search", at: YoullResolver.applySearch) {
                    Argument("text", at: \.text)
                    Argument("filter_ids", at: \.filterIds)
                    Argument("limit", at: \.limit)
                    Argument("offset", at: \.offset)
                    Argument("extra_lang", at: \.extraLang)
                }
                Field("quiz", at: YoullResolver.quiz) { Argument("id", at: \.id) }
                Field("player_config", at: YoullResolver.playerConfig)
                Field("onboarding_config", at: YoullResolver.onboardingConfig)
                Field("quiz_config", at: YoullResolver.quizConfig)
                Field("app_config", at: YoullResolver.appConfig)
                Field("widget_config", at: YoullResolver.widgetConfig) { Argument("widget", at: \.widget) }
                Field("social_proof", at: YoullResolver.socialProof)
                Field("paywall_config", at: YoullResolver.paywallConfig) { Argument("placement", at: \.placement) }
                Field("super_paywall_config", at: YoullResolver.superPaywallConfig)
                Field("share_link", at: YoullResolver.shareLink) { Argument("content_id", at: \.contentId) }
                Field("facilitator_by_pk", at: YoullResolver.facilitatorByPK) { Argument("id", at: \.id) }
                Field("facilitators", at: YoullResolver.facilitators) { Argument("ids", at: \.ids) }
            }
            Mutation {
                Field("dismiss_home_slice", at: YoullResolver.dismissHomeSlice) { Argument("slice_id", at: \.sliceId) }
                Field("set_active_linear_journey", at: YoullResolver.setActiveLinearJourney) { Argument("journey_id", at: \.journeyId) }
                Field("restart_journey", at: YoullResolver.restartJourney) { Argument("journey_id", at: \.journeyId) }
                Field("set_workout_completed", at: YoullResolver.setWorkoutCompleted) { Argument("workout_id", at: \.workoutId) }
                Field("update_activity_feedback", at: YoullResolver.updateActivityFeedback) {
                    Argument("workout_id", at: \.workoutId)
                    Argument("rating", at: \.rating)
                    Argument("comment", at: \.comment)
                }
                Field("set_event_response", at: YoullResolver.setEventResponse) {
                    Argument("event_id", at: \.eventId)
                    Argument("response", at: \.response)
                }
                Field("set_viewed_content", at: YoullResolver.setViewedContent) { Argument("content_id", at: \.contentId) }
                Field("create_playlist", at: YoullResolver.createPlaylist) {
                    Argument("name", at: \.name)
                    Argument("extra_lang", at: \.extraLang)
                }
                Field("add_content_to_playlist", at: YoullResolver.addContentToPlaylist) {
                    Argument("playlist_id", at: \.playlistId)
                    Argument("content_id", at: \.contentId)
                }
                Field("delete_playlist", at: YoullResolver.deletePlaylist) { Argument("playlist_id", at: \.playlistId) }
                Field("mark_meal_checked", at: YoullResolver.markMealChecked) {
                    Argument("meal_id", at: \.mealId)
                    Argument("checked", at: \.checked)
                }
                Field("insert_quiz_answers", at: YoullResolver.insertQuizAnswers) {
                    Argument("quiz_id", at: \.quizId)
                    Argument("answers", at: \.answers)
                }
                Field("save_quiz_answers", at: YoullResolver.saveQuizAnswers) {
                    Argument("quiz_id", at: \.quizId)
                    Argument("answers", at: \.answers)
                }
                Field("register_transaction", at: YoullResolver.registerTransaction) {
                    Argument("product_id", at: \.productId)
                    Argument("transaction_id", at: \.transactionId)
                    Argument("receipt", at: \.receipt)
                }
            }
        }
    }
}

/// The emulator's share links: `https://envoy.youll.test/s/<token>`, the token the content id in
/// base64url, so a link is the same every time it is asked for and names its item.
enum YoullShareLinks {
    static func token(contentID: String) -> String { Base64URL.encode(Data(contentID.utf8)) }
}
