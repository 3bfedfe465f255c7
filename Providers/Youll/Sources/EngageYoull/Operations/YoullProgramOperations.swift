@_spi(EngageProvider) import EngageCore
import Foundation

// Journeys, activities, events, playlists, meals, quizzes and payments: the user's programmes.

extension YoullQuery {
    /// A journey with its steps, `nil` when unknown (`journey`; needs a user).
    public static func journey(id: String) -> YoullQuery<YoullJourney?> {
        .graphQL(
            "journey", userScoped: true, field: "journey",
            document:
                "query Journey($id: String!, $extraLang: String!) { journey(id: $id, extra_lang: $extraLang) { \(YoullDocuments.journey) } }",
            variables: ["id": .string(id)], as: WireJourney?.self
        ) { wire, context in try wire.map { try YoullJourney(wire: $0, context: context) } }
    }

    /// The user's active linear journey, `nil` when none is active (`linear_journey`; needs a user).
    public static func linearJourney() -> YoullQuery<YoullJourney?> {
        .graphQL(
            "linear_journey", userScoped: true, field: "linear_journey",
            document: "query LinearJourney($extraLang: String!) { linear_journey(extra_lang: $extraLang) { \(YoullDocuments.journey) } }",
            as: WireJourney?.self
        ) { wire, context in try wire.map { try YoullJourney(wire: $0, context: context) } }
    }

    /// The activity page: programmes of workouts (`activity_page_slices`; needs a user).
    public static func activityPageSlices() -> YoullQuery<[YoullActivitySlice]> {
        .graphQL(
            "activity_page_slices", userScoped: true, field: "activity_slices",
            document: "query ActivityPageSlices { activity_slices { id title kind workouts { \(YoullDocuments.workout) } } }",
            as: [WireActivitySlice].self
        ) { wire, _ in wire.map(YoullActivitySlice.init(wire:)) }
    }

    /// The next workout not completed, `nil` when all are done (`next_workout`; needs a user).
    public static func nextWorkout() -> YoullQuery<YoullWorkout?> {
        .graphQL(
            "next_workout", userScoped: true, field: "next_workout",
            document: "query NextWorkout { next_workout { \(YoullDocuments.workout) } }", as: WireWorkout?.self
        ) { wire, _ in wire.map(YoullWorkout.init(wire:)) }
    }

    /// Every upcoming event (`events`).
    public static func events() -> YoullQuery<[YoullEvent]> {
        .graphQL(
            "events", field: "events",
            document: "query Events($extraLang: String!) { events(extra_lang: $extraLang) { \(YoullDocuments.event) } }",
            as: [WireEvent].self
        ) { wire, context in try wire.map { try YoullEvent(wire: $0, context: context) } }
    }

    /// One event, `nil` when unknown (`event`).
    public static func event(id: String) -> YoullQuery<YoullEvent?> {
        .graphQL(
            "event", field: "event_by_pk",
            document:
                "query Event($id: String!, $extraLang: String!) { event_by_pk(id: $id, extra_lang: $extraLang) { \(YoullDocuments.event) } }",
            variables: ["id": .string(id)], as: WireEvent?.self
        ) { wire, context in try wire.map { try YoullEvent(wire: $0, context: context) } }
    }

    /// The events the user answered (`user_events`; needs a user).
    public static func userEvents() -> YoullQuery<[YoullEvent]> {
        .graphQL(
            "user_events", userScoped: true, field: "user_events",
            document: "query UserEvents($extraLang: String!) { user_events(extra_lang: $extraLang) { \(YoullDocuments.event) } }",
            as: [WireEvent].self
        ) { wire, context in try wire.map { try YoullEvent(wire: $0, context: context) } }
    }

    /// The user's playlists (`playlists`; needs a user).
    public static func playlists() -> YoullQuery<[YoullPlaylist]> {
        .graphQL(
            "playlists", userScoped: true, field: "playlists",
            document: "query Playlists($extraLang: String!) { playlists(extra_lang: $extraLang) { \(YoullDocuments.playlist) } }",
            as: [WirePlaylist].self
        ) { wire, context in try wire.map { try YoullPlaylist(wire: $0, context: context) } }
    }

    /// The user's meal plan (`meals`; needs a user).
    public static func meals() -> YoullQuery<[YoullMeal]> {
        .graphQL(
            "meals", userScoped: true, field: "meals",
            document: "query Meals($extraLang: String!) { meals(extra_lang: $extraLang) { \(YoullDocuments.meal) } }", as: [WireMeal].self
        ) { wire, context in try wire.map { try YoullMeal(wire: $0, context: context) } }
    }

