@_spi(EngageProvider) import EngageCore
import Foundation

// The response shapes of Youll's GraphQL schema and REST API, as this client reads them. The emulator
// has types of its own (`YoullServedTypes.swift`), so a shape guessed wrong here fails its tests; the
// recorded answers in `Development/Providers/Youll/Tests/Fixtures` pin both. JSON names are snake_case (Hasura's
// convention), spelled out in each type's coding keys: a key-converting decoder cost a third of a feed's
// decoding time, and it converted dictionary keys too.

/// A translation of a title and body.
package struct WireTranslation: Codable, Sendable, Equatable {
    package var lang: String
    package var title: String
    package var body: String?
    enum CodingKeys: String, CodingKey { case lang, title, body }
    package init(lang: String, title: String, body: String? = nil) {
        self.lang = lang
        self.title = title
        self.body = body
    }
}

/// A piece of content; `translations` holds only the requested `extra_lang`.
package struct WireContent: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var body: String?
    package var kind: String
    package var categoryId: String?
    package var durationSeconds: Int?
    package var imageUrl: String?
    package var mediaUrl: String?
    package var isLocked: Bool
    package var isLiked: Bool
    package var likeCount: Int
    package var tags: [String]
    package var publishedAt: String?
    package var translations: [WireTranslation]
    enum CodingKeys: String, CodingKey {
        case id, title, body, kind, categoryId = "category_id", durationSeconds = "duration_seconds", imageUrl = "image_url", mediaUrl =
            "media_url", isLocked = "is_locked", isLiked = "is_liked", likeCount = "like_count", tags, publishedAt = "published_at",
            translations
    }
    package init(
        id: String, title: String, body: String?, kind: String, categoryId: String?, durationSeconds: Int?, imageUrl: String?,
        mediaUrl: String?, isLocked: Bool, isLiked: Bool, likeCount: Int, tags: [String], publishedAt: String?,
        translations: [WireTranslation]
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.kind = kind
        self.categoryId = categoryId
        self.durationSeconds = durationSeconds
        self.imageUrl = imageUrl
        self.mediaUrl = mediaUrl
        self.isLocked = isLocked
        self.isLiked = isLiked
        self.likeCount = likeCount
        self.tags = tags
        self.publishedAt = publishedAt
        self.translations = translations
    }
}

package struct WireSubcategory: Codable, Sendable, Equatable {
    package var id: String
    package var categoryId: String
    package var title: String
    package var translations: [WireTranslation]
    enum CodingKeys: String, CodingKey { case id, categoryId = "category_id", title, translations }
    package init(id: String, categoryId: String, title: String, translations: [WireTranslation]) {
        self.id = id
        self.categoryId = categoryId
        self.title = title
        self.translations = translations
    }
}

package struct WireCategory: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var imageUrl: String?
    package var translations: [WireTranslation]
    package var subcategories: [WireSubcategory]
    enum CodingKeys: String, CodingKey { case id, title, imageUrl = "image_url", translations, subcategories }
    package init(id: String, title: String, imageUrl: String?, translations: [WireTranslation], subcategories: [WireSubcategory]) {
        self.id = id
        self.title = title
        self.imageUrl = imageUrl
        self.translations = translations
        self.subcategories = subcategories
    }
}

/// A feed section. `kind` decides which lists matter: `hero`, `carousel`, `grid` and
/// `continue_watching` carry `items`, `categories` carries `categories`; other kinds are new to this
/// client and are kept raw.
package struct WireFeedSection: Codable, Sendable, Equatable {
    package var id: String
    package var kind: String
    package var title: String
    package var translations: [WireTranslation]
    package var dismissible: Bool
    package var items: [WireContent]
    package var categories: [WireCategory]
    enum CodingKeys: String, CodingKey { case id, kind, title, translations, dismissible, items, categories }
    package init(
        id: String, kind: String, title: String, translations: [WireTranslation], dismissible: Bool, items: [WireContent],
        categories: [WireCategory]
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.translations = translations
        self.dismissible = dismissible
        self.items = items
        self.categories = categories
    }
}

