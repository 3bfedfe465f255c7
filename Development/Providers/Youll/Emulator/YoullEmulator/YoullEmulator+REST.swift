@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird

extension YoullEmulator {
    func addRESTRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        let rest = group.group("api/rest")
        rest.post("users") { request, context in
            try await self.userRoute(request, environment: environment) { userID in
                guard let body = try await self.readBody(request, context: context),
                    let registration = try? Self.decoder.decode(YoullEmulatorRequest.Register.self, from: body), !registration.name.isEmpty
                else { return SandboxResponse.error(.badRequest, code: "invalid_request", description: "Expected {\"name\": \"…\"}.") }
                let createdAt = self.timestamp()
                self.state.withLock {
                    $0.profiles[userID] = .init(name: registration.name, email: registration.email, pictureURL: nil, createdAt: createdAt)
                }
                return try self.profileResponse(userID: userID, stats: [], status: .created)
            }
        }
        rest.get("users/me") { request, _ in
            try await self.userRoute(request, environment: environment) { userID in
                let stats = (request.uri.queryParameters.get("stats") ?? "").split(separator: ",").map(String.init)
                return try self.profileResponse(userID: userID, stats: stats)
            }
        }
        rest.delete("users/me") { request, _ in
            try await self.userRoute(request, environment: environment) { userID in
                self.state.withLock { state in
                    state.deletedUsers.insert(userID)
                    state.profiles[userID] = nil
                    state.likes[userID] = nil
                    state.playlists[userID] = nil
                }
                return Response(status: .noContent)
            }
        }
        rest.get("users/me/badges") { request, _ in
            try await self.userRoute(request, environment: environment) { userID in
                let earned = self.state.withLock { $0.earnedBadges[userID] ?? [] }
                return try Self.json(Array(earned.reversed()) + self.catalogue.badges.reversed())
            }
        }
        rest.post("users/me/badges") { request, context in
            try await self.userRoute(request, environment: environment) { userID in
                guard let body = try await self.readBody(request, context: context),
                    let earn = try? Self.decoder.decode(YoullEmulatorRequest.EarnBadge.self, from: body)
                else { return SandboxResponse.error(.badRequest, code: "invalid_request", description: "Expected {\"badge_id\": \"…\"}.") }
                if let held = self.catalogue.badges.first(where: { $0.id == earn.badgeId }) { return try Self.json(held) }
                guard let badge = self.catalogue.earnableBadges.first(where: { $0.id == earn.badgeId }) else {
                    return SandboxResponse.error(.notFound, code: "not_found", description: "No badge '\(earn.badgeId.prefix(64))'.")
                }
                let now = self.timestamp()
                let (earned, isNew) = self.state.withLock { state -> (ServedBadge, Bool) in
                    if let earned = state.earnedBadges[userID]?.first(where: { $0.id == badge.id }) { return (earned, false) }
                    let earned = ServedBadge(id: badge.id, title: badge.title, imageUrl: badge.imageUrl, earnedAt: now)
                    state.earnedBadges[userID, default: []].append(earned)
                    return (earned, true)
                }
                return try Self.json(earned, status: isNew ? .created : .ok)
            }
        }
        rest.post("users/me/tracking-sessions") { request, context in
            try await self.userRoute(request, environment: environment) { userID in
                guard let body = try await self.readBody(request, context: context),
                    let session = try? Self.decoder.decode(YoullEmulatorRequest.TrackingSession.self, from: body),
                    Self.trackingSessionIsValid(session)
                else { return SandboxResponse.error(.badRequest, code: "invalid_request") }
                let isNew = self.state.withLock { state in
                    state.trackingSessions[userID, default: [:]].updateValue(session, forKey: session.id) == nil
                }
                return Response(status: isNew ? .created : .ok)
            }
        }
        rest.put("users/me/picture") { request, context in
            try await self.userRoute(request, environment: environment) { userID in
                guard let body = try await self.readBody(request, context: context) else {
                    return SandboxResponse.error(.contentTooLarge, code: "too_large")
                }
                guard let picture = Self.multipartFile(body, contentType: request.headers[.contentType] ?? ""), picture.count <= 5 << 20,
                    Self.isImage(picture)
                else {
                    return SandboxResponse.error(.badRequest, code: "invalid_picture", description: "Expected one JPEG or PNG file part.")
                }
                let createdAt = self.timestamp()
                self.state.withLock { state in
                    state.pictures[userID] = picture
                    var profile =
                        state.profiles[userID] ?? .init(name: "Member \(userID)", email: nil, pictureURL: nil, createdAt: createdAt)
                    profile.pictureURL = "https://cdn.youll.test/u/\(userID).jpg"
                    state.profiles[userID] = profile
                }
                return try self.profileResponse(userID: userID, stats: [])
            }
        }
        rest.get("users/me/notifications") { request, _ in
            try await self.userRoute(request, environment: environment) { userID in
                try Self.json(
                    self.state.withLock { $0.notificationSettings[userID] }
                        ?? ServedNotificationSettings(push: true, email: false, reminders: false, reminderHour: nil))
            }
        }
        rest.put("users/me/notifications") { request, context in
            try await self.userRoute(request, environment: environment) { userID in
                guard let body = try await self.readBody(request, context: context),
                    let settings = try? Self.decoder.decode(ServedNotificationSettings.self, from: body),
                    settings.reminderHour.map({ (0...23).contains($0) }) ?? true
                else { return SandboxResponse.error(.badRequest, code: "invalid_request") }
                self.state.withLock { $0.notificationSettings[userID] = settings }
                return try Self.json(settings)
            }
        }
        rest.post("content/:id/like") { request, context in
            try await self.userRoute(request, environment: environment) { userID in
                try self.like(context.parameters.get("id") ?? "", userID: userID, liked: true)
            }
        }
        rest.delete("content/:id/like") { request, context in
            try await self.userRoute(request, environment: environment) { userID in
                try self.like(context.parameters.get("id") ?? "", userID: userID, liked: false)
            }
        }
        rest.get("content/:id/reviews") { request, context in
            try await self.anyoneRoute(request, environment: environment) { userID in
                let contentID = context.parameters.get("id") ?? ""
                guard self.catalogue.content(id: contentID) != nil else { return SandboxResponse.error(.notFound, code: "not_found") }
                let limit = min(max(Int(request.uri.queryParameters.get("limit") ?? "") ?? 100, 1), 1_000)
                let offset = max(Int(request.uri.queryParameters.get("offset") ?? "") ?? 0, 0)
                let reviews = self.state.withLock { $0.reviews[contentID] ?? [] }.reversed().dropFirst(offset).prefix(limit)
                return try Self.json(reviews.map { self.review($0, contentID: contentID, viewer: userID) })
            }
        }
        rest.post("content/:id/reviews") { request, context in
            try await self.userRoute(request, environment: environment) { userID in
                let contentID = context.parameters.get("id") ?? ""
                guard self.catalogue.content(id: contentID) != nil else { return SandboxResponse.error(.notFound, code: "not_found") }
                guard let body = try await self.readBody(request, context: context),
                    let review = try? Self.decoder.decode(YoullEmulatorRequest.Review.self, from: body), (1...5).contains(review.rating),
                    (review.text?.count ?? 0) <= 2_000
                else {
                    return SandboxResponse.error(
                        .badRequest, code: "invalid_request", description: "A rating is 1 to 5; a text at most 2000 characters.")
                }
                let now = self.timestamp()
                let stored = self.state.withLock { state in
                    var list = state.reviews[contentID] ?? []
                    list.removeAll { $0.userID == userID }
                    let stored = YoullEmulatorState.Review(
                        id: state.makeID("r"), userID: userID, rating: review.rating, text: review.text, createdAt: now)
                    list.append(stored)
                    state.reviews[contentID] = list
                    return stored
                }
                return try Self.json(self.review(stored, contentID: contentID, viewer: userID), status: .created)
            }
        }
        rest.post("content/:id/timer-sessions") { request, context in
            try await self.userRoute(request, environment: environment) { userID in
                let contentID = context.parameters.get("id") ?? ""
                guard self.catalogue.content(id: contentID) != nil else { return SandboxResponse.error(.notFound, code: "not_found") }
                guard let body = try await self.readBody(request, context: context),
                    let session = try? Self.decoder.decode(YoullEmulatorRequest.TimerSession.self, from: body),
                    (0...86_400).contains(session.seconds)
                else { return SandboxResponse.error(.badRequest, code: "invalid_request") }
                self.state.withLock {
                    $0.timerSessions.append(
                        .init(userID: userID, contentID: contentID, seconds: session.seconds, completed: session.completed))
                }
                return Response(status: .noContent)
            }
        }
        rest.get("content/search") { request, _ in
            try await self.anyoneRoute(request, environment: environment) { userID in
                let text = (request.uri.queryParameters.get("q") ?? "").lowercased()
                let limit = min(max(Int(request.uri.queryParameters.get("limit") ?? "") ?? 10, 1), 100)
                let scored = Self.vectorScores(text: text, contents: self.catalogue.contents).prefix(limit)
                let items = scored.compactMap { self.content(id: $0.0, lang: nil, userID: userID) }
                return try Self.json(ServedVectorSearchResult(items: items, scores: scored.map(\.1)))
            }
        }
        rest.get("promo-offers") { request, _ in
            try await self.anyoneRoute(request, environment: environment) { _ in try Self.json(self.catalogue.promoOffers) }
        }
    }

    /// A deterministic stand-in for embeddings: the share of the query's words found in a title or the
    /// tags, best first, ties by id.
    static func vectorScores(text: String, contents: [YoullCatalogue.Content]) -> [(String, Double)] {
        let words = Set(text.split(separator: " ").map(String.init))
        guard !words.isEmpty else { return [] }
        var scored: [(String, Double)] = []
        for content in contents {
            var haystack = Set(content.title.en.lowercased().split(separator: " ").map(String.init))
            haystack.formUnion(content.tags)
            let score = Double(words.intersection(haystack).count) / Double(words.count)
            if score > 0 { scored.append((content.id, score)) }
        }
        return scored.sorted { $0.1 == $1.1 ? $0.0 < $1.0 : $0.1 > $1.1 }
    }

    /// Reads REST bodies: snake-case keys (`badge_id`) fill the emulator's camel-case properties.
    static var decoder: JSONDecoder { restDecoder }

    /// Reads REST bodies (see ``decoder``).
    static let restDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    /// Writes REST answers: the emulator's camel-case properties as snake-case keys (`image_url`), keys
    /// sorted, slashes unescaped.
    static let restEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        SandboxResponse.raw(try restEncoder.encode(value), status: status)
    }

    /// A stored review as the wire shows it to `viewer`.
    func review(_ review: YoullEmulatorState.Review, contentID: String, viewer: String?) -> ServedReview {
        let name = state.withLock { $0.profiles[review.userID]?.name } ?? "Member \(review.userID)"
        return ServedReview(
            id: review.id, contentId: contentID, rating: review.rating, text: review.text, authorName: name, createdAt: review.createdAt,
            isMine: review.userID == viewer)
    }

    /// Whether the backend takes `session`: an id of 1 to 64 letters, digits, `-` or `_`, RFC 3339 times
    /// with the end 0 to 24 hours after the start, and no negative screen count.
    static func trackingSessionIsValid(_ session: YoullEmulatorRequest.TrackingSession) -> Bool {
        guard (1...64).contains(session.id.count),
            session.id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }),
            let start = try? Date(session.startedAt, strategy: .iso8601), let end = try? Date(session.endedAt, strategy: .iso8601)
        else { return false }
        return (0...86_400).contains(end.timeIntervalSince(start)) && (session.screenCount ?? 0) >= 0
    }

    /// Runs `body` for the token's user; 401 without a valid token.
    func userRoute(_ request: Request, environment: EmulatorEnvironment, _ body: (String) async throws -> Response) async throws -> Response
    {
        switch caller(of: request, environment: environment) {
        case let .user(userID): return try await body(userID)
        case .refused(.expired): return SandboxResponse.error(.unauthorized, code: "invalid_token", description: "JWTExpired")
        case .refused: return SandboxResponse.error(.unauthorized, code: "invalid_token", description: "The token does not verify.")
        case .guest: return SandboxResponse.error(.unauthorized, code: "missing_token", description: "This route needs a user's token.")
        }
    }

    /// Runs `body` for the token's user or a guest; 401 for a bad token.
    func anyoneRoute(
        _ request: Request, environment: EmulatorEnvironment, _ body: (String?) async throws -> Response
    ) async throws -> Response {
        switch caller(of: request, environment: environment) {
        case let .user(userID): return try await body(userID)
        case .guest: return try await body(nil)
        case .refused(.expired): return SandboxResponse.error(.unauthorized, code: "invalid_token", description: "JWTExpired")
        case .refused: return SandboxResponse.error(.unauthorized, code: "invalid_token", description: "The token does not verify.")
        }
    }

    func profileResponse(userID: String, stats: [String], status: HTTPResponse.Status = .ok) throws -> Response {
        let (profile, sessions, liked) = state.withLock { state in
            (state.profiles[userID], state.timerSessions.filter { $0.userID == userID }, state.likes[userID]?.count ?? 0)
        }
        let known: [String: Int] = [
            "minutes": sessions.reduce(0) { $0 + $1.seconds } / 60, "sessions": sessions.count, "streak": min(sessions.count, 7),
            "likes": liked,
        ]
        let wire = ServedProfile(
            id: userID, name: profile?.name ?? "Member \(userID)", email: profile?.email, pictureUrl: profile?.pictureURL,
            stats: known.filter { stats.contains($0.key) }, createdAt: profile?.createdAt ?? "2026-01-01T00:00:00Z"
        )
        return try Self.json(wire, status: status)
    }

    func like(_ contentID: String, userID: String, liked: Bool) throws -> Response {
        guard catalogue.content(id: contentID) != nil else { return SandboxResponse.error(.notFound, code: "not_found") }
        state.withLock { state in
            state.likes[userID, default: []].removeAll { $0 == contentID }
            if liked { state.likes[userID, default: []].append(contentID) }
        }
        let content = self.content(id: contentID, lang: nil, userID: userID)
        return try Self.json(ServedLikeResult(contentId: contentID, isLiked: liked, likeCount: content?.likeCount ?? 0))
    }

    /// The bytes of the first file part of a `multipart/form-data` body.
    static func multipartFile(_ body: Data, contentType: String) -> Data? {
        guard let range = contentType.range(of: "boundary=") else { return nil }
        let boundary = Data(("--" + contentType[range.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: "\" "))).utf8)
        guard let first = body.range(of: boundary),
            let headerEnd = body.range(of: Data("\r\n\r\n".utf8), in: first.upperBound..<body.endIndex),
            let next = body.range(of: Data("\r\n".utf8) + boundary, in: headerEnd.upperBound..<body.endIndex)
        else { return nil }
        return body.subdata(in: headerEnd.upperBound..<next.lowerBound)
    }

    static func isImage(_ data: Data) -> Bool {
        data.starts(with: [0xFF, 0xD8, 0xFF]) || data.starts(with: [0x89, 0x50, 0x4E, 0x47])
    }
}
