@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

// App configuration, facilitators, the user's account over REST, and promo offers.

extension YoullQuery {
    /// The player's settings, e.g. `autoplay`, `skip_seconds` (`player_config`).
    public static func playerConfig() -> YoullQuery<[String: String]> { settings("player_config") }
    /// The onboarding flow's settings (`onboarding_config`).
    public static func onboardingConfig() -> YoullQuery<[String: String]> { settings("onboarding_config") }
    /// The onboarding quiz's settings, e.g. `quiz_id` (`quiz_config`).
    public static func quizConfig() -> YoullQuery<[String: String]> { settings("quiz_config") }
    /// The app's remote configuration (`app_config`).
    public static func appConfig() -> YoullQuery<[String: String]> { settings("app_config") }

    /// A home-screen widget's settings (`widget_config`).
    public static func widgetConfig(widget: String) -> YoullQuery<[String: String]> {
        .graphQL(
            "widget_config", field: "widget_config",
            document: "query WidgetConfig($widget: String!) { widget_config(widget: $widget) { key value } }",
            variables: ["widget": .string(widget)], as: [WireSetting].self
        ) { wire, _ in try YoullSettingsDecoding.dictionary(wire, of: "widget_config") }
    }

    private static func settings(_ name: String) -> YoullQuery<[String: String]> {
        let operation = YoullNaming.operationName(name)
        return .graphQL(name, field: name, document: "query \(operation) { \(name) { key value } }", as: [WireSetting].self) { wire, _ in
            try YoullSettingsDecoding.dictionary(wire, of: name)
        }
    }

    /// The paywall's social proof (`social_proof`).
    public static func socialProof() -> YoullQuery<YoullSocialProof> {
        .graphQL(
            "social_proof", field: "social_proof", document: "query SocialProof { social_proof { headline member_count rating } }",
            as: WireSocialProof.self
        ) { wire, _ in try YoullSocialProof(wire: wire) }
    }

    /// The paywall configured for `placement` (e.g. `onboarding`, `content_locked`), `nil` when the
    /// placement has none (`paywall_config`; the Youll SDK's `GetPaywallConfigQuery`).
    ///
    /// An empty placement, or one over 64 characters or with characters other than letters, digits,
    /// `_` and `-`, fails with `.invalidInput` before anything is sent.
    public static func paywallConfig(placement: String) -> YoullQuery<YoullPaywallConfig?> {
        guard (1...64).contains(placement.count),
            placement.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else {
            return .failing(
                "paywall_config",
                EngageError(.invalidInput, "A paywall placement is 1 to 64 letters, digits, '_' or '-'.", providerID: .youll))
        }
        return .graphQL(
            "paywall_config", field: "paywall_config",
            document: "query PaywallConfig($placement: String!) { paywall_config(placement: $placement) { \(YoullDocuments.paywall) } }",
            variables: ["placement": .string(placement)], as: WirePaywallConfig?.self
        ) { wire, _ in try wire.map(YoullPaywallConfig.init(wire:)) }
    }

    /// The super paywall, the app-wide offer (`super_paywall_config`; the Youll SDK's
    /// `getSuperPaywallConfig`). The Youll SDK reads it with `.cacheThenNetwork`, to show the last
    /// offer at once and then the current one: pass that policy to do the same.
    public static func superPaywallConfig() -> YoullQuery<YoullPaywallConfig> {
        .graphQL(
            "super_paywall_config", field: "super_paywall_config",
            document: "query SuperPaywallConfig { super_paywall_config { \(YoullDocuments.paywall) } }", as: WirePaywallConfig.self
        ) { wire, _ in try YoullPaywallConfig(wire: wire) }
    }

    /// One facilitator, `nil` when unknown (`facilitator`).
    public static func facilitator(id: String) -> YoullQuery<YoullFacilitator?> {
        .graphQL(
            "facilitator", field: "facilitator_by_pk",
            document: "query Facilitator($id: String!) { facilitator_by_pk(id: $id) { \(YoullDocuments.facilitator) } }",
            variables: ["id": .string(id)], as: WireFacilitator?.self
        ) { wire, _ in wire.map(YoullFacilitator.init(wire:)) }
    }