package struct WireJourneyStep: Codable, Sendable, Equatable {
    package var id: String
    package var position: Int
    package var completed: Bool
    package var content: WireContent
    enum CodingKeys: String, CodingKey { case id, position, completed, content }
    package init(id: String, position: Int, completed: Bool, content: WireContent) {
        self.id = id
        self.position = position
        self.completed = completed
        self.content = content
    }
}

package struct WireJourney: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var description: String?
    package var isLinear: Bool
    package var isActive: Bool
    package var translations: [WireTranslation]
    package var steps: [WireJourneyStep]
    enum CodingKeys: String, CodingKey { case id, title, description, isLinear = "is_linear", isActive = "is_active", translations, steps }
    package init(
        id: String, title: String, description: String?, isLinear: Bool, isActive: Bool, translations: [WireTranslation],
        steps: [WireJourneyStep]
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.isLinear = isLinear
        self.isActive = isActive
        self.translations = translations
        self.steps = steps
    }
}

package struct WireWorkout: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var day: Int
    package var completed: Bool
    package var contentId: String?
    package var feedbackRating: Int?
    enum CodingKeys: String, CodingKey { case id, title, day, completed, contentId = "content_id", feedbackRating = "feedback_rating" }
    package init(id: String, title: String, day: Int, completed: Bool, contentId: String?, feedbackRating: Int?) {
        self.id = id
        self.title = title
        self.day = day
        self.completed = completed
        self.contentId = contentId
        self.feedbackRating = feedbackRating
    }
}

package struct WireActivitySlice: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var kind: String
    package var workouts: [WireWorkout]
    enum CodingKeys: String, CodingKey { case id, title, kind, workouts }
    package init(id: String, title: String, kind: String, workouts: [WireWorkout]) {
        self.id = id
        self.title = title
        self.kind = kind
        self.workouts = workouts
    }
}

package struct WireExploreTag: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var itemCount: Int
    enum CodingKeys: String, CodingKey { case id, name, itemCount = "item_count" }
    package init(id: String, name: String, itemCount: Int) {
        self.id = id
        self.name = name
        self.itemCount = itemCount
    }
}

package struct WireEvent: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var description: String?
    package var startsAt: String
    package var endsAt: String?
    package var location: String?
    package var capacity: Int?
    package var attendeeCount: Int
    package var myResponse: String?
    package var translations: [WireTranslation]
    enum CodingKeys: String, CodingKey {
        case id, title, description, startsAt = "starts_at", endsAt = "ends_at", location, capacity, attendeeCount = "attendee_count",
            myResponse = "my_response", translations
    }
    package init(
        id: String, title: String, description: String?, startsAt: String, endsAt: String?, location: String?, capacity: Int?,
        attendeeCount: Int, myResponse: String?, translations: [WireTranslation]
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.location = location
        self.capacity = capacity
        self.attendeeCount = attendeeCount
        self.myResponse = myResponse
        self.translations = translations
    }
}

package struct WirePlaylist: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var createdAt: String
    package var items: [WireContent]
    enum CodingKeys: String, CodingKey { case id, name, createdAt = "created_at", items }
    package init(id: String, name: String, createdAt: String, items: [WireContent]) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.items = items
    }
}

package struct WireMeal: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var day: Int
    package var kind: String
    package var calories: Int?
    package var checked: Bool
    package var imageUrl: String?
    package var translations: [WireTranslation]
    enum CodingKeys: String, CodingKey { case id, title, day, kind, calories, checked, imageUrl = "image_url", translations }
    package init(
        id: String, title: String, day: Int, kind: String, calories: Int?, checked: Bool, imageUrl: String?, translations: [WireTranslation]
    ) {
        self.id = id
        self.title = title
        self.day = day
        self.kind = kind
        self.calories = calories
        self.checked = checked
        self.imageUrl = imageUrl
        self.translations = translations
    }
}

