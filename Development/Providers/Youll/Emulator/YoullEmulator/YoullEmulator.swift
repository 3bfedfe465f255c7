@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Graphiti
import GraphQL
import Hummingbird

/// A local Youll backend: a real GraphQL server (Graphiti over GraphQLSwift, Hasura conventions) and
/// the REST API, over the same response types the provider decodes.
///
/// Routes, relative to `http://127.0.0.1:<port>/youll`:
///
/// | route | behaviour |
/// |---|---|
/// | `POST /v1/graphql` | executes `{"query","variables","operationName"}` against the schema (introspection included); errors come with HTTP 200 |
/// | `POST /auth/token` `{"user_id":…}` | issues an access token for that user (standing in for the app's own auth service) |
/// | `POST /api/rest/users` | registers the token's user |
/// | `GET /api/rest/users/me?stats=a,b` | the profile with the named statistics |
/// | `GET /api/rest/users/me/badges` | the earned badges |
/// | `POST /api/rest/users/me/badges` | earns a badge (201; 200 when the user has it; 404 unknown) |
/// | `POST /api/rest/users/me/tracking-sessions` | records a tracking session once per id (201, then 200) |
/// | `DELETE /api/rest/users/me` | deletes the user (204); their tokens are refused from then on |
/// | `PUT /api/rest/users/me/picture` | a `multipart/form-data` JPEG or PNG (at most 5 MiB, within the sandbox's body limit, `SandboxConfiguration.maxBodySize`, 2 MiB by default); answers the profile |
/// | `GET`/`PUT /api/rest/users/me/notifications` | the notification settings |
/// | `POST`/`DELETE /api/rest/content/{id}/like` | likes or unlikes; answers the like state |
/// | `POST /api/rest/content/{id}/timer-sessions` | records time spent (204) |
/// | `GET`/`POST /api/rest/content/{id}/reviews` | the reviews, newest first; a user's review, one per item |
/// | `GET /api/rest/content/search?q=&limit=` | vector search (a deterministic similarity over titles and tags) |
/// | `GET /api/rest/promo-offers` | the promo offers (guests too) |
///
/// **Tokens.** HS256 JWTs from the sandbox's issuer, lifetime ``Configuration/tokenLifetime``, with
/// Hasura's claims in `https://hasura.io/jwt/claims` (stringified JSON, Hasura's
/// `claims_format: stringified_json`): `x-hasura-default-role` `user`, `x-hasura-allowed-roles`
/// `["user"]`, `x-hasura-user-id`. On GraphQL an expired token is answered with HTTP 200
/// `{"errors":[{"message":"Could not verify JWT: JWTExpired","extensions":{"code":"invalid-jwt","path":"$"}}]}`
/// (any other bad token: `JWSError JWSInvalidSignature`), a request without a token runs as `guest`,
/// and a user-only field asked by a guest is Hasura's `validation-failed` "field not found". On REST a
/// bad or expired token is 401 and a user-only route without one is 401.
///
/// Content is seeded and deterministic (English, with Greek `el` and German `de` translations);
/// likes, playlists, event answers, quiz answers, checked meals, dismissed slices, journeys and
/// workouts change with the calls and show in later answers.
///
/// ```swift
/// let youll = YoullEmulator()
/// let host = SandboxHost(emulators: [youll])
/// let base = try await host.start().baseURL(for: "youll")!   // http://127.0.0.1:<port>/youll
/// let token = youll.issueToken(userID: "u-1")                 // what the host app's auth would hand over
/// ```
public final class YoullEmulator: Emulator {
    /// What the emulated backend is configured with.
    public struct Configuration: Sendable {
        /// How long the access tokens it issues live (15 minutes by default).
        public var tokenLifetime: Duration

        /// A configuration; the sandbox passes its `--token-lifetime`.
        public init(tokenLifetime: Duration = .seconds(900)) {
            self.tokenLifetime = tokenLifetime
        }
    }

    /// The path prefix, `youll` unless another id was given.
    public let id: String
    /// The emulator's configuration.
    public let configuration: Configuration

    let state = Locked(YoullEmulatorState())
    private let installed = Locked<(catalogue: YoullCatalogue, environment: EmulatorEnvironment)?>(nil)
    /// The schema, built once per process: it is immutable and every emulator serves the same one.
    static let schema: Schema<YoullResolver, YoullGraphQLContext>? = try? YoullSchema.make()

    /// Creates the emulator.
    /// - Parameters:
    ///   - id: The path prefix (change it only to serve two Youll backends side by side).
    ///   - configuration: The token lifetime.
    public init(id: String = "youll", configuration: Configuration = .init()) {
        self.id = id
        self.configuration = configuration
    }