    /// The facilitators with these ids that exist, in the order asked (`facilitators`).
    public static func facilitators(ids: [String]) -> YoullQuery<[YoullFacilitator]> {
        .graphQL(
            "facilitators", field: "facilitators",
            document: "query Facilitators($ids: [String!]!) { facilitators(ids: $ids) { \(YoullDocuments.facilitator) } }",
            variables: ["ids": .array(ids.map(JSONValue.string))], as: [WireFacilitator].self
        ) { wire, _ in wire.map(YoullFacilitator.init(wire:)) }
    }

    /// The user's profile with the named statistics, over REST `GET /users/me` (`profile`; needs a
    /// user). Fetch it with `.cacheOnly` for an instant start from the last answer.
    public static func profile(stats: [String] = ["minutes", "sessions", "streak"]) -> YoullQuery<YoullProfile> {
        .rest("profile", userScoped: true, path: "/users/me", query: [("stats", stats.joined(separator: ","))], as: WireProfile.self) {
            wire, _ in
            try YoullProfile(wire: wire)
        }
    }

    /// The badges the user earned, newest first, over REST (`earned_badges`; needs a user).
    public static func earnedBadges() -> YoullQuery<[YoullBadge]> {
        .rest("earned_badges", userScoped: true, path: "/users/me/badges", as: [WireBadge].self) { wire, _ in
            try wire.map(YoullBadge.init(wire:))
        }
    }

    /// The user's notification settings, over REST (`notification_settings`; needs a user).
    public static func notificationSettings() -> YoullQuery<YoullNotificationSettings> {
        .rest("notification_settings", userScoped: true, path: "/users/me/notifications", as: WireNotificationSettings.self) { wire, _ in
            YoullNotificationSettings(wire: wire)
        }
    }

    /// The promotional offers, over REST (`promo_offers`).
    public static func promoOffers() -> YoullQuery<[YoullPromoOffer]> {
        .rest("promo_offers", path: "/promo-offers", as: [WirePromoOffer].self) { wire, _ in try wire.map(YoullPromoOffer.init(wire:)) }
    }
}

extension YoullMutation {
    /// Awards the badge `id` to the user and returns it, over REST (`earn_badge`; needs a user). A
    /// badge the user has already is returned as it was earned; an unknown badge is Youll's 404.
    public static func earnBadge(id: String) -> YoullMutation<YoullBadge> {
        guard (1...128).contains(id.count), !id.contains(where: \.isNewline) else {
            return .failing("earn_badge", EngageError(.invalidInput, "A badge id is 1 to 128 characters on one line.", providerID: .youll))
        }
        return .rest(
            "earn_badge", method: .post, path: "/users/me/badges", body: YoullJSON.body(WireRequest.EarnBadge(badgeId: id)),
            as: WireBadge.self
        ) { wire, _ in try YoullBadge(wire: wire) }
    }

    /// Records a stretch of time the user spent in the app, over REST (`tracking_session`; needs a
    /// user). Youll records a session id once, so sending the same session again after a failure that
    /// may have reached it is safe.
    ///
    /// Refused before sending: an id that is not 1 to 64 letters, digits, `-` or `_`; an end before
    /// the start or more than 24 hours after it; a negative screen count.
    public static func trackingSession(_ session: YoullTrackingSession) -> YoullMutation<Void> {
        let duration = session.endedAt.timeIntervalSince(session.startedAt)
        let validID =
            (1...64).contains(session.id.count)
            && session.id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        guard validID, duration.isFinite, (0...86_400).contains(duration), (session.screenCount ?? 0) >= 0 else {
            return .failing(
                "tracking_session",
                EngageError(
                    .invalidInput,
                    "A tracking session has an id of 1 to 64 letters, digits, '-' or '_', lasts 0 to 24 hours and counts no negative screens.",
                    providerID: .youll))
        }
        return .restVoid(
            "tracking_session", method: .post, path: "/users/me/tracking-sessions",
            body: YoullJSON.body(
                WireRequest.TrackingSession(
                    id: session.id, startedAt: session.startedAt.formatted(.iso8601), endedAt: session.endedAt.formatted(.iso8601),
                    screenCount: session.screenCount))
        )
    }

