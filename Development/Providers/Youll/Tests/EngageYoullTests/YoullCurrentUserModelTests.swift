@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
import Observation
import EngageTestTraits
import Testing
import YoullEmulator

/// `youll.currentUser`: the session's user and profile, following the host app's session handovers,
/// the user's own changes and log-out. End to end against the emulator.
@MainActor
@Suite(.bounded) struct YoullCurrentUserModelTests {
    @Test func theUserFollowsTheSessionTheProfileAndLogOut() async throws {
        guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) else { return }  // Observation
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let user = harness.youll.currentUser
        #expect(harness.youll.currentUser === user)

        // A guest: nothing to load, and nothing is sent for it.
        await user.refresh()
        #expect(!user.isSignedIn && user.userID == nil && user.profile == nil && user.lastError == nil)

        // The host hands over a session: the profile loads without the app asking.
        let changed = TestGate()
        withObservationTracking {
            _ = user.profile
        } onChange: {
            changed.open()
        }
        harness.youll.setSession(harness.userSession("u-42"))
        await changed.wait()
        #expect(await waitUntil { user.profile?.id == "u-42" && !user.isLoading })
        #expect(user.isSignedIn && user.userID == "u-42" && user.lastError == nil)

        // The user's registration changes the name: the profile follows.
        _ = try await harness.youll.perform(.registerUser(name: "Eleni"))
        #expect(await waitUntil { user.profile?.name == "Eleni" })

        // Log-out empties it.
        try await harness.youll.logOut()
        #expect(await waitUntil { user.profile == nil && !user.isSignedIn && user.userID == nil })
    }

    @Test("the iOS 16 form: updates delivers the user after each change, from a handed-over session to log-out")
    func updatesFollowTheUser() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let user = harness.youll.currentUser
        var updates = user.updates.makeAsyncIterator()
        #expect(await updates.next()?.isSignedIn == false)

        harness.youll.setSession(harness.userSession("u-42"))
        var loaded: YoullCurrentUser.Snapshot?
        while loaded == nil, let snapshot = await updates.next() {
            if snapshot.profile?.id == "u-42", !snapshot.isLoading { loaded = snapshot }
        }
        #expect(loaded?.isSignedIn == true && loaded?.userID == "u-42" && loaded?.lastError == nil)

        try await harness.youll.logOut()
        var emptied: YoullCurrentUser.Snapshot?
        while emptied == nil, let snapshot = await updates.next() {
            if !snapshot.isSignedIn { emptied = snapshot }
        }
        #expect(emptied?.userID == nil && emptied?.profile == nil && emptied?.isLoading == false && emptied?.lastError == nil)
    }

    @Test("engage.youll.currentUser is there before the providers started, and follows the session once Youll runs")
    func theFacadesUserIsReadBeforeTheStart() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.youll-tests")
        configuration.storage = .inMemory
        configuration.network.timeoutSeconds = 20
        try configuration.add(
            .youll(
                YoullConfiguration(
                    graphQLEndpoint: harness.base.appendingPathComponent("v1/graphql"),
                    restBaseURL: harness.base.appendingPathComponent("api/rest"),
                    appVersion: "9.9.9")))
        // Returns at once: the provider starts in the background.
        let engage = try Engage(
            configuration: configuration, environment: RegistryEnvironment(clock: harness.clock, secretStore: InMemorySecretStore()))
        let user = engage.youll.currentUser
        #expect(engage.youll.currentUser === user && !user.isSignedIn && user.profile == nil)
        let youll = try await engage.provider(YoullProvider.self)
        #expect(youll.currentUser === user)
        youll.setSession(harness.userSession("u-7"))
        #expect(await waitUntil { user.profile?.id == "u-7" && user.isSignedIn })
        await engage.shutdown()
    }

    @Test(.bounded(deadline: .seconds(120))) func aRenameWhileTheProfileLoadsShowsTheNewName() async throws {
        let transport = HoldingTransport(pathSuffix: "/users/me")
        let harness = try await YoullHarness.make(transport: transport)
        defer { Task { await harness.stop() } }
        let user = harness.youll.currentUser
        harness.youll.setSession(harness.userSession("u-3"))
        #expect(await waitUntil { user.profile?.id == "u-3" && !user.isLoading })
        let before = user.profile?.name
        // A load answered with the old name is held while the user renames themselves.
        // A refresh may join the session's own load, sent before: `holdAnswer` then asks again.
        let load = await transport.holdAnswer { await user.refresh() }
        _ = try await harness.youll.perform(.registerUser(name: "Renamed"))
        transport.release.open()
        await load.value
        #expect(before != "Renamed")
        #expect(await waitUntil { user.profile?.name == "Renamed" && !user.isLoading })
    }

    @Test func aProfileThatDoesNotLoadIsAnErrorAndTheNextSessionClearsIt() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let user = harness.youll.currentUser
        // A signed-in session without a token: the profile needs one, so it fails before sending.
        harness.youll.setSession(TestSession(token: nil, userID: "u-7"))
        #expect(await waitUntil { user.lastError?.code == .youllMissingAccessToken })
        #expect(user.isSignedIn && user.profile == nil && !user.isLoading)
        harness.youll.setSession(harness.userSession("u-7"))
        #expect(await waitUntil { user.profile?.id == "u-7" && user.lastError == nil })
    }
}
