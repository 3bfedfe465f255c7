@_spi(EngageProvider) import EngageCore
import Foundation

/// The signed-in user's profile (`consumer_data` / `handle_user_details` with `process: get`, in the
/// `MAPP_USER` section).
///
/// Wire form:
/// ```json
/// { "consumer_uuid": "u-1", "email": "maria@example.gr", "firstname": "Μαρία", "lastname": "Παπαδοπούλου",
///   "display_name": "Μαρία Π.", "birthday": "1990-05-17", "gender": "female", "msisdn": "306900000000",
///   "loyalty_id": "L-100", "user_points": "1250", "tier": "gold", "nameday": "08-15",
///   "image_url": "https:\/\/…\/u-1.jpg", "subscribe": "true", "language": "el" }
/// ```
/// No field is required. `description` redacts the email and the phone number.
public struct WarplyProfile: Codable, Sendable, Hashable {
    /// The user's id (`consumer_uuid`).
    public var userID: String?
    /// The email address. Personal: never log it.
    public var email: String?
    /// The first name (`firstname`).
    public var firstName: String?
    /// The last name (`lastname`).
    public var lastName: String?
    /// The name to show (`display_name`).
    public var displayName: String?
    /// The date of birth (`birthday`).
    public var birthday: WarplyTimestamp?
    /// The gender, as the server spells it.
    public var gender: String?
    /// The mobile number (`msisdn`). Personal: never log it.
    public var msisdn: String?
    /// The loyalty programme id (`loyalty_id`).
    public var loyaltyID: String?
    /// The points balance (`user_points`); 0 when not sent.
    public var points: Int
    /// The loyalty tier (`tier`).
    public var tier: String?
    /// The name day (`nameday`), as the server spells it.
    public var nameDay: String?
    /// The profile picture address (`image_url`).
    public var imageURL: String?
    /// Whether the user accepts marketing communication (`subscribe`).
    public var isSubscribed: Bool
    /// The preferred language (`language`), e.g. `el` or `en`.
    public var language: String?

    /// `imageURL` as a `URL`, when it is one.
    public var resolvedImageURL: URL? { WarplyModelSupport.url(imageURL) }

    /// A summary with the email and the phone number redacted (names are left out).
    public var description: String {
        "WarplyProfile(userID: \(WarplyModelSupport.show(userID)), email: \(WarplyModelSupport.redacted(email)), "
            + "msisdn: \(WarplyModelSupport.redacted(msisdn)), loyaltyID: \(WarplyModelSupport.show(loyaltyID)), points: \(points), "
            + "tier: \(WarplyModelSupport.show(tier)), isSubscribed: \(isSubscribed), language: \(WarplyModelSupport.show(language)))"
    }

    enum CodingKeys: String, CodingKey {
        case userID = "consumer_uuid"
        case email
        case firstName = "firstname"
        case lastName = "lastname"
        case displayName = "display_name"
        case birthday, gender, msisdn
        case loyaltyID = "loyalty_id"
        case points = "user_points"
        case tier
        case nameDay = "nameday"
        case imageURL = "image_url"
        case isSubscribed = "subscribe"
        case language
    }

    /// A profile; every field is optional.
    public init(
        userID: String? = nil,
        email: String? = nil,
        firstName: String? = nil,
        lastName: String? = nil,
        displayName: String? = nil,
        birthday: WarplyTimestamp? = nil,
        gender: String? = nil,
        msisdn: String? = nil,
        loyaltyID: String? = nil,
        points: Int = 0,
        tier: String? = nil,
        nameDay: String? = nil,
        imageURL: String? = nil,
        isSubscribed: Bool = false,
        language: String? = nil
    ) {
        self.userID = userID
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.displayName = displayName
        self.birthday = birthday
        self.gender = gender
        self.msisdn = msisdn
        self.loyaltyID = loyaltyID
        self.points = points
        self.tier = tier
        self.nameDay = nameDay
        self.imageURL = imageURL
        self.isSubscribed = isSubscribed
        self.language = language
    }

    /// Decodes the wire form leniently; throws when a field has a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userID = try container.looseString(forKey: .userID)
        email = try container.looseString(forKey: .email)
        firstName = try container.looseString(forKey: .firstName)
        lastName = try container.looseString(forKey: .lastName)
        displayName = try container.looseString(forKey: .displayName)
        birthday = try container.looseTimestamp(forKey: .birthday)
        gender = try container.looseString(forKey: .gender)
        msisdn = try container.looseString(forKey: .msisdn)
        loyaltyID = try container.looseString(forKey: .loyaltyID)
        points = try container.looseInt(forKey: .points) ?? 0
        tier = try container.looseString(forKey: .tier)
        nameDay = try container.looseString(forKey: .nameDay)
        imageURL = try container.cleanedURLString(forKey: .imageURL)
        isSubscribed = try container.looseBool(forKey: .isSubscribed) ?? false
        language = try container.looseString(forKey: .language)
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension WarplyProfile: SecretBearing {}
