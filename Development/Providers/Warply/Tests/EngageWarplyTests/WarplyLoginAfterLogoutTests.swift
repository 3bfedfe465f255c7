@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import EngageTestTraits
import Foundation
import Testing
import WarplyEmulator

/// A login whose answer arrives after the user logged out (or the app reset the provider) must not
/// log them back in. Before, `register`, `logIn(deiEmail:)`, `logIn(cosmoteGUID:ticket:)` and `logIn(cosmoteGUID:)` each installed
/// the session regardless.
@Suite("Warply: a logout while a login's answer is on its way wins", .bounded)
struct WarplyLoginAfterLogoutTests {
    enum Login: String, CaseIterable, Sendable {
        case register, deiLogin, verifyTicket, cosmoteUser

        func run(_ warply: WarplyProvider) async throws {
            switch self {
            case .register: try await warply.register(WarplySignUpAndDeviceTests.signUp)
            case .deiLogin: try await warply.logIn(deiEmail: "maria@example.gr")
            case .verifyTicket: try await warply.logIn(cosmoteGUID: "guid-77", ticket: "ticket-123")
            case .cosmoteUser: try await warply.logIn(cosmoteGUID: "GUID-5")
            }
        }
    }

    @Test("each login: a logout between its answer and its install keeps the user logged out", arguments: Login.allCases)
    func logoutWins(login: Login) async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        // The answer has arrived; the user logs out before the provider installs it.
        warply.beforeSessionInstall.withLock { $0 = { [warply] in try? await warply.logOut() } }
        await #expect { try await login.run(warply) } throws: { error in
            (error as? EngageError)?.code == .cancelled
        }
        warply.beforeSessionInstall.withLock { $0 = nil }
        #expect(try await warply.isLoggedIn() == false, "\(login) installed its session after the logout")
        #expect(try warply.session.clientCredentials() == nil, "\(login) kept client credentials after the logout")
        // A login after the logout works as before (the account signed up already: a DEI login).
        try await (login == .register ? Login.deiLogin : login).run(warply)
        #expect(try await warply.isLoggedIn())
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a reset between a login's answer and its install keeps the user forgotten")
    func resetWins() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        warply.beforeSessionInstall.withLock { $0 = { [warply] in try? await warply.reset() } }
        await #expect(throws: EngageError.self) { try await warply.logIn(deiEmail: "maria@example.gr") }
        warply.beforeSessionInstall.withLock { $0 = nil }
        #expect(try await warply.isLoggedIn() == false)
        await engage.shutdown()
        await harness.stop()
    }
}
