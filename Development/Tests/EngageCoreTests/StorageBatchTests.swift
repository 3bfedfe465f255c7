@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import Foundation
import Testing

/// A login's tokens and the provider data of the same session are written in one transaction. Before,
/// they were two commits: a failure (or a crash) between them left the new session's data beside the
/// old tokens.
@Suite("Storage batches: a session's tokens and its companion data commit together", .bounded)
struct StorageBatchTests {
    @Test("setTokens(_:alongside:): when the tokens cannot be saved, the companion data is not written either")
    func tokensAndCompanionAreOneTransaction() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let companion = try database.namespace("provider")
        // A store whose namespace has no sealer: saving the tokens fails after the companion's write.
        let tokens = SealedTokenStore(namespace: try database.namespace("provider-tokens"))
        let manager = TokenManager(providerID: "test", refresher: ClosureTokenRefresher { $0 }, store: tokens)
        await #expect(throws: EngageError.self) {
            try await manager.setTokens(TokenPair(accessToken: "a", refreshToken: "r")) {
                try companion.setData(Data("new session's credentials".utf8), forKey: "credentials")
            }
        }
        #expect(try companion.data(forKey: "credentials") == nil, "the companion data outlived the failed token save")
    }

    @Test("a batch commits every write and removal of its body, or none when the body throws")
    func commitOrNothing() throws {
        let database = try EngageDatabase(location: .inMemory)
        let first = try database.namespace("first")
        let second = try database.namespace("second")
        try second.setData(Data("old".utf8), forKey: "gone")
        try StorageBatch.atomically {
            try first.setData(Data("1".utf8), forKey: "a")
            try second.removeValue(forKey: "gone")
            #expect(try first.data(forKey: "a") == nil, "collected, not yet committed")
        }
        #expect(try first.data(forKey: "a") == Data("1".utf8))
        #expect(try second.data(forKey: "gone") == nil)

        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try StorageBatch.atomically {
                try first.setData(Data("2".utf8), forKey: "a")
                throw Stop()
            }
        }
        #expect(try first.data(forKey: "a") == Data("1".utf8), "a batch whose body threw wrote nothing")
    }
}