    /// A meal's detail cards (`meal_detail_cards`; needs a user).
    public static func mealDetailCards(mealID: String) -> YoullQuery<[YoullMealDetailCard]> {
        .graphQL(
            "meal_detail_cards", userScoped: true, field: "meal_detail_cards",
            document: "query MealDetailCards($mealId: String!) { meal_detail_cards(meal_id: $mealId) { id meal_id kind title body } }",
            variables: ["mealId": .string(mealID)], as: [WireMealDetailCard].self
        ) { wire, _ in wire.map(YoullMealDetailCard.init(wire:)) }
    }

    /// A quiz with the user's saved answers, `nil` when unknown (`quiz`; needs a user).
    public static func quiz(id: String) -> YoullQuery<YoullQuiz?> {
        .graphQL(
            "quiz", userScoped: true, field: "quiz",
            document: "query Quiz($id: String!) { quiz(id: $id) { \(YoullDocuments.quiz) } }", variables: ["id": .string(id)],
            as: WireQuiz?.self
        ) { wire, _ in wire.map(YoullQuiz.init(wire:)) }
    }
}

extension YoullMutation {
    /// Makes a linear journey the user's active one (`set_active_linear_journey`; needs a user).
    public static func setActiveLinearJourney(id: String) -> YoullMutation<Void> {
        .affectingRows(
            "set_active_linear_journey", field: "set_active_linear_journey",
            document:
                "mutation SetActiveLinearJourney($journeyId: String!) { set_active_linear_journey(journey_id: $journeyId) { affected_rows } }",
            variables: ["journeyId": .string(id)]
        )
    }

    /// Marks every step of a journey as not completed (`restart_journey`; needs a user).
    public static func restartJourney(id: String) -> YoullMutation<Void> {
        .affectingRows(
            "restart_journey", field: "restart_journey",
            document: "mutation RestartJourney($journeyId: String!) { restart_journey(journey_id: $journeyId) { affected_rows } }",
            variables: ["journeyId": .string(id)]
        )
    }

    /// Marks a workout as completed (`workout_completed`; needs a user).
    public static func workoutCompleted(id: String) -> YoullMutation<Void> {
        .affectingRows(
            "workout_completed", field: "set_workout_completed",
            document: "mutation WorkoutCompleted($workoutId: String!) { set_workout_completed(workout_id: $workoutId) { affected_rows } }",
            variables: ["workoutId": .string(id)]
        )
    }

    /// Rates a workout from 1 to 5, with an optional comment of at most 2000 characters
    /// (`activity_feedback`; needs a user).
    public static func activityFeedback(workoutID: String, rating: Int, comment: String? = nil) -> YoullMutation<Void> {
        guard (1...5).contains(rating) else {
            return .failing("activity_feedback", EngageError(.invalidInput, "A rating is 1 to 5 (got \(rating)).", providerID: .youll))
        }
        guard (comment?.count ?? 0) <= 2000 else {
            return .failing("activity_feedback", EngageError(.invalidInput, "A comment has at most 2000 characters.", providerID: .youll))
        }
        return .affectingRows(
            "activity_feedback", field: "update_activity_feedback",
            document: """
                mutation ActivityFeedback($workoutId: String!, $rating: Int!, $comment: String) { \
                update_activity_feedback(workout_id: $workoutId, rating: $rating, comment: $comment) { affected_rows } }
                """,
            variables: [
                "workoutId": .string(workoutID), "rating": .integer(Int64(rating)), "comment": comment.map(JSONValue.string) ?? .null,
            ]
        )
    }

    /// Answers an event invitation (`respond_to_event`; needs a user).
    public static func respond(toEvent id: String, with response: YoullEventResponse) -> YoullMutation<Void> {
        .affectingRows(
            "respond_to_event", field: "set_event_response",
            document:
                "mutation RespondToEvent($eventId: String!, $response: String!) { set_event_response(event_id: $eventId, response: $response) { affected_rows } }",
            variables: ["eventId": .string(id), "response": .string(response.rawValue)]
        )
    }