package struct WireMealDetailCard: Codable, Sendable, Equatable {
    package var id: String
    package var mealId: String
    package var kind: String
    package var title: String
    package var body: String
    enum CodingKeys: String, CodingKey { case id, mealId = "meal_id", kind, title, body }
    package init(id: String, mealId: String, kind: String, title: String, body: String) {
        self.id = id
        self.mealId = mealId
        self.kind = kind
        self.title = title
        self.body = body
    }
}

package struct WireSearchOption: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    enum CodingKeys: String, CodingKey { case id, title }
    package init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

package struct WireSearchFilter: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var options: [WireSearchOption]
    enum CodingKeys: String, CodingKey { case id, title, options }
    package init(id: String, title: String, options: [WireSearchOption]) {
        self.id = id
        self.title = title
        self.options = options
    }
}

package struct WireQuizOption: Codable, Sendable, Equatable {
    package var id: String
    package var text: String
    enum CodingKeys: String, CodingKey { case id, text }
    package init(id: String, text: String) {
        self.id = id
        self.text = text
    }
}

package struct WireQuizQuestion: Codable, Sendable, Equatable {
    package var id: String
    package var text: String
    package var options: [WireQuizOption]
    package var savedOptionId: String?
    enum CodingKeys: String, CodingKey { case id, text, options, savedOptionId = "saved_option_id" }
    package init(id: String, text: String, options: [WireQuizOption], savedOptionId: String?) {
        self.id = id
        self.text = text
        self.options = options
        self.savedOptionId = savedOptionId
    }
}

package struct WireQuiz: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var questions: [WireQuizQuestion]
    package var completed: Bool
    enum CodingKeys: String, CodingKey { case id, title, questions, completed }
    package init(id: String, title: String, questions: [WireQuizQuestion], completed: Bool) {
        self.id = id
        self.title = title
        self.questions = questions
        self.completed = completed
    }
}

/// The answer of `insert_quiz_answers`: how many answers counted and the score.
package struct WireQuizResult: Codable, Sendable, Equatable {
    package var quizId: String
    package var answered: Int
    package var score: Int
    enum CodingKeys: String, CodingKey { case quizId = "quiz_id", answered, score }
    package init(quizId: String, answered: Int, score: Int) {
        self.quizId = quizId
        self.answered = answered
        self.score = score
    }
}

package struct WireTransaction: Codable, Sendable, Equatable {
    package var id: String
    package var status: String
    package var productId: String
    enum CodingKeys: String, CodingKey { case id, status, productId = "product_id" }
    package init(id: String, status: String, productId: String) {
        self.id = id
        self.status = status
        self.productId = productId
    }
}

/// A key and its value, for the configuration documents (player, onboarding, quiz, app, widget).
package struct WireSetting: Codable, Sendable, Equatable {
    package var key: String
    package var value: String
    enum CodingKeys: String, CodingKey { case key, value }
    package init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

package struct WireSocialProof: Codable, Sendable, Equatable {
    package var headline: String
    package var memberCount: Int
    package var rating: Double
    enum CodingKeys: String, CodingKey { case headline, memberCount = "member_count", rating }
    package init(headline: String, memberCount: Int, rating: Double) {
        self.headline = headline
        self.memberCount = memberCount
        self.rating = rating
    }
}

package struct WireFacilitator: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var bio: String?
    package var imageUrl: String?
    enum CodingKeys: String, CodingKey { case id, name, bio, imageUrl = "image_url" }
    package init(id: String, name: String, bio: String?, imageUrl: String?) {
        self.id = id
        self.name = name
        self.bio = bio
        self.imageUrl = imageUrl
    }
}

/// The result of a mutation that changes one row: how many rows it changed (Hasura's `affected_rows`).
package struct WireMutationResult: Codable, Sendable, Equatable {
    package var affectedRows: Int
    enum CodingKeys: String, CodingKey { case affectedRows = "affected_rows" }
    package init(affectedRows: Int) { self.affectedRows = affectedRows }
}

// MARK: REST

