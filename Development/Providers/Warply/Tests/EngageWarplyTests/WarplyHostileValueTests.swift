@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing

/// Warply's public `Codable` values not covered by the configuration sweep: hostile JSON decodes to a
/// value or an error, never a trap.
@Suite("Hostile input: Warply Codable values", .bounded)
struct WarplyHostileValueTests {
    @Test("environments (also a custom URL), languages and network statuses")
    func warplyValues() throws {
        var problems: [String] = []
        let custom = try #require(URL(string: "https://engage.example.com/warply"))
        for (index, environment) in [WarplyEnvironment.development, .production, .custom(custom)].enumerated() {
            problems += try HostileJSON.problems(decoding: environment, seed: UInt64(400 + index))
        }
        problems += try HostileJSON.problems(decoding: WarplyLanguage.allCases[0], seed: 410)
        problems += try HostileJSON.problems(decoding: WarplyNetworkStatus.connected, seed: 411)
        #expect(problems.isEmpty, "\(problems)")
    }
}
