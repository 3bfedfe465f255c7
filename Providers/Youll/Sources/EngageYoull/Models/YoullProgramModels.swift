@_spi(EngageProvider) import EngageCore
import Foundation

/// A journey: a programme of content, followed step by step (linear) or freely (timeline).
public struct YoullJourney: Codable, Sendable, Hashable, Identifiable {
    /// The journey id.
    public var id: String
    /// The title, translated when possible.
    public var title: String
    /// What the journey is about.
    public var summary: String?
    /// Whether its steps are taken in order.
    public var isLinear: Bool
    /// Whether it is the user's active journey.
    public var isActive: Bool
    /// Its steps, in order.
    public var steps: [YoullJourneyStep]

    /// The share of steps completed, from 0 to 1.
    public var progress: Double {
        steps.isEmpty ? 0 : Double(steps.filter(\.isCompleted).count) / Double(steps.count)
    }

    init(wire: WireJourney, context: YoullDecodingContext) throws {
        let text = YoullLocalization.pick(
            title: wire.title, body: wire.description, translations: wire.translations, language: context.language)
        id = wire.id
        title = text.title
        summary = text.body
        isLinear = wire.isLinear
        isActive = wire.isActive
        steps = try wire.steps.sorted { $0.position < $1.position }.map { try YoullJourneyStep(wire: $0, context: context) }
    }
}

/// One step of a journey.
public struct YoullJourneyStep: Codable, Sendable, Hashable, Identifiable {
    /// The step id.
    public var id: String
    /// Its place in the journey, from 1.
    public var position: Int
    /// Whether the user completed it.
    public var isCompleted: Bool
    /// What the step plays or shows.
    public var content: YoullContent

    init(wire: WireJourneyStep, context: YoullDecodingContext) throws {
        id = wire.id
        position = wire.position
        isCompleted = wire.completed
        content = try YoullContent(wire: wire.content, context: context)
    }
}

/// A slice of the activity page: a programme of workouts.
public struct YoullActivitySlice: Codable, Sendable, Hashable, Identifiable {
    /// The slice id.
    public var id: String
    /// Its title.
    public var title: String
    /// The backend's kind of slice, e.g. `programme`, `challenge`.
    public var kind: String
    /// Its workouts, by day.
    public var workouts: [YoullWorkout]

    init(wire: WireActivitySlice) {
        id = wire.id
        title = wire.title
        kind = wire.kind
        workouts = wire.workouts.map(YoullWorkout.init(wire:)).sorted { $0.day < $1.day }
    }
}

/// A workout of an activity programme.
public struct YoullWorkout: Codable, Sendable, Hashable, Identifiable {
    /// The workout id.
    public var id: String
    /// Its title.
    public var title: String
    /// The programme day it belongs to, from 1.
    public var day: Int
    /// Whether the user completed it.
    public var isCompleted: Bool
    /// The content it plays, if any.
    public var contentID: String?
    /// The user's rating from 1 to 5, once given.
    public var feedbackRating: Int?

    init(wire: WireWorkout) {
        id = wire.id
        title = wire.title
        day = wire.day
        isCompleted = wire.completed
        contentID = wire.contentId
        feedbackRating = wire.feedbackRating
    }
}

/// An explore tag with how many items carry it.
public struct YoullExploreTag: Codable, Sendable, Hashable, Identifiable {
    /// The tag id.
    public var id: String
    /// Its display name.
    public var name: String
    /// How many items carry it.
    public var itemCount: Int

    init(wire: WireExploreTag) {
        id = wire.id
        name = wire.name
        itemCount = max(0, wire.itemCount)
    }
}

/// A live or scheduled event.
public struct YoullEvent: Codable, Sendable, Hashable, Identifiable {
    /// The event id.
    public var id: String
    /// The title, translated when possible.
    public var title: String
    /// The description, translated when possible.
    public var details: String?
    /// When it starts.
    public var startsAt: Date
    /// When it ends, if known.
    public var endsAt: Date?
    /// Where it happens (a place or `online`).
    public var location: String?
    /// How many can attend, if limited.
    public var capacity: Int?
    /// How many said they are going.
    public var attendeeCount: Int
    /// The user's answer, if they gave one.
    public var response: YoullEventResponse?

    init(wire: WireEvent, context: YoullDecodingContext) throws {
        let text = YoullLocalization.pick(
            title: wire.title, body: wire.description, translations: wire.translations, language: context.language)
        id = wire.id
        title = text.title
        details = text.body
        startsAt = try YoullDecoding.date(wire.startsAt, field: "starts_at", of: "event \(wire.id)")
        endsAt = try wire.endsAt.map { try YoullDecoding.date($0, field: "ends_at", of: "event \(wire.id)") }
        location = wire.location
        capacity = wire.capacity
        attendeeCount = max(0, wire.attendeeCount)
        response = wire.myResponse.flatMap(YoullEventResponse.init(rawValue:))
    }
}

/// A user's answer to an event invitation.
public enum YoullEventResponse: String, Codable, Sendable, CaseIterable {
    /// Will attend.
    case going
    /// Might attend.
    case interested
    /// Will not attend.
    case notGoing = "not_going"
}