package struct WireProfile: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var email: String?
    package var pictureUrl: String?
    package var stats: [String: Int]
    package var createdAt: String
    enum CodingKeys: String, CodingKey { case id, name, email, pictureUrl = "picture_url", stats, createdAt = "created_at" }
    package init(id: String, name: String, email: String?, pictureUrl: String?, stats: [String: Int], createdAt: String) {
        self.id = id
        self.name = name
        self.email = email
        self.pictureUrl = pictureUrl
        self.stats = stats
        self.createdAt = createdAt
    }
}

package struct WireBadge: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var imageUrl: String?
    package var earnedAt: String
    enum CodingKeys: String, CodingKey { case id, title, imageUrl = "image_url", earnedAt = "earned_at" }
    package init(id: String, title: String, imageUrl: String?, earnedAt: String) {
        self.id = id
        self.title = title
        self.imageUrl = imageUrl
        self.earnedAt = earnedAt
    }
}

package struct WireNotificationSettings: Codable, Sendable, Equatable {
    package var push: Bool
    package var email: Bool
    package var reminders: Bool
    package var reminderHour: Int?
    enum CodingKeys: String, CodingKey { case push, email, reminders, reminderHour = "reminder_hour" }
    package init(push: Bool, email: Bool, reminders: Bool, reminderHour: Int?) {
        self.push = push
        self.email = email
        self.reminders = reminders
        self.reminderHour = reminderHour
    }
}

package struct WirePromoOffer: Codable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var description: String?
    package var imageUrl: String?
    package var actionUrl: String?
    package var discountPercent: Int?
    package var validUntil: String?
    enum CodingKeys: String, CodingKey {
        case id, title, description, imageUrl = "image_url", actionUrl = "action_url", discountPercent = "discount_percent", validUntil =
            "valid_until"
    }
    package init(
        id: String, title: String, description: String?, imageUrl: String?, actionUrl: String?, discountPercent: Int?, validUntil: String?
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.imageUrl = imageUrl
        self.actionUrl = actionUrl
        self.discountPercent = discountPercent
        self.validUntil = validUntil
    }
}

package struct WireLikeResult: Codable, Sendable, Equatable {
    package var contentId: String
    package var isLiked: Bool
    package var likeCount: Int
    enum CodingKeys: String, CodingKey { case contentId = "content_id", isLiked = "is_liked", likeCount = "like_count" }
    package init(contentId: String, isLiked: Bool, likeCount: Int) {
        self.contentId = contentId
        self.isLiked = isLiked
        self.likeCount = likeCount
    }
}

package struct WireVectorSearchResult: Codable, Sendable, Equatable {
    package var items: [WireContent]
    package var scores: [Double]
    enum CodingKeys: String, CodingKey { case items, scores }
    package init(items: [WireContent], scores: [Double]) {
        self.items = items
        self.scores = scores
    }
}

/// Bodies the client sends to REST endpoints.
package enum WireRequest {
    package struct Register: Codable, Sendable {
        package var name: String
        package var email: String?
        package var language: String?
        enum CodingKeys: String, CodingKey { case name, email, language }
        package init(name: String, email: String?, language: String?) {
            self.name = name
            self.email = email
            self.language = language
        }
    }

    /// `POST /content/{id}/reviews`.
    package struct Review: Codable, Sendable {
        package var rating: Int
        package var text: String?
        enum CodingKeys: String, CodingKey { case rating, text }
        package init(rating: Int, text: String?) {
            self.rating = rating
            self.text = text
        }
    }

    /// `POST /users/me/badges`.
    package struct EarnBadge: Codable, Sendable {
        package var badgeId: String
        enum CodingKeys: String, CodingKey { case badgeId = "badge_id" }
        package init(badgeId: String) { self.badgeId = badgeId }
    }

    /// `POST /users/me/tracking-sessions`.
    package struct TrackingSession: Codable, Sendable, Equatable {
        package var id: String
        package var startedAt: String
        package var endedAt: String
        package var screenCount: Int?
        enum CodingKeys: String, CodingKey { case id, startedAt = "started_at", endedAt = "ended_at", screenCount = "screen_count" }
        package init(id: String, startedAt: String, endedAt: String, screenCount: Int?) {
            self.id = id
            self.startedAt = startedAt
            self.endedAt = endedAt
            self.screenCount = screenCount
        }
    }

    package struct TimerSession: Codable, Sendable {
        package var seconds: Int
        package var completed: Bool
        enum CodingKeys: String, CodingKey { case seconds, completed }
        package init(seconds: Int, completed: Bool) {
            self.seconds = seconds
            self.completed = completed
        }
    }
}

