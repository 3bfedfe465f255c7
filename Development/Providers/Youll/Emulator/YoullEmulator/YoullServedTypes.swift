import Foundation

// What the emulator serves, in types of its own: the Youll client's wire types are not used here, so a
// client that reads a field under another name or type fails its end-to-end tests against this emulator.
// GraphQL field names are spelled in `YoullSchema`; REST bodies are written and read by
// `YoullEmulator.restEncoder` and `restDecoder`, which convert these camel-case names to and from snake
// case (the client spells every key out instead). Recorded answers in
// `Development/Providers/Youll/Tests/Fixtures` pin both sides to the schema's shapes.

struct ServedTranslation: Encodable, Sendable, Equatable {
    var lang: String
    var title: String
    var body: String?
}

struct ServedContent: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var body: String?
    var kind: String
    var categoryId: String?
    var durationSeconds: Int?
    var imageUrl: String?
    var mediaUrl: String?
    var isLocked: Bool
    var isLiked: Bool
    var likeCount: Int
    var tags: [String]
    var publishedAt: String?
    var translations: [ServedTranslation]
}

struct ServedSubcategory: Encodable, Sendable, Equatable {
    var id: String
    var categoryId: String
    var title: String
    var translations: [ServedTranslation]
}

struct ServedCategory: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var imageUrl: String?
    var translations: [ServedTranslation]
    var subcategories: [ServedSubcategory]
}

struct ServedFeedSection: Encodable, Sendable, Equatable {
    var id: String
    var kind: String
    var title: String
    var translations: [ServedTranslation]
    var dismissible: Bool
    var items: [ServedContent]
    var categories: [ServedCategory]
}

struct ServedJourneyStep: Encodable, Sendable, Equatable {
    var id: String
    var position: Int
    var completed: Bool
    var content: ServedContent
}

struct ServedJourney: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var description: String?
    var isLinear: Bool
    var isActive: Bool
    var translations: [ServedTranslation]
    var steps: [ServedJourneyStep]
}

struct ServedWorkout: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var day: Int
    var completed: Bool
    var contentId: String?
    var feedbackRating: Int?
}

struct ServedActivitySlice: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var kind: String
    var workouts: [ServedWorkout]
}

struct ServedExploreTag: Encodable, Sendable, Equatable {
    var id: String
    var name: String
    var itemCount: Int
}

struct ServedEvent: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var description: String?
    var startsAt: String
    var endsAt: String?
    var location: String?
    var capacity: Int?
    var attendeeCount: Int
    var myResponse: String?
    var translations: [ServedTranslation]
}

struct ServedPlaylist: Encodable, Sendable, Equatable {
    var id: String
    var name: String
    var createdAt: String
    var items: [ServedContent]
}

struct ServedMeal: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var day: Int
    var kind: String
    var calories: Int?
    var checked: Bool
    var imageUrl: String?
    var translations: [ServedTranslation]
}

struct ServedMealDetailCard: Encodable, Sendable, Equatable {
    var id: String
    var mealId: String
    var kind: String
    var title: String
    var body: String
}

struct ServedSearchOption: Encodable, Sendable, Equatable {
    var id: String
    var title: String
}

struct ServedSearchFilter: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var options: [ServedSearchOption]
}

struct ServedQuizOption: Encodable, Sendable, Equatable {
    var id: String
    var text: String
}

struct ServedQuizQuestion: Encodable, Sendable, Equatable {
    var id: String
    var text: String
    var options: [ServedQuizOption]
    var savedOptionId: String?
}

struct ServedQuiz: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var questions: [ServedQuizQuestion]
    var completed: Bool
}

struct ServedQuizResult: Encodable, Sendable, Equatable {
    var quizId: String
    var answered: Int
    var score: Int
}

struct ServedTransaction: Encodable, Sendable, Equatable {
    var id: String
    var status: String
    var productId: String
}

struct ServedSetting: Encodable, Sendable, Equatable {
    var key: String
    var value: String
}

struct ServedSocialProof: Encodable, Sendable, Equatable {
    var headline: String
    var memberCount: Int
    var rating: Double
}

struct ServedFacilitator: Encodable, Sendable, Equatable {
    var id: String
    var name: String
    var bio: String?
    var imageUrl: String?
}

struct ServedMutationResult: Encodable, Sendable, Equatable {
    var affectedRows: Int
}

struct ServedProfile: Encodable, Sendable, Equatable {
    var id: String
    var name: String
    var email: String?
    var pictureUrl: String?
    var stats: [String: Int]
    var createdAt: String
}

struct ServedBadge: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var imageUrl: String?
    var earnedAt: String
}

struct ServedNotificationSettings: Codable, Sendable, Equatable {
    var push: Bool
    var email: Bool
    var reminders: Bool
    var reminderHour: Int?
}

struct ServedPromoOffer: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var description: String?
    var imageUrl: String?
    var actionUrl: String?
    var discountPercent: Int?
    var validUntil: String?
}

struct ServedLikeResult: Encodable, Sendable, Equatable {
    var contentId: String
    var isLiked: Bool
    var likeCount: Int
}

struct ServedVectorSearchResult: Encodable, Sendable, Equatable {
    var items: [ServedContent]
    var scores: [Double]
}

struct ServedPaywallProduct: Encodable, Sendable, Equatable {
    var productId: String
    var period: String
    var trialDays: Int?
    var highlighted: Bool = false
    var badge: String?
}

struct ServedPaywallConfig: Encodable, Sendable, Equatable {
    var id: String
    var placement: String
    var title: String
    var subtitle: String?
    var features: [String]
    var products: [ServedPaywallProduct]
    var dismissible: Bool
    var isSuper: Bool
    var imageUrl: String?
}

struct ServedViewedContent: Encodable, Sendable, Equatable {
    var contentId: String
    var viewedAt: String
}

struct ServedReview: Encodable, Sendable, Equatable {
    var id: String
    var contentId: String
    var rating: Int
    var text: String?
    var authorName: String?
    var createdAt: String
    var isMine: Bool
}

struct ServedShareLink: Encodable, Sendable, Equatable {
    var url: String
    var expiresAt: String?
}

/// The bodies the emulator reads from REST requests (snake-case keys, see `restDecoder`).
enum YoullEmulatorRequest {
    struct Register: Decodable, Sendable, Equatable {
        var name: String
        var email: String?
        var language: String?
    }

    struct Review: Decodable, Sendable, Equatable {
        var rating: Int
        var text: String?
    }

    struct EarnBadge: Decodable, Sendable, Equatable {
        var badgeId: String
    }

    struct TrackingSession: Decodable, Sendable, Equatable {
        var id: String
        var startedAt: String
        var endedAt: String
        var screenCount: Int?
    }

    struct TimerSession: Decodable, Sendable, Equatable {
        var seconds: Int
        var completed: Bool
    }
}