/// A user's playlist.
public struct YoullPlaylist: Codable, Sendable, Hashable, Identifiable {
    /// The playlist id.
    public var id: String
    /// Its name.
    public var name: String
    /// When it was created.
    public var createdAt: Date
    /// Its content, in the order added.
    public var items: [YoullContent]

    init(wire: WirePlaylist, context: YoullDecodingContext) throws {
        id = wire.id
        name = wire.name
        createdAt = try YoullDecoding.date(wire.createdAt, field: "created_at", of: "playlist \(wire.id)")
        items = try wire.items.map { try YoullContent(wire: $0, context: context) }
    }
}

/// A meal of the user's meal plan.
public struct YoullMeal: Codable, Sendable, Hashable, Identifiable {
    /// The meal id.
    public var id: String
    /// Its title, translated when possible.
    public var title: String
    /// The plan day, from 1.
    public var day: Int
    /// `breakfast`, `lunch`, `dinner` or `snack`.
    public var kind: String
    /// Its energy, if known.
    public var calories: Int?
    /// Whether the user marked it as eaten.
    public var isChecked: Bool
    /// Its picture.
    public var imageURL: URL?

    init(wire: WireMeal, context: YoullDecodingContext) throws {
        id = wire.id
        title = YoullLocalization.pick(title: wire.title, body: nil, translations: wire.translations, language: context.language).title
        day = wire.day
        kind = wire.kind
        if let calories = wire.calories, calories < 0 { throw YoullDecoding.invalid("calories", "\(calories)", of: "meal \(wire.id)") }
        calories = wire.calories
        isChecked = wire.checked
        imageURL = wire.imageUrl.flatMap(YoullLocalization.url)
    }
}

/// A detail card of a meal: ingredients, steps or nutrition.
public struct YoullMealDetailCard: Codable, Sendable, Hashable, Identifiable {
    /// The card id.
    public var id: String
    /// The meal it describes.
    public var mealID: String
    /// `ingredients`, `steps` or `nutrition`.
    public var kind: String
    /// Its title.
    public var title: String
    /// Its text.
    public var body: String

    init(wire: WireMealDetailCard) {
        id = wire.id
        mealID = wire.mealId
        kind = wire.kind
        title = wire.title
        body = wire.body
    }
}

/// A search filter and its options.
public struct YoullSearchFilter: Codable, Sendable, Hashable, Identifiable {
    /// One choice of a filter.
    public struct Option: Codable, Sendable, Hashable, Identifiable {
        /// The option id, passed to ``YoullQuery/search(text:filterIDs:page:)``.
        public var id: String
        /// Its label.
        public var title: String
    }

    /// The filter id.
    public var id: String
    /// Its label.
    public var title: String
    /// Its options.
    public var options: [Option]

    init(wire: WireSearchFilter) {
        id = wire.id
        title = wire.title
        options = wire.options.map { Option(id: $0.id, title: $0.title) }
    }
}

/// A quiz and the user's saved answers.
public struct YoullQuiz: Codable, Sendable, Hashable, Identifiable {
    /// A question with its options.
    public struct Question: Codable, Sendable, Hashable, Identifiable {
        /// The question id.
        public var id: String
        /// Its text.
        public var text: String
        /// Its options, as (id, text).
        public var options: [Option]
        /// The option the user saved, if any.
        public var savedOptionID: String?
    }

    /// An option of a question.
    public struct Option: Codable, Sendable, Hashable, Identifiable {
        /// The option id.
        public var id: String
        /// Its text.
        public var text: String
    }

    /// The quiz id.
    public var id: String
    /// Its title.
    public var title: String
    /// Its questions, in order.
    public var questions: [Question]
    /// Whether the user submitted it.
    public var isCompleted: Bool

    init(wire: WireQuiz) {
        id = wire.id
        title = wire.title
        isCompleted = wire.completed
        questions = wire.questions.map { question in
            Question(
                id: question.id, text: question.text, options: question.options.map { Option(id: $0.id, text: $0.text) },
                savedOptionID: question.savedOptionId
            )
        }
    }
}

/// An answer to a quiz question.
public struct YoullQuizAnswer: Codable, Sendable, Hashable {
    /// The question.
    public var questionID: String
    /// The chosen option.
    public var optionID: String

    /// The answer `optionID` to `questionID`.
    public init(questionID: String, optionID: String) {
        self.questionID = questionID
        self.optionID = optionID
    }
}

/// The outcome of submitting a quiz.
public struct YoullQuizResult: Codable, Sendable, Hashable {
    /// The quiz.
    public var quizID: String
    /// How many questions were answered.
    public var answered: Int
    /// The score the backend gave.
    public var score: Int

    init(wire: WireQuizResult) {
        quizID = wire.quizId
        answered = wire.answered
        score = wire.score
    }
}

/// A registered store transaction.
public struct YoullTransaction: Codable, Sendable, Hashable, Identifiable {
    /// The backend's id of the registration.
    public var id: String
    /// `pending`, `verified` or `rejected`.
    public var status: String
    /// The store product.
    public var productID: String

    init(wire: WireTransaction) {
        id = wire.id
        status = wire.status
        productID = wire.productId
    }
}
