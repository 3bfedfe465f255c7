@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

/// A provider that numbers its one error code.
private final class NumberedProvider: EngageProvider {
    static let descriptor = ProviderDescriptor(id: "numbered", displayName: "Numbered", version: "1.0.0")
    static let errorCodes = [EngageError.Code.Entry("numbered.failed", number: 990_101, summary: "A numbered failure.")]
    init(configuration: ScriptedConfiguration, context: ProviderContext) async throws {}
    func start() async throws {}
    func shutdown() async {}
}

/// A provider whose code takes the number `NumberedProvider`'s has.
private final class ClashingProvider: EngageProvider {
    static let descriptor = ProviderDescriptor(id: "clashing", displayName: "Clashing", version: "1.0.0")
    static let errorCodes = [EngageError.Code.Entry("clashing.failed", number: 990_101, summary: "The same number.")]
    init(configuration: ScriptedConfiguration, context: ProviderContext) async throws {}
    func start() async throws {}
    func shutdown() async {}
}

/// Each provider registers its own error codes with the core; together with the core's they are the
/// checked-in list.
@Suite("Providers register their error codes", .bounded)
struct ErrorCodeRegistrationTests {
    /// The repository's root: this file is in Development/Tests/<target>/.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The core's codes and every built-in provider's, by text.
    static func everyCode() -> [String: Int] {
        var codes = EngageError.Code.coreTable.mapValues(\.number)
        for factory in Engage.builtInProviders {
            for entry in factory.errorCodes { codes[entry.code.rawValue] = entry.number }
        }
        return codes
    }

    @Test("the core's and the built-in providers' codes are api/error-codes.txt, each number once, each documented")
    func checkedInList() throws {
        let codes = Self.everyCode()
        #expect(Set(codes.values).count == codes.count, "two codes share a number")
        let listed = try String(contentsOf: Self.root.appendingPathComponent("api/error-codes.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        let table = codes.sorted { $0.value < $1.value }.map { "\($0.value) \($0.key)" }
        #expect(table == listed, "api/error-codes.txt and the registered codes differ: append new codes to both, never renumber")
        let documented = try String(contentsOf: Self.root.appendingPathComponent("docs/errors.md"), encoding: .utf8)
        for (code, number) in codes {
            #expect(documented.contains("| \(number) | `\(code)` |"), "docs/errors.md does not list \(code)")
        }
    }

    @Test("every code EngageKit declares is numbered by the core or by its provider")
    func everyDeclaredCodeNumbered() throws {
        let pattern = try Regex(#"static let `?[A-Za-z]+`?: (?:Self|EngageError\.Code) = "([^"]+)""#)
        var declared = Set<String>()
        for folder in ["Sources", "Providers"] {
            let enumerator = FileManager.default.enumerator(at: Self.root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift", !url.path.contains("/Tests/"), !url.path.contains("/Emulator/") else { continue }
                // Declarations only: doc comments show example codes.
                let text = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
                    .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
                // Only codes: other string-backed constants (offer kinds, capabilities) live in other extensions.
                for block in text.split(separator: "extension EngageError.Code").dropFirst() {
                    let body = block.prefix { $0 != "}" }
                    for match in body.matches(of: pattern) {
                        if let name = match.output[1].substring { declared.insert(String(name)) }
                    }
                }
            }
        }
        #expect(declared.count >= 40)
        let missing = declared.subtracting(Self.everyCode().keys)
        #expect(missing.isEmpty, "codes without a number: \(missing.sorted())")
    }

    @Test("registering a provider registers its codes; a provider whose number another code has is refused, naming it")
    func registryRegisters() async throws {
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try await registry.register(.provider(NumberedProvider.self, configuration: ScriptedConfiguration()))
        let code: EngageError.Code = "numbered.failed"
        #expect((EngageError(code, "failed") as NSError).code == 990_101)
        #expect(String(reflecting: EngageError(code, "failed")).contains("Meaning: A numbered failure."))
        let error = await #expect(throws: EngageError.self) {
            try await registry.register(.provider(ClashingProvider.self, configuration: ScriptedConfiguration()))
        }
        #expect(error?.code == .invalidConfiguration && error?.providerID == "clashing")
        #expect(error?.message.contains("990101") == true)
        await registry.shutdown()
    }

    @Test("a built-in provider's code has its listed number once the provider is registered")
    func builtInNumbers() throws {
        for factory in Engage.builtInProviders { try EngageError.Code.register(factory.errorCodes) }
        #expect(EngageError.Code.warplyCouponNotRedeemableNumber == EngageError.Code(rawValue: "warply.couponNotRedeemable").number)
    }
}

extension EngageError.Code {
    /// The number the list gives Warply's coupon code, spelled out so a renumbering fails here too.
    fileprivate static let warplyCouponNotRedeemableNumber = 1003
}
