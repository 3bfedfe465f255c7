@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
import EngageTestTraits
import Testing
import YoullEmulator

/// The seed's content reviews, badge earning, tracking sessions and share links against the emulator
/// over real HTTP.
@Suite(.bounded) struct YoullEngagementTests {
    @Test func reviewsAreOnePerUserNewestFirstAndSayWhoseTheyAre() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        #expect(try await youll.fetch(.reviews(contentID: "c-002")).isEmpty)
        youll.setSession(harness.userSession("u-1"))
        let first = try await youll.perform(.review(contentID: "c-002", rating: 4, text: "  Calming.  "))
        #expect(first.rating == 4 && first.text == "Calming." && first.isMine && first.contentID == "c-002")
        youll.setSession(harness.userSession("u-2"))
        _ = try await youll.perform(.review(contentID: "c-002", rating: 5))
        let seenByU2 = try await youll.fetch(.reviews(contentID: "c-002"))
        #expect(seenByU2.map(\.rating) == [5, 4] && seenByU2.map(\.isMine) == [true, false] && seenByU2[0].text == nil)
        // Reviewing again replaces the user's review.
        youll.setSession(harness.userSession("u-1"))
        _ = try await youll.perform(.review(contentID: "c-002", rating: 2, text: "Too long for me"))
        let seenByU1 = try await youll.fetch(.reviews(contentID: "c-002"))
        #expect(seenByU1.map(\.rating) == [2, 5] && seenByU1.map(\.isMine) == [true, false])
        #expect(try await youll.fetch(.reviews(contentID: "c-002", page: PageRequest(offset: 1, limit: 5))).map(\.rating) == [5])

        for (rating, text) in [(0, nil), (6, nil), (3, String(repeating: "x", count: 2_001))] as [(Int, String?)] {
            await #expect { try await youll.perform(.review(contentID: "c-002", rating: rating, text: text)) } throws: {
                ($0 as? EngageError)?.code == .invalidInput
            }
        }
        await #expect { try await youll.perform(.review(contentID: "no-such", rating: 3)) } throws: {
            ($0 as? EngageError)?.httpStatus == 404
        }
        #expect(try await youll.fetch(.reviews(contentID: "c-002")).count == 2)
    }

    @Test func earningABadgeOnceAddsItToTheEarnedBadges() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession("u-5"))
        let owl = try await youll.perform(.earnBadge(id: "b-night-owl"))
        #expect(owl.id == "b-night-owl" && owl.title == "Night owl" && owl.earnedAt == harness.clock.now.wholeSeconds)
        harness.clock.advance(by: .seconds(60))
        let again = try await youll.perform(.earnBadge(id: "b-night-owl"))
        #expect(again.earnedAt == owl.earnedAt, "a badge is earned once")
        #expect(try await youll.fetch(.earnedBadges()).map(\.id) == ["b-night-owl", "b-week", "b-first"])
        #expect(harness.emulator.earnedBadgeIDs(of: "u-5") == ["b-night-owl"])
        await #expect { try await youll.perform(.earnBadge(id: "b-unknown")) } throws: { ($0 as? EngageError)?.httpStatus == 404 }
        await #expect { try await youll.perform(.earnBadge(id: "")) } throws: { ($0 as? EngageError)?.code == .invalidInput }
    }

    @Test func trackingSessionsAreRecordedOncePerID() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        youll.setSession(harness.userSession("u-6"))
        let start = harness.clock.now.addingTimeInterval(-600)
        let session = YoullTrackingSession(id: "s-morning-1", startedAt: start, endedAt: harness.clock.now, screenCount: 7)
        #expect(session.duration == .seconds(600))
        try await youll.perform(.trackingSession(session))
        try await youll.perform(.trackingSession(session))
        try await youll.perform(.trackingSession(YoullTrackingSession(startedAt: start, endedAt: start)))
        #expect(harness.emulator.trackingSessionIDs(of: "u-6").count == 2)
        #expect(harness.emulator.trackingSessionIDs(of: "u-6").contains("s-morning-1"))
        let sent = try #require(await harness.requests(path: "/users/me/tracking-sessions").first)
        #expect(sent.bodyText?.contains(#""screen_count":7"#) == true && sent.bodyText?.contains(#""started_at":""#) == true)

        let bad = [
            YoullTrackingSession(id: "", startedAt: start, endedAt: start),
            YoullTrackingSession(id: "a b", startedAt: start, endedAt: start),
            YoullTrackingSession(id: "late", startedAt: start, endedAt: start.addingTimeInterval(-1)),
            YoullTrackingSession(id: "long", startedAt: start, endedAt: start.addingTimeInterval(86_401)),
            YoullTrackingSession(id: "screens", startedAt: start, endedAt: start, screenCount: -1),
        ]
        for session in bad {
            await #expect { try await youll.perform(.trackingSession(session)) } throws: { ($0 as? EngageError)?.code == .invalidInput }
        }
        #expect(await harness.requests(path: "/users/me/tracking-sessions").count == 3)
    }

    @Test func aTrackingSessionsDurationIsNeverATrap() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(YoullTrackingSession(startedAt: start, endedAt: start.addingTimeInterval(90)).duration == .seconds(90))
        #expect(YoullTrackingSession(startedAt: start, endedAt: Date(timeIntervalSince1970: .infinity)).duration == .zero)
        #expect(YoullTrackingSession(startedAt: start, endedAt: Date(timeIntervalSince1970: 1e300)).duration > .seconds(86_400))
        #expect(YoullTrackingSession(startedAt: start, endedAt: start.addingTimeInterval(-5)).duration == .zero)
    }

    @Test func shareLinksAreHTTPSAndStable() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        let link = try #require(try await youll.fetch(.shareLink(contentID: "c-004")))
        #expect(link.url.scheme == "https" && link.url.host == "envoy.youll.test")
        #expect(link.expiresAt == harness.clock.now.wholeSeconds.addingTimeInterval(30 * 86_400))
        #expect(try await youll.fetch(.shareLink(contentID: "c-004"))?.url == link.url)
        #expect(try await youll.fetch(.shareLink(contentID: "c-005"))?.url != link.url)
        #expect(try await youll.fetch(.shareLink(contentID: "no-such")) == nil)

        for url in ["http://envoy.youll.test/s/x", "javascript:alert(1)", "/s/relative", "https://", "not a url"] {
            #expect { try YoullShareLink(wire: WireShareLink(url: url, expiresAt: nil)) } throws: {
                ($0 as? EngageError)?.code == .decoding
            }
        }
        #expect {
            try YoullReview(
                wire: WireReview(
                    id: "r", contentId: "c", rating: 9, text: nil, authorName: nil, createdAt: "2026-01-01T00:00:00Z", isMine: false))
        } throws: {
            ($0 as? EngageError)?.code == .decoding
        }
    }
}
