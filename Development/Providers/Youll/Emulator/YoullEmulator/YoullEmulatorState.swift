@_spi(EngageProvider) import EngageCore
import Foundation

/// What users changed on the emulated backend; every change shows in later answers.
struct YoullEmulatorState: Sendable {
    struct Playlist: Sendable {
        var id: String
        var name: String
        var createdAt: String
        var contentIDs: [String]
    }

    struct Profile: Sendable {
        var name: String
        var email: String?
        var pictureURL: String?
        var createdAt: String
    }

    struct TimerSession: Sendable, Equatable {
        var userID: String
        var contentID: String
        var seconds: Int
        var completed: Bool
    }

    /// Liked content per user, most recent last.
    var likes: [String: [String]] = [:]
    var dismissedSlices: [String: Set<String>] = [:]
    var activeJourney: [String: String] = [:]
    var completedSteps: [String: Set<String>] = [:]
    var completedWorkouts: [String: Set<String>] = [:]
    var feedback: [String: [String: Int]] = [:]
    var eventResponses: [String: [String: String]] = [:]
    /// When each user last viewed each content item (`set_viewed_content`).
    var viewedContent: [String: [String: String]] = [:]
    var playlists: [String: [Playlist]] = [:]
    var checkedMeals: [String: Set<String>] = [:]
    /// Saved answers per user, quiz and question.
    var quizAnswers: [String: [String: [String: String]]] = [:]
    var submittedQuizzes: [String: Set<String>] = [:]
    var transactions: [ServedTransaction] = []
    var profiles: [String: Profile] = [:]
    var notificationSettings: [String: ServedNotificationSettings] = [:]
    var pictures: [String: Data] = [:]
    var deletedUsers: Set<String> = []
    var timerSessions: [TimerSession] = []
    /// Reviews by content id, oldest first; one per user and item.
    var reviews: [String: [Review]] = [:]
    /// The badges each user earned (`POST /users/me/badges`), oldest first.
    var earnedBadges: [String: [ServedBadge]] = [:]
    /// The tracking sessions each user sent, by session id.
    var trackingSessions: [String: [String: YoullEmulatorRequest.TrackingSession]] = [:]

    struct Review: Sendable {
        var id: String
        var userID: String
        var rating: Int
        var text: String?
        var createdAt: String
    }
    var nextID = 1

    mutating func makeID(_ prefix: String) -> String {
        defer { nextID += 1 }
        return "\(prefix)-\(nextID)"
    }
}
