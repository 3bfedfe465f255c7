@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// The most rows a table of the state view shows.

extension YoullEmulator: InspectableEmulator {
    /// What users changed, per user (sorted by id): `Profiles` (registered or pictured users and their
    /// notification settings), `Deleted accounts`, `Likes` (newest first), `Timer sessions` (newest
    /// first), `Reviews` (per item, newest first), `Badges, tracking sessions, views` (per user), `Event answers`, `Quiz answers` (saved options, and whether the quiz was submitted),
    /// `Playlists`, `Progress` (active journey, completed steps and workouts, feedback, checked meals,
    /// dismissed slices) and `Transactions`. The seeded catalogue is not shown. No token is kept, so none
    /// can show.
    public func inspect() -> EmulatorStateView {
        let state = self.state.value
        var likes: [[String]] = []
        for user in state.likes.keys.sorted() {
            for contentID in (state.likes[user] ?? []).reversed() { likes.append([user, contentID]) }
        }
        let timerSessions: [[String]] = state.timerSessions.suffix(EmulatorStateView.rowLimit).reversed().map { session in
            [session.userID, session.contentID, String(session.seconds), session.completed ? "yes" : "no"]
        }
        var eventAnswers: [[String]] = []
        for user in state.eventResponses.keys.sorted() {
            for (event, answer) in (state.eventResponses[user] ?? [:]).sorted(by: { $0.key < $1.key }) {
                eventAnswers.append([user, event, answer])
            }
        }
        var playlists: [[String]] = []
        for user in state.playlists.keys.sorted() {
            for playlist in (state.playlists[user] ?? []).reversed() {
                playlists.append([user, playlist.id, playlist.name, playlist.createdAt, String(playlist.contentIDs.count)])
            }
        }
        let transactions: [[String]] = state.transactions.suffix(EmulatorStateView.rowLimit).reversed().map {
            [$0.id, $0.productId, $0.status]
        }
        let deleted: [[String]] = state.deletedUsers.sorted().prefix(EmulatorStateView.rowLimit).map { [$0] }
        var reviews: [[String]] = []
        for content in state.reviews.keys.sorted() {
            for review in (state.reviews[content] ?? []).reversed() {
                reviews.append([content, review.userID, String(review.rating), review.createdAt])
            }
        }
        var engagement: [[String]] = []
        for user in Set(state.earnedBadges.keys).union(state.trackingSessions.keys).union(state.viewedContent.keys).sorted() {
            for badge in (state.earnedBadges[user] ?? []).reversed() { engagement.append([user, "badge", badge.id, badge.earnedAt]) }
            for (id, session) in (state.trackingSessions[user] ?? [:]).sorted(by: { $0.key < $1.key }) {
                engagement.append([user, "tracking session", id, session.startedAt])
            }
            for (content, at) in (state.viewedContent[user] ?? [:]).sorted(by: { $0.key < $1.key }) {
                engagement.append([user, "viewed", content, at])
            }
        }
        return EmulatorStateView(tables: [
            Self.profilesTable(state),
            .init(title: "Deleted accounts", columns: ["user"], rows: deleted),
            .init(title: "Likes", columns: ["user", "content"], rows: Self.limited(likes)),
            .init(title: "Timer sessions", columns: ["user", "content", "seconds", "completed"], rows: timerSessions),
            .init(title: "Reviews", columns: ["content", "user", "rating", "at"], rows: Self.limited(reviews)),
            .init(title: "Badges, tracking sessions, views", columns: ["user", "kind", "id", "at"], rows: Self.limited(engagement)),
            .init(title: "Event answers", columns: ["user", "event", "answer"], rows: Self.limited(eventAnswers)),
            Self.quizTable(state),
            .init(title: "Playlists", columns: ["user", "id", "name", "created at", "items"], rows: Self.limited(playlists)),
            Self.progressTable(state),
            .init(title: "Transactions", columns: ["id", "product", "status"], rows: transactions),
        ])
    }

    private static func profilesTable(_ state: YoullEmulatorState) -> EmulatorStateView.Table {
        let users = Set(state.profiles.keys).union(state.notificationSettings.keys).union(state.pictures.keys).sorted()
        let rows = users.prefix(EmulatorStateView.rowLimit).map { user -> [String] in
            let profile = state.profiles[user]
            let notifications = state.notificationSettings[user].map { settings -> String in
                var parts: [String] = []
                if settings.push { parts.append("push") }
                if settings.email { parts.append("email") }
                if settings.reminders { parts.append(settings.reminderHour.map { "reminders at \($0):00" } ?? "reminders") }
                return parts.isEmpty ? "none" : parts.joined(separator: ", ")
            }
            return [
                user, profile?.name ?? "", profile?.email ?? "", state.pictures[user].map { "\($0.count) bytes" } ?? "",
                profile?.createdAt ?? "", notifications ?? "default",
            ]
        }
        return .init(title: "Profiles", columns: ["user", "name", "email", "picture", "created at", "notifications"], rows: rows)
    }

    private static func quizTable(_ state: YoullEmulatorState) -> EmulatorStateView.Table {
        var rows: [[String]] = []
        let users = Set(state.quizAnswers.keys).union(state.submittedQuizzes.keys).sorted()
        for user in users {
            let answers = state.quizAnswers[user] ?? [:]
            let submitted = state.submittedQuizzes[user] ?? []
            for quiz in Set(answers.keys).union(submitted).sorted() {
                let isSubmitted = submitted.contains(quiz) ? "yes" : "no"
                let saved = (answers[quiz] ?? [:]).sorted { $0.key < $1.key }
                if saved.isEmpty { rows.append([user, quiz, "", "", isSubmitted]) }
                for (question, option) in saved { rows.append([user, quiz, question, option, isSubmitted]) }
            }
        }
        return .init(title: "Quiz answers", columns: ["user", "quiz", "question", "option", "submitted"], rows: limited(rows))
    }

    private static func progressTable(_ state: YoullEmulatorState) -> EmulatorStateView.Table {
        let users = Set(state.activeJourney.keys).union(state.completedSteps.keys).union(state.completedWorkouts.keys)
            .union(state.feedback.keys).union(state.checkedMeals.keys).union(state.dismissedSlices.keys).sorted()
        func list(_ values: Set<String>?) -> String { (values ?? []).sorted().joined(separator: ", ") }
        let rows = users.prefix(EmulatorStateView.rowLimit).map { user -> [String] in
            let feedback = (state.feedback[user] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            return [
                user, state.activeJourney[user] ?? "", list(state.completedSteps[user]), list(state.completedWorkouts[user]), feedback,
                list(state.checkedMeals[user]), list(state.dismissedSlices[user]),
            ]
        }
        return .init(
            title: "Progress",
            columns: [
                "user", "active journey", "completed steps", "completed workouts", "workout feedback", "checked meals", "dismissed slices",
            ],
            rows: rows
        )
    }

    /// The first `EmulatorStateView.rowLimit` rows.
    private static func limited(_ rows: [[String]]) -> [[String]] {
        Array(rows.prefix(EmulatorStateView.rowLimit))
    }
}
