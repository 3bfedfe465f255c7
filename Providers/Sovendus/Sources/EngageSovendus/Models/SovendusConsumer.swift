import Crypto
@_spi(EngageProvider) import EngageCore
import Foundation

/// The customer who placed the order: what the Sovendus banner pre-fills its voucher forms with.
///
/// Every field is optional. Text fields are free text (the banner page encodes them safely); the
/// typed ones (salutation, year and date of birth, country) are checked when they are used. Its
/// description, `dump` and mirror show which fields are set, never their values.
public struct SovendusConsumer: Sendable, Hashable {
    /// How the consumer is addressed (`consumerSalutation`).
    public enum Salutation: String, Sendable, Hashable, CaseIterable, Codable {
        /// Written `Mr.`.
        case mr = "Mr."
        /// Written `Mrs.`.
        case mrs = "Mrs."
    }

    /// A calendar date of birth, written `dd.MM.yyyy` (`consumerDateOfBirth`), e.g. `01.12.1990`.
    public struct BirthDate: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The year, 1900 to 2100.
        public let year: Int
        /// The month, 1 to 12.
        public let month: Int
        /// The day of the month, valid for the month and year.
        public let day: Int

        /// A date of birth; throws `.invalidInput` for a day that does not exist (31 April, 29 February
        /// 2023) or a year outside 1900...2100.
        public init(year: Int, month: Int, day: Int) throws(EngageError) {
            guard (1900...2100).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day) else {
                // The message does not repeat the date: a date of birth is personal data.
                throw EngageError(.invalidInput, "The date of birth is not a calendar date between 1900 and 2100.", providerID: .sovendus)
            }
            self.year = year
            self.month = month
            self.day = day
        }

        enum CodingKeys: String, CodingKey { case year, month, day }

        /// Decodes `{year, month, day}` with the same checks as ``init(year:month:day:)``.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try self.init(
                year: try container.decode(Int.self, forKey: .year), month: try container.decode(Int.self, forKey: .month),
                day: try container.decode(Int.self, forKey: .day)
            )
        }

        /// `dd.MM.yyyy`, as Sovendus reads it.
        public var description: String {
            "\(Self.twoDigits(day)).\(Self.twoDigits(month)).\(year)"
        }

        private static func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

        private static func days(inMonth month: Int, year: Int) -> Int {
            switch month {
            case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
            case 4, 6, 9, 11: return 30
            default: return 31
            }
        }
    }

    /// `Mr.` or `Mrs.`.
    public var salutation: Salutation?
    /// Given name (`consumerFirstName`).
    public var firstName: String?
    /// Family name (`consumerLastName`).
    public var lastName: String?
    /// E-mail address (`consumerEmail`); also sent as its MD5 hash (``emailHash``).
    public var email: String?
    /// Phone number (`consumerPhone`).
    public var phone: String?
    /// Year of birth (`consumerYearOfBirth`), 1900 to 2100.
    public var yearOfBirth: Int?
    /// Date of birth (`consumerDateOfBirth`).
    public var dateOfBirth: BirthDate?
    /// Street (`consumerStreet`).
    public var street: String?
    /// House number, e.g. `12/1` (`consumerStreetNumber`).
    public var streetNumber: String?
    /// Postal code (`consumerZipcode`).
    public var zipCode: String?
    /// City (`consumerCity`).
    public var city: String?
    /// ISO 3166-1 alpha-2 country code, two upper-case letters (`consumerCountry`), e.g. `DE`.
    public var country: String?
    /// The consumer's language (`consumerLanguage`), e.g. `de`.
    public var language: String?

    /// A consumer; every field is optional.
    public init(
        salutation: Salutation? = nil, firstName: String? = nil, lastName: String? = nil, email: String? = nil,
        phone: String? = nil, yearOfBirth: Int? = nil, dateOfBirth: BirthDate? = nil, street: String? = nil,
        streetNumber: String? = nil, zipCode: String? = nil, city: String? = nil, country: String? = nil, language: String? = nil
    ) {
        self.salutation = salutation
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.phone = phone
        self.yearOfBirth = yearOfBirth
        self.dateOfBirth = dateOfBirth
        self.street = street
        self.streetNumber = streetNumber
        self.zipCode = zipCode
        self.city = city
        self.country = country
        self.language = language
    }

    /// The MD5 of the trimmed, lower-cased e-mail address, in lower-case hex (`consumerEmailHash`,
    /// and the redemption's `email_hash`); `nil` without an address.
    public var emailHash: String? {
        guard let email else { return nil }
        let normalized = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return Insecure.MD5.hash(data: Data(normalized.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Which fields are set, by their Sovendus names; never a value.
    public var description: String {
        "SovendusConsumer(set: \(presentFields.filter(\.value).map(\.key).sorted().joined(separator: ", ")))"
    }

    /// Every personal field by its Sovendus name (without the `consumer` prefix), and whether it is set.
    var presentFields: [String: Bool] {
        [
            "salutation": salutation != nil, "firstName": firstName != nil, "lastName": lastName != nil, "email": email != nil,
            "phone": phone != nil, "yearOfBirth": yearOfBirth != nil, "dateOfBirth": dateOfBirth != nil, "street": street != nil,
            "streetNumber": streetNumber != nil, "zipcode": zipCode != nil, "city": city != nil, "country": country != nil,
            "language": language != nil,
        ]
    }

    /// Problems that keep this consumer from being sent, as sentences naming the field.
    func validationIssues() -> [String] {
        var issues: [String] = []
        if let yearOfBirth, !(1900...2100).contains(yearOfBirth) {
            issues.append("The year of birth must be between 1900 and 2100.")
        }
        if let country, !SovendusText.isCountryCode(country) {
            issues.append("The country must be an ISO 3166-1 alpha-2 code of two upper-case letters, such as DE.")
        }
        if let language, !Self.isLanguageCode(language) {
            issues.append("The language must be a code such as de or de-AT.")
        }
        let texts: [(String, String?)] = [
            ("first name", firstName), ("last name", lastName), ("e-mail address", email), ("phone number", phone),
            ("street", street), ("street number", streetNumber), ("zip code", zipCode), ("city", city),
        ]
        for case let (name, value?) in texts where value.utf8.count > SovendusText.maxFieldBytes {
            issues.append("The \(name) must be at most \(SovendusText.maxFieldBytes) bytes of UTF-8.")
        }
        return issues
    }

    static func isLanguageCode(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count), parts.count <= 2,
            language.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) })
        else { return false }
        return parts.count == 1
            || (2...4).contains(parts[1].count)
                && parts[1].unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension SovendusConsumer: SecretBearing {}