    /// Registers the logged-in user with the backend after sign-up, over REST `POST /users`
    /// (`register_user`; needs a user's token).
    public static func registerUser(name: String, email: String? = nil, language: String? = nil) -> YoullMutation<YoullProfile> {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(trimmed.count) else {
            return .failing("register_user", EngageError(.invalidInput, "A name has 1 to 100 characters.", providerID: .youll))
        }
        return .rest(
            "register_user", method: .post, path: "/users",
            body: YoullJSON.body(WireRequest.Register(name: trimmed, email: email, language: language)), as: WireProfile.self
        ) { wire, _ in try YoullProfile(wire: wire) }
    }

    /// Deletes the user's account and data on the backend, over REST `DELETE /users/me`
    /// (`delete_account`; needs a user). Log out through the host app afterwards.
    public static func deleteAccount() -> YoullMutation<Void> {
        .restVoid("delete_account", method: .delete, path: "/users/me")
    }

    /// Replaces the profile picture, uploaded as `multipart/form-data` (`upload_profile_picture`;
    /// needs a user). JPEG or PNG, at most 5 MiB; anything else is refused before it is sent.
    public static func uploadProfilePicture(_ image: Data, mimeType: String) -> YoullMutation<YoullProfile> {
        guard ["image/jpeg", "image/png"].contains(mimeType) else {
            return .failing(
                "upload_profile_picture", EngageError(.invalidInput, "A profile picture is image/jpeg or image/png.", providerID: .youll))
        }
        guard !image.isEmpty, image.count <= 5 * 1024 * 1024 else {
            return .failing(
                "upload_profile_picture", EngageError(.invalidInput, "A profile picture has 1 byte to 5 MiB.", providerID: .youll))
        }
        let file = mimeType == "image/png" ? "picture.png" : "picture.jpg"
        return .rest(
            "upload_profile_picture", method: .put, path: "/users/me/picture",
            body: YoullMultipart.body(field: "picture", fileName: file, mimeType: mimeType, data: image), as: WireProfile.self
        ) { wire, _ in try YoullProfile(wire: wire) }
    }

    /// Replaces the user's notification settings and returns them as stored (`update_notification_settings`;
    /// needs a user). A reminder hour outside 0–23 is refused before it is sent.
    public static func updateNotificationSettings(_ settings: YoullNotificationSettings) -> YoullMutation<YoullNotificationSettings> {
        if let hour = settings.reminderHour, !(0...23).contains(hour) {
            return .failing(
                "update_notification_settings", EngageError(.invalidInput, "reminderHour is 0 to 23 (got \(hour)).", providerID: .youll))
        }
        return .rest(
            "update_notification_settings", method: .put, path: "/users/me/notifications", body: YoullJSON.body(settings.wire),
            as: WireNotificationSettings.self
        ) { wire, _ in YoullNotificationSettings(wire: wire) }
    }
}

enum YoullSettingsDecoding {
    /// Settings as a dictionary; a key given twice is an error rather than a silent choice.
    static func dictionary(_ settings: [WireSetting], of name: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for setting in settings {
            guard result.updateValue(setting.value, forKey: setting.key) == nil else {
                throw EngageError(.decoding, "Youll's \(name) names '\(String(setting.key.prefix(40)))' twice.", providerID: .youll)
            }
        }
        return result
    }
}

/// `multipart/form-data` with one file part.
package enum YoullMultipart {
    static func body(field: String, fileName: String, mimeType: String, data: Data) -> APIClient.Body {
        // A fresh random boundary: 122 random bits never occur in an image by chance.
        let boundary = "engagekit-" + UUID().uuidString
        var body = Data()
        body.append(Data("--\(boundary)\r\n".utf8))
        body.append(Data("Content-Disposition: form-data; name=\"\(field)\"; filename=\"\(fileName)\"\r\n".utf8))
        body.append(Data("Content-Type: \(mimeType)\r\n\r\n".utf8))
        body.append(data)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return .data(body, contentType: "multipart/form-data; boundary=\(boundary)")
    }
}