    /// Adds the routes listed in the type's documentation and seeds the catalogue.
    public func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        installed.withLock { $0 = (YoullCatalogue(seed: environment.seed), environment) }
        addGraphQLRoutes(to: group, environment: environment)
        addRESTRoutes(to: group, environment: environment)
    }

    /// An access token for `userID`, as the app's own auth service would issue it (lifetime
    /// ``Configuration/tokenLifetime`` unless given). Only valid once the emulator is served by a started host.
    public func issueToken(userID: String, lifetime: Duration? = nil) -> String {
        guard let environment = installed.value?.environment else { return "" }
        return Self.issueToken(userID: userID, lifetime: lifetime ?? configuration.tokenLifetime, jwt: environment.jwt)
    }

    static func issueToken(userID: String, lifetime: Duration, jwt: JWTIssuer) -> String {
        let claims: [String: Any] = [
            "x-hasura-default-role": "user", "x-hasura-allowed-roles": ["user"], "x-hasura-user-id": userID,
        ]
        let text =
            (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])).flatMap { String(data: $0, encoding: .utf8) }
            ?? "{}"
        return jwt.issue(subject: userID, lifetime: lifetime, extraClaims: [hasuraClaimsKey: text])
    }

    static let hasuraClaimsKey = "https://hasura.io/jwt/claims"

    /// Forgets every user change (likes, playlists, answers...); the catalogue stays.
    public func reset() {
        state.withLock { $0 = YoullEmulatorState() }
    }

    // MARK: What tests look at

    /// The content ids `userID` likes, most recent last.
    public func likes(of userID: String) -> [String] { state.withLock { $0.likes[userID] ?? [] } }
    /// The names of `userID`'s playlists.
    public func playlistNames(of userID: String) -> [String] { state.withLock { ($0.playlists[userID] ?? []).map(\.name) } }
    /// The ids of the tracking sessions `userID` sent, each once, sorted.
    public func trackingSessionIDs(of userID: String) -> [String] { state.withLock { ($0.trackingSessions[userID] ?? [:]).keys.sorted() } }
    /// The ids of the badges `userID` earned through `POST /users/me/badges`, oldest first.
    public func earnedBadgeIDs(of userID: String) -> [String] { state.withLock { ($0.earnedBadges[userID] ?? []).map(\.id) } }
    /// When `userID` last viewed each content item (ISO 8601), by content id.
    public func viewedContent(of userID: String) -> [String: String] { state.withLock { $0.viewedContent[userID] ?? [:] } }
    /// `userID`'s event answers by event id.
    public func eventResponses(of userID: String) -> [String: String] { state.withLock { $0.eventResponses[userID] ?? [:] } }
    /// The timer sessions recorded, as (user, content, seconds, completed).
    public var timerSessions: [(userID: String, contentID: String, seconds: Int, completed: Bool)] {
        state.withLock { $0.timerSessions.map { ($0.userID, $0.contentID, $0.seconds, $0.completed) } }
    }
    /// The stored profile picture of `userID`.
    public func picture(of userID: String) -> Data? { state.withLock { $0.pictures[userID] } }
    /// Whether `userID` deleted their account.
    public func isDeleted(_ userID: String) -> Bool { state.withLock { $0.deletedUsers.contains(userID) } }

    // MARK: Building answers

    var catalogue: YoullCatalogue {
        installed.value?.catalogue ?? YoullCatalogue(seed: 0)
    }

    func timestamp() -> String {
        date().formatted(.iso8601)
    }

    /// The host's now (its injected clock).
    func date() -> Date {
        installed.value?.environment.now() ?? Date(timeIntervalSince1970: 0)
    }

    func content(id: String, lang: String?, userID: String?) -> ServedContent? {
        guard let content = catalogue.content(id: id) else { return nil }
        let likers = state.withLock { state in state.likes.values.filter { $0.contains(id) }.count }
        let isLiked = userID.map { user in state.withLock { $0.likes[user]?.contains(id) ?? false } } ?? false
        return ServedContent(
            id: content.id, title: content.title.en, body: content.body.en, kind: content.kind, categoryId: content.categoryID,
            durationSeconds: content.durationSeconds, imageUrl: "https://cdn.youll.test/c/\(content.id).jpg",
            mediaUrl: content.kind == "article" || content.kind == "recipe"
                ? "https://youll.test/read/\(content.id)" : "https://cdn.youll.test/m/\(content.id).m3u8",
            isLocked: content.isLocked, isLiked: isLiked, likeCount: content.baseLikes + likers, tags: content.tags,
            publishedAt: content.publishedAt, translations: content.title.translations(lang, body: content.body)
        )
    }

    func categories(lang: String?) -> [ServedCategory] {
        catalogue.categories.map { category in
            ServedCategory(
                id: category.id, title: category.title.en, imageUrl: "https://cdn.youll.test/cat/\(category.id).jpg",
                translations: category.title.translations(lang),
                subcategories: category.subcategories.map {
                    ServedSubcategory(id: $0.id, categoryId: category.id, title: $0.title.en, translations: $0.title.translations(lang))
                }
            )
        }
    }

    func sections(feed: String, lang: String?, userID: String?) -> [ServedFeedSection] {
        let dismissed = userID.map { user in state.withLock { $0.dismissedSlices[user] ?? [] } } ?? []
        let categories = categories(lang: lang)
        return catalogue.sections.filter { $0.feed == feed && !dismissed.contains($0.id) }.map { section in
            ServedFeedSection(
                id: section.id, kind: section.kind, title: section.title.en, translations: section.title.translations(lang),
                dismissible: section.dismissible, items: section.contentIDs.compactMap { content(id: $0, lang: lang, userID: userID) },
                categories: categories.filter { section.categoryIDs.contains($0.id) }
            )
        }
    }

    func journey(id: String, lang: String?, userID: String) -> ServedJourney? {
        guard let journey = catalogue.journeys.first(where: { $0.id == id }) else { return nil }
        let (active, completed) = state.withLock { ($0.activeJourney[userID], $0.completedSteps[userID] ?? []) }
        let steps = journey.contentIDs.enumerated().compactMap { index, contentID -> ServedJourneyStep? in
            let stepID = "\(journey.id)/s\(index + 1)"
            return content(id: contentID, lang: lang, userID: userID).map {
                ServedJourneyStep(id: stepID, position: index + 1, completed: completed.contains(stepID), content: $0)
            }
        }
        return ServedJourney(
            id: journey.id, title: journey.title.en, description: journey.description.en, isLinear: journey.isLinear,
            isActive: active == journey.id,
            translations: journey.title.translations(lang, body: journey.description), steps: steps
        )
    }

    func activitySlices(userID: String) -> [ServedActivitySlice] {
        let (completed, feedback) = state.withLock { ($0.completedWorkouts[userID] ?? [], $0.feedback[userID] ?? [:]) }
        var slices: [ServedActivitySlice] = []
        for entry in catalogue.workouts {
            var workout = entry.workout
            workout.completed = completed.contains(workout.id)
            workout.feedbackRating = feedback[workout.id]
            if let index = slices.firstIndex(where: { $0.id == entry.slice }) {
                slices[index].workouts.append(workout)
            } else {
                slices.append(ServedActivitySlice(id: entry.slice, title: entry.sliceTitle, kind: "programme", workouts: [workout]))
            }
        }
        return slices
    }

    func event(_ event: YoullCatalogue.Event, lang: String?, userID: String?) -> ServedEvent {
        let (responses, mine) = state.withLock { state in
            (state.eventResponses.values.filter { $0[event.id] == "going" }.count, userID.flatMap { state.eventResponses[$0]?[event.id] })
        }
        return ServedEvent(
            id: event.id, title: event.title.en, description: event.description.en, startsAt: event.startsAt, endsAt: event.endsAt,
            location: event.location, capacity: event.capacity, attendeeCount: event.baseAttendees + responses, myResponse: mine,
            translations: event.title.translations(lang, body: event.description)
        )
    }

    func playlist(_ playlist: YoullEmulatorState.Playlist, lang: String?, userID: String) -> ServedPlaylist {
        ServedPlaylist(
            id: playlist.id, name: playlist.name, createdAt: playlist.createdAt,
            items: playlist.contentIDs.compactMap { content(id: $0, lang: lang, userID: userID) }
        )
    }

    func quiz(id: String, userID: String) -> ServedQuiz? {
        guard var quiz = catalogue.quizzes.first(where: { $0.id == id }) else { return nil }
        let (saved, submitted) = state.withLock { ($0.quizAnswers[userID]?[id] ?? [:], $0.submittedQuizzes[userID]?.contains(id) ?? false) }
        quiz.questions = quiz.questions.map { question in
            var question = question
            question.savedOptionId = saved[question.id]
            return question
        }
        quiz.completed = submitted
        return quiz
    }

    func saveAnswers(_ arguments: QuizAnswersArgs, userID: String) throws {
        guard let quiz = catalogue.quizzes.first(where: { $0.id == arguments.quizId }) else {
            throw YoullGraphQLFailure.notFound("quiz '\(arguments.quizId)'")
        }
        for answer in arguments.answers {
            guard let question = quiz.questions.first(where: { $0.id == answer.questionId }),
                question.options.contains(where: { $0.id == answer.optionId })
            else {
                throw YoullGraphQLFailure(
                    code: "constraint-violation", description: "'\(answer.optionId)' is not an option of '\(answer.questionId)'")
            }
        }
        state.withLock { state in
            for answer in arguments.answers {
                state.quizAnswers[userID, default: [:]][arguments.quizId, default: [:]][answer.questionId] = answer.optionId
            }
        }
    }

    /// `ids[offset..<offset+limit]`; a negative offset or a limit outside 1...1000 is refused.
    func page(_ ids: [String], limit: Int?, offset: Int?) throws -> [String] {
        let limit = limit ?? 20
        let offset = offset ?? 0
        guard (1...1000).contains(limit), offset >= 0 else {
            throw YoullGraphQLFailure.invalid("limit must be 1 to 1000 and offset not negative")
        }
        return Array(ids.dropFirst(offset).prefix(limit))
    }
}