/// The decoder of every Youll answer.
package enum YoullJSON {
    package static func decoder() -> JSONDecoder {
        JSONDecoder()
    }

    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// One product of a paywall (`products` of `paywall_config` and `super_paywall_config`).
package struct WirePaywallProduct: Codable, Sendable, Equatable {
    package var productId: String
    package var period: String
    package var trialDays: Int?
    package var highlighted: Bool
    package var badge: String?
    enum CodingKeys: String, CodingKey {
        case productId = "product_id", period, trialDays = "trial_days", highlighted, badge
    }
    package init(productId: String, period: String, trialDays: Int? = nil, highlighted: Bool = false, badge: String? = nil) {
        self.productId = productId
        self.period = period
        self.trialDays = trialDays
        self.highlighted = highlighted
        self.badge = badge
    }
}

/// A paywall's configuration (`paywall_config(placement:)`, `super_paywall_config`; the seed's
/// `PaywallConfigFields`).
package struct WirePaywallConfig: Codable, Sendable, Equatable {
    package var id: String
    package var placement: String
    package var title: String
    package var subtitle: String?
    package var features: [String]
    package var products: [WirePaywallProduct]
    package var dismissible: Bool
    package var isSuper: Bool
    package var imageUrl: String?
    enum CodingKeys: String, CodingKey {
        case id, placement, title, subtitle, features, products, dismissible, isSuper = "is_super", imageUrl = "image_url"
    }
    package init(
        id: String, placement: String, title: String, subtitle: String? = nil, features: [String], products: [WirePaywallProduct],
        dismissible: Bool, isSuper: Bool, imageUrl: String? = nil
    ) {
        self.id = id
        self.placement = placement
        self.title = title
        self.subtitle = subtitle
        self.features = features
        self.products = products
        self.dismissible = dismissible
        self.isSuper = isSuper
        self.imageUrl = imageUrl
    }
}

/// What `set_viewed_content` answers (the seed's `SetViewedContentMutation`).
package struct WireViewedContent: Codable, Sendable, Equatable {
    package var contentId: String
    package var viewedAt: String
    enum CodingKeys: String, CodingKey { case contentId = "content_id", viewedAt = "viewed_at" }
    package init(contentId: String, viewedAt: String) {
        self.contentId = contentId
        self.viewedAt = viewedAt
    }
}

/// A review of a content item (`GET`/`POST /content/{id}/reviews`).
package struct WireReview: Codable, Sendable, Equatable {
    package var id: String
    package var contentId: String
    package var rating: Int
    package var text: String?
    package var authorName: String?
    package var createdAt: String
    package var isMine: Bool
    enum CodingKeys: String, CodingKey {
        case id, contentId = "content_id", rating, text, authorName = "author_name", createdAt = "created_at", isMine = "is_mine"
    }
    package init(id: String, contentId: String, rating: Int, text: String?, authorName: String?, createdAt: String, isMine: Bool) {
        self.id = id
        self.contentId = contentId
        self.rating = rating
        self.text = text
        self.authorName = authorName
        self.createdAt = createdAt
        self.isMine = isMine
    }
}

/// A share link for a content item (`share_link(content_id:)`; the seed's `EnvoyURL`).
package struct WireShareLink: Codable, Sendable, Equatable {
    package var url: String
    package var expiresAt: String?
    enum CodingKeys: String, CodingKey { case url, expiresAt = "expires_at" }
    package init(url: String, expiresAt: String?) {
        self.url = url
        self.expiresAt = expiresAt
    }
}
