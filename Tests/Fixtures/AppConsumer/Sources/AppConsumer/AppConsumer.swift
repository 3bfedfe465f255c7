import Engage
import EngageTestKit
import Foundation

/// The documented app path, end to end against engage-sandbox. Every check prints what it saw; the
/// first that does not hold ends the program with status 1.
@main
struct AppConsumer {
    @MainActor
    static func main() async {
        do {
            try await run()
            print("AppConsumer: every check held")
        } catch {
            fail("unexpected error: \(error.localizedDescription)")
        }
    }

    @MainActor
    static func run() async throws {
        guard let path = ProcessInfo.processInfo.environment["ENGAGE_CONFIGURATION"] else {
            fail("set ENGAGE_CONFIGURATION to engage-sandbox's --configuration-out file")
        }

        // Before configure: the shared instance is a stand-in whose operations fail with a bridged error.
        check(!Engage.isConfigured, "not configured before configure")
        do {
            _ = try await Engage.shared.offers()
            fail("an operation before configure must fail")
        } catch {
            let bridged = error as NSError
            check(bridged.domain == EngageError.errorDomain, "the error's NSError domain is \(bridged.domain)")
            check(bridged.code == EngageError.Code.notConfigured.number, "the error's NSError code is \(bridged.code)")
            // The user reads a sentence without technical detail; the developer reads what to do.
            check(
                error.localizedDescription == "Something went wrong. Please try again later.",
                "the user's text: \(error.localizedDescription)")
            let reason = error.failureReason ?? ""
            check(reason.contains("configure"), "the failure reason says what to do: \(reason)")
        }

        // The app's start, as in application(_:didFinishLaunchingWithOptions:): synchronous.
        let configuration = try EngageConfiguration.load(json: Data(contentsOf: URL(fileURLWithPath: path)))
        try Engage.configure(with: configuration)
        check(Engage.isConfigured, "configured after configure")
        let engage = Engage.shared
        let version = Engage.version.split(separator: ".")
        check(version.count == 3 && version.allSatisfy { Int($0) != nil }, "Engage.version is major.minor.patch: \(Engage.version)")

        // The start report: every provider of the sandbox's configuration started, and it has no
        // setting nothing reads.
        let report = await engage.waitUntilReady()
        check(report.failures.isEmpty, "every provider started: \(report.failures)")
        check(report.unknownKeys.isEmpty, "the sandbox's configuration has no unknown settings: \(report.unknownKeys)")

        // Identity reaches every provider with a user; Youll's host-owned session is "not applicable".
        let login = try await engage.logIn(UserIdentity(userID: "u-app", email: "app@example.com"))
        print(
            "logIn: succeeded \(login.succeeded.map(\.rawValue).sorted()), not applicable \(login.notApplicable.keys.map(\.rawValue).sorted())"
        )
        check(login.isComplete, "logIn reached every provider: \(login.failures)")
        check(login.succeeded.contains(.warply) && login.succeeded.contains(.crobox), "Warply and Crobox took the user")

        // Tracking, with JSON property values.
        let tracked = try await engage.track(TrackedEvent(.purchase, properties: ["plan": "gold", "items": 3, "gift": true]))
        check(tracked.isComplete, "track: \(tracked.failures)")

        // Offers from every offers provider, merged.
        let offers = try await engage.offers(OfferQuery(productIDs: ["sku-1", "sku-2"], placementID: "12"))
        let providers = Set(offers.items.map(\.providerID.rawValue)).sorted()
        print("offers: \(offers.items.count) from \(providers)")
        check(!offers.items.isEmpty && offers.isComplete, "offers arrived from every provider: \(offers.report.failures)")

        // Links: the sandbox's configuration routes the Warply emulator's campaign pages; any other URL
        // stays the app's.
        if let unrelated = URL(string: "https://example.com/account/settings") {
            check(!engage.handle(unrelated), "an unrelated URL is not a provider's link")
        }
        check(!configuration.links.routes.isEmpty, "the sandbox's configuration routes provider links")
        if let route = configuration.links.routes.first,
            let link = URL(string: route.template.replacingOccurrences(of: "{id}", with: "0f1e2d3c4b5a69788796a5b4c3d2e1f0"))
        {
            check(engage.handle(link), "a \(route.provider) link is the provider's: \(link)")
        }

        // Screens and the push token reach the providers that take them.
        let screen = try await engage.screen("Home", properties: ["tab": "offers"])
        check(screen.isComplete, "screen: \(screen.failures)")
        let push = try await engage.setPushToken(Data([0xDE, 0xAD, 0xBE, 0xEF]))
        check(push.isComplete, "setPushToken: \(push.failures)")

        // A refusal, as an app shows it: Warply logs users in by e-mail.
        let refused = try await engage.logIn(UserIdentity(userID: "u-without-email"))
        guard let warplyError = refused.failures[.warply] else { fail("Warply must refuse a login without an e-mail") }
        let nsError = warplyError as NSError
        print("refusal: \(warplyError.localizedDescription) / \(warplyError.failureReason ?? "") [\(nsError.domain) \(nsError.code)]")
        check(
            warplyError.localizedDescription == "Some of the details aren't valid. Please check them and try again.",
            "the user's text for a refused input: \(warplyError.localizedDescription)")
        check(nsError.code == EngageError.Code.invalidInput.number, "the refusal's NSError code is \(nsError.code)")
        check(
            warplyError.message.contains("e-mail") || warplyError.message.contains("email"),
            "the message names the e-mail")
        _ = try await engage.logIn(UserIdentity(userID: "u-app", email: "app@example.com"))

        // A provider's model, read synchronously from the facade, on every OS: SwiftUI observes it from
        // iOS 17; an iOS 16 view reads its snapshots from `updates`.
        let wallet = engage.warply.wallet
        await wallet.refresh()
        check(
            wallet.lastError == nil && wallet.points != nil, "the wallet shows the user's points (\(String(describing: wallet.lastError)))")
        for await snapshot in wallet.updates {
            check(snapshot == wallet.snapshot, "the wallet's first update is its current snapshot")
            print("wallet: \(snapshot.points ?? 0) points, \(snapshot.activeCoupons.count) active coupons")
            break
        }

        // Observable state (iOS 17 / macOS 14; always on Linux), updated on the main actor.
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) {
            let state = engage.state
            let settled = await eventually { state.isReady && state.user?.userID == "u-app" }
            check(settled, "engage.state shows readiness and the user (ready: \(state.isReady), user: \(state.user?.userID ?? "none"))")
            check(state.failedProviders.isEmpty, "no provider failed to start: \(state.failedProviders)")
            print(
                "state: ready, \(state.startedProviders.count) providers, user \(state.user?.userID ?? "none"), \(state.pendingEventCount) events queued"
            )
        }
        let snapshot = engage.currentState
        check(snapshot.isReady && snapshot.isAnalyticsEnabled, "the current snapshot is ready, analytics on")

        let flushed = await engage.flush()
        print("flush: \(flushed)")
        _ = try await engage.logOut()
        await engage.shutdown()

        // The app test kit, as a preview or a unit test uses it: no SPI, no network, no shared state.
        let fake = EngageFake(offers: [Offer(id: "o-1", providerID: "fake", kind: .coupon, title: LocalizedText("10 % off"))])
        _ = await fake.engage.waitUntilReady()
        check(try await fake.engage.offers().items.map(\.id) == ["o-1"], "the fake answers its offers")
        _ = try await fake.engage.screen("Preview")
        check(fake.trackedEvents.map(\.name) == ["Preview"], "the fake records a screen: \(fake.trackedEvents.map(\.name))")
        await fake.engage.shutdown()
    }

    /// Polls `condition` on the main actor until it holds, for at most ten seconds.
    @MainActor
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    static func check(_ condition: Bool, _ what: String) {
        if condition {
            print("ok: \(what)")
        } else {
            fail(what)
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("AppConsumer failed: \(message)\n".utf8))
        exit(1)
    }
}