    /// Creates a playlist named `name` (1 to 100 characters) and returns it (`create_playlist`; needs a user).
    public static func createPlaylist(name: String) -> YoullMutation<YoullPlaylist> {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(trimmed.count) else {
            return .failing("create_playlist", EngageError(.invalidInput, "A playlist name has 1 to 100 characters.", providerID: .youll))
        }
        return .graphQL(
            "create_playlist", field: "create_playlist",
            document:
                "mutation CreatePlaylist($name: String!, $extraLang: String!) { create_playlist(name: $name, extra_lang: $extraLang) { \(YoullDocuments.playlist) } }",
            variables: ["name": .string(trimmed)], as: WirePlaylist.self
        ) { wire, context in try YoullPlaylist(wire: wire, context: context) }
    }

    /// Adds content to a playlist (`add_to_playlist`; needs a user).
    public static func addToPlaylist(playlistID: String, contentID: String) -> YoullMutation<Void> {
        .affectingRows(
            "add_to_playlist", field: "add_content_to_playlist",
            document:
                "mutation AddToPlaylist($playlistId: String!, $contentId: String!) { add_content_to_playlist(playlist_id: $playlistId, content_id: $contentId) { affected_rows } }",
            variables: ["playlistId": .string(playlistID), "contentId": .string(contentID)]
        )
    }

    /// Deletes a playlist (`delete_playlist`; needs a user).
    public static func deletePlaylist(id: String) -> YoullMutation<Void> {
        .affectingRows(
            "delete_playlist", field: "delete_playlist",
            document: "mutation DeletePlaylist($playlistId: String!) { delete_playlist(playlist_id: $playlistId) { affected_rows } }",
            variables: ["playlistId": .string(id)]
        )
    }

    /// Marks a meal as eaten or not (`mark_meal_checked`; needs a user).
    public static func markMeal(id: String, checked: Bool) -> YoullMutation<Void> {
        .affectingRows(
            "mark_meal_checked", field: "mark_meal_checked",
            document:
                "mutation MarkMealChecked($mealId: String!, $checked: Boolean!) { mark_meal_checked(meal_id: $mealId, checked: $checked) { affected_rows } }",
            variables: ["mealId": .string(id), "checked": .bool(checked)]
        )
    }

    /// Submits a quiz's answers and returns the score (`insert_quiz_answers`; needs a user).
    public static func submitQuiz(id: String, answers: [YoullQuizAnswer]) -> YoullMutation<YoullQuizResult> {
        guard !answers.isEmpty, answers.count <= 200 else {
            return .failing("insert_quiz_answers", EngageError(.invalidInput, "A quiz takes 1 to 200 answers.", providerID: .youll))
        }
        return .graphQL(
            "insert_quiz_answers", field: "insert_quiz_answers",
            document:
                "mutation InsertQuizAnswers($quizId: String!, $answers: [QuizAnswerInput!]!) { insert_quiz_answers(quiz_id: $quizId, answers: $answers) { quiz_id answered score } }",
            variables: ["quizId": .string(id), "answers": answerList(answers)], as: WireQuizResult.self
        ) { wire, _ in YoullQuizResult(wire: wire) }
    }

    /// Saves a quiz's answers so far, without submitting it (`save_quiz_answers`; needs a user).
    public static func saveQuizAnswers(id: String, answers: [YoullQuizAnswer]) -> YoullMutation<Void> {
        guard answers.count <= 200 else {
            return .failing("save_quiz_answers", EngageError(.invalidInput, "A quiz takes at most 200 answers.", providerID: .youll))
        }
        return .affectingRows(
            "save_quiz_answers", field: "save_quiz_answers",
            document:
                "mutation SaveQuizAnswers($quizId: String!, $answers: [QuizAnswerInput!]!) { save_quiz_answers(quiz_id: $quizId, answers: $answers) { affected_rows } }",
            variables: ["quizId": .string(id), "answers": answerList(answers)]
        )
    }

    private static func answerList(_ answers: [YoullQuizAnswer]) -> JSONValue {
        .array(answers.map { .object(["question_id": .string($0.questionID), "option_id": .string($0.optionID)]) })
    }

    /// Registers a store purchase for verification (`register_transaction`; needs a user).
    public static func registerTransaction(productID: String, transactionID: String, receipt: String) -> YoullMutation<YoullTransaction> {
        .graphQL(
            "register_transaction", field: "register_transaction",
            document: """
                mutation RegisterTransaction($productId: String!, $transactionId: String!, $receipt: String!) { \
                register_transaction(product_id: $productId, transaction_id: $transactionId, receipt: $receipt) { id status product_id } }
                """,
            variables: ["productId": .string(productID), "transactionId": .string(transactionID), "receipt": .string(receipt)],
            as: WireTransaction.self
        ) { wire, _ in YoullTransaction(wire: wire) }
    }
}
