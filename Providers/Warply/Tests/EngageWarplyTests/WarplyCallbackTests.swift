// The completion-handler forms of the Warply operations, end to end, and a source check that every
// public async operation has its completion-handler twin.
import Engage
import EngageSandbox
import EngageTesting
import EngageWarply
import Foundation
import Logging
import Testing
import WarplyEmulator

/// Runs a completion-handler call and returns what it delivered.
private func delivered<Value: Sendable>(
    _ start: (@escaping @Sendable (Result<Value, EngageError>) -> Void) -> any EngageCancellable
) async -> Result<Value, EngageError> {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, EngageError>, Never>) in
        _ = start { result in continuation.resume(returning: result) }
    }
}

@Suite("Warply completion handlers end to end")
struct WarplyCallbackTests {
    @Test("login, campaigns, coupons, redeem and add card through their completion handlers")
    func callbacksSucceed() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()

        let login = await delivered { warply.deiLogin(email: "maria@example.gr", completion: $0) }
        #expect((try? login.get()) != nil)
        #expect(try await delivered { warply.isLoggedIn(completion: $0) }.get())

        let campaigns = try await delivered { warply.campaigns(completion: $0) }.get()
        #expect(campaigns.count == 10)
        #expect(campaigns == warply.state.campaignList)

        let coupons = try await delivered { warply.coupons(completion: $0) }.get()
        #expect(coupons.active.count == 4 && coupons.redeemed.count == 4)

        let set = try #require(WarplyE2E.soldOutAndAvailableSets(harness.emulator).available.sorted().first)
        let stock = try #require(harness.emulator.availability(ofCouponSet: set))
        let redemption = try await delivered { warply.redeemCoupon(productUUID: set, completion: $0) }.get()
        #expect(redemption.couponSetUUID == set)
        #expect(harness.emulator.availability(ofCouponSet: set) == stock - 1)

        let year = Calendar(identifier: .gregorian).component(.year, from: harness.clock.now) + 3
        let card = try await delivered {
            warply.addCard(WarplyNewCard(number: "5555555555554444", issuer: "MC", holder: "A B", expirationMonth: 4, expirationYear: year), completion: $0)
        }.get()
        #expect(card.maskedNumber == "**** **** **** 4444")
        let cards = try await delivered { warply.cards(completion: $0) }.get()
        #expect(cards.map(\.token) == [card.token])

        let merchants = try await delivered { warply.merchants(WarplyMerchantQuery(tags: ["coffee"]), completion: $0) }.get()
        #expect(merchants.count == 2)
        let offers = try await delivered { warply.offers(OfferQuery(), completion: $0) }.get()
        #expect(offers.contains { $0.kind == .coupon })

        let logout = await delivered { warply.logout(completion: $0) }
        #expect((try? logout.get()) != nil)
        #expect(try await warply.isLoggedIn() == false)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("failing operations deliver .failure with the EngageError")
    func callbacksFail() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let badLogin = await delivered { warply.deiLogin(email: "nobody", completion: $0) }
        guard case let .failure(loginError) = badLogin else {
            Issue.record("A login with a malformed email succeeded")
            return
        }
        #expect(loginError.code == .invalidInput)
        #expect(loginError.providerID == .warply)

        let noSession = await delivered { warply.coupons(completion: $0) }
        guard case let .failure(sessionError) = noSession else {
            Issue.record("coupons() without a session succeeded")
            return
        }
        #expect(sessionError.code == .unauthorized)

        try await warply.deiLogin(email: "maria@example.gr")
        let soldOut = try #require(WarplyE2E.soldOutAndAvailableSets(harness.emulator).soldOut.first)
        let redeem = await delivered { warply.redeemCoupon(productUUID: soldOut, completion: $0) }
        guard case let .failure(redeemError) = redeem else {
            Issue.record("Redeeming a sold-out set succeeded")
            return
        }
        #expect(redeemError.code == .warplyCouponNotRedeemable)

        let unknown = await delivered { warply.singleCampaign(sessionUUID: "nope", completion: $0) }
        guard case let .failure(unknownError) = unknown else {
            Issue.record("An unknown session was found")
            return
        }
        #expect(unknownError.code == .warplyRequestRejected)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("completions run on the main actor, where main-actor state is used without assumeIsolated")
    func completionsOnMainActor() async throws {
        let harness = try await WarplyHarness()
        let configuration = try harness.configuration(harness.warplyConfiguration())
        let engage = try await Engage.start(
            configuration: configuration,
            environment: RegistryEnvironment(
                clock: harness.clock, random: SeededRandomSource(seed: 9), secretStore: InMemorySecretStore(),
                logger: Logger(label: "warply-tests")
            )
        )
        let warply = try await engage.provider(WarplyProvider.self)
        let screen = CategoriesScreen()
        // On Linux the main queue may be drained by a thread other than the first one, so the test asks
        // the queue, not `Thread.isMainThread`.
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        let onMainQueue = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            warply.merchantCategories { result in
                // Typed `@MainActor`: the screen's state is set directly, as UI code would.
                screen.categoryCount = (try? result.get().count) ?? -1
                continuation.resume(returning: DispatchQueue.getSpecific(key: key) == "main")
            }
        }
        #expect(onMainQueue)
        #expect(await screen.categoryCount > 0)
        await engage.shutdown()
        await harness.stop()
    }

    // MARK: Every async operation has a completion twin

    @Test("every public async throws operation of WarplyProvider has a completion-handler twin")
    func everyOperationHasATwin() throws {
        let sources = try WarplySourceCheck.providerSources()
        #expect(sources.count >= 10)
        let declarations = sources.flatMap { WarplySourceCheck.providerFunctions(in: $0.text) }
        let operations = declarations.filter { $0.isAsyncThrows }
        // The parser sees the real operations (so an empty result cannot pass unnoticed).
        #expect(operations.count >= 40)
        for name in ["campaigns", "redeemCoupon", "addCard", "merchants", "deiLogin", "track", "offers", "logOut"] {
            #expect(operations.contains { $0.name == name }, "\(name) was not found")
        }
        // The registry's lifecycle hook is not an app operation; keep the exemption honest.
        for name in WarplySourceCheck.lifecycleHooks {
            #expect(operations.contains { $0.name == name }, "the exempted \(name) no longer exists")
        }
        let missing = WarplySourceCheck.missingTwins(declarations)
        #expect(missing.isEmpty, "no completion twin: \(missing)")
    }

    @Test("the twin check catches a missing twin (the parser on samples and on a copy of the real source)")
    func twinCheckFindsMissingTwins() throws {
        let sample = #"""
            import Foundation
            /* extension WarplyProvider { public func ghost() async throws {} } */
            // public func commented() async throws {}
            extension WarplyProvider {
                /// public func documented() async throws — only a comment
                public func paired(_ value: Int, label other: [String: Int] = [:]) async throws -> Int { 1 }
                @discardableResult
                public func paired(_ value: Int, label other: [String: Int] = [:], completion: @escaping Completion<Int>) -> any EngageCancellable {
                    context.callback(completion) { try await self.paired(value, label: other) }
                }
                public func lonely(text: String = "{ not a brace )") async throws(EngageError) {
                    let inner = "\(text.count) { public func fake() async throws {} \("(")"
                    _ = inner
                }
                public func lonely(text: String, extra: Int, completion: @escaping Completion<Void>) -> any EngageCancellable { fatalError() }
                public func synchronous() -> Int { 0 }
                func internalOnly() async throws {}
                public func overloaded(_ query: A) async throws {}
                public func overloaded(_ query: B) async throws -> [B] { [] }
                public func overloaded(_ query: A, completion: @escaping (Result<Void, EngageError>) -> Void) -> any EngageCancellable { fatalError() }
                public func generic<T: Sendable>(_ value: T) async throws -> T { value }
                public func generic<T: Sendable>(_ value: T, completion: @escaping Completion<T>) -> any EngageCancellable { fatalError() }
            }
            extension SomethingElse {
                public func notTheProvider() async throws {}
            }
            public final class WarplyProvider: EngageProvider {
                public func start() async throws {}
                struct Nested {
                    public func nestedType() async throws {}
                }
            }
            """#
        let declarations = WarplySourceCheck.providerFunctions(in: sample)
        let operations = declarations.filter { $0.isAsyncThrows }.map(\.signature)
        #expect(operations == ["paired(_:label:)", "lonely(text:)", "overloaded(_:)", "overloaded(_:)", "generic(_:)", "start()"])
        #expect(!declarations.contains { ["ghost", "commented", "documented", "fake", "notTheProvider", "nestedType", "internalOnly"].contains($0.name) })
        #expect(declarations.contains { $0.name == "synchronous" && !$0.isAsyncThrows })
        let missing = WarplySourceCheck.missingTwins(declarations)
        #expect(missing == ["lonely(text: String)", "overloaded(_: B)"])

        // A copy of the real sources with one twin renamed away is caught.
        let sources = try WarplySourceCheck.providerSources()
        let callbacks = try #require(sources.first { $0.name == "WarplyProvider+Callbacks.swift" })
        let broken = callbacks.text.replacingOccurrences(of: "public func profile(completion:", with: "public func profileLater(completion:")
        #expect(broken != callbacks.text)
        let brokenDeclarations = sources.filter { $0.name != callbacks.name }.flatMap { WarplySourceCheck.providerFunctions(in: $0.text) }
            + WarplySourceCheck.providerFunctions(in: broken)
        #expect(WarplySourceCheck.missingTwins(brokenDeclarations) == ["profile()"])
        // And one whose parameters no longer match.
        let mismatched = callbacks.text.replacingOccurrences(
            of: "public func validateCoupon(code: String, completion:", with: "public func validateCoupon(coupon: String, completion:"
        )
        #expect(mismatched != callbacks.text)
        let mismatchedDeclarations = sources.filter { $0.name != callbacks.name }.flatMap { WarplySourceCheck.providerFunctions(in: $0.text) }
            + WarplySourceCheck.providerFunctions(in: mismatched)
        #expect(WarplySourceCheck.missingTwins(mismatchedDeclarations) == ["validateCoupon(code: String)"])
    }
}

/// Reads the provider's Swift sources and finds the `public func` declarations of `WarplyProvider`.
enum WarplySourceCheck {
    /// `async throws` members that are the registry's lifecycle hooks (`EngageProvider.start()`), called by
    /// `Engage.start`, not by apps: they have no completion twin by design.
    static let lifecycleHooks: Set<String> = ["start"]

    struct Source {
        var name: String
        var text: String
    }

    struct Declaration: Hashable {
        var name: String
        /// Each parameter as `label: Type` (default values dropped, whitespace removed from the type).
        var parameters: [Parameter]
        var isAsyncThrows: Bool

        var signature: String { "\(name)(\(parameters.map { $0.label + ":" }.joined()))" }
        var fullSignature: String { "\(name)(\(parameters.map { "\($0.label): \($0.type)" }.joined(separator: ", ")))" }
    }

    struct Parameter: Hashable {
        var label: String
        var type: String
    }

    /// Every `.swift` file under `Providers/Warply/Sources/EngageWarply`, found from this file's path.
    static func providerSources(filePath: String = #filePath) throws -> [Source] {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/EngageWarply").standardizedFileURL
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        var sources: [Source] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            sources.append(Source(name: url.lastPathComponent, text: try String(contentsOf: url, encoding: .utf8)))
        }
        return sources.sorted { $0.name < $1.name }
    }

    /// The `async throws` declarations without a twin (same name, same parameters, plus a last
    /// `completion:` parameter), as `name(label: Type, …)`, in declaration order.
    static func missingTwins(_ declarations: [Declaration]) -> [String] {
        declarations.filter { $0.isAsyncThrows && !lifecycleHooks.contains($0.name) }.filter { operation in
            !declarations.contains { twin in
                twin.name == operation.name && !twin.isAsyncThrows && twin.parameters.last?.label == "completion"
                    && Array(twin.parameters.dropLast()) == operation.parameters
            }
        }.map(\.fullSignature)
    }

    /// The `public func` declarations directly inside `extension WarplyProvider` / `class WarplyProvider`
    /// bodies of `source` (not in comments, strings or nested types).
    static func providerFunctions(in source: String) -> [Declaration] {
        let code = Array(codeOnly(source))
        var declarations: [Declaration] = []
        var scopes: [Bool] = []  // for each open brace: does it open a WarplyProvider body?
        var headerStart = 0
        var index = 0
        while index < code.count {
            let character = code[index]
            if character == "{" {
                let header = String(code[headerStart..<index])
                scopes.append(isProviderHeader(header))
                headerStart = index + 1
            } else if character == "}" {
                _ = scopes.popLast()
                headerStart = index + 1
            } else if character == ";" {
                headerStart = index + 1
            } else if scopes.last == true, matchesPublicFunc(in: code, at: index) {
                if let (declaration, end) = parseFunction(code, from: index + publicFunc.count) {
                    declarations.append(declaration)
                    index = end
                    headerStart = end
                    continue
                }
            }
            index += 1
        }
        return declarations
    }

    private static func isProviderHeader(_ header: String) -> Bool {
        let words = header.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
        guard let position = words.firstIndex(where: { $0 == "extension" || $0 == "class" }) else { return false }
        return words.indices.contains(position + 1) && words[position + 1] == "WarplyProvider"
    }

    private static func isIdentifier(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private static let publicFunc = Array("public func")

    private static func matchesPublicFunc(in code: [Character], at index: Int) -> Bool {
        let characters = publicFunc
        guard code[index] == "p", index + characters.count < code.count, code[index..<index + characters.count].elementsEqual(characters) else {
            return false
        }
        if index > 0, isIdentifier(code[index - 1]) { return false }
        return !isIdentifier(code[index + characters.count])
    }

    /// Parses `name<generics>(parameters) effects -> Result {` from `start`; returns the declaration
    /// and the index of the body's `{` (or where parsing stopped).
    private static func parseFunction(_ code: [Character], from start: Int) -> (Declaration, Int)? {
        var index = start
        while index < code.count, code[index].isWhitespace { index += 1 }
        let nameStart = index
        while index < code.count, isIdentifier(code[index]) || code[index] == "`" { index += 1 }
        let name = String(code[nameStart..<index]).replacingOccurrences(of: "`", with: "")
        guard !name.isEmpty else { return nil }
        while index < code.count, code[index].isWhitespace { index += 1 }
        if index < code.count, code[index] == "<" {
            var depth = 0
            repeat {
                if code[index] == "<" { depth += 1 } else if code[index] == ">" { depth -= 1 }
                index += 1
            } while index < code.count && depth > 0
        }
        while index < code.count, code[index].isWhitespace { index += 1 }
        guard index < code.count, code[index] == "(" else { return nil }
        var depth = 0
        let open = index
        repeat {
            if code[index] == "(" { depth += 1 } else if code[index] == ")" { depth -= 1 }
            index += 1
        } while index < code.count && depth > 0
        guard depth == 0 else { return nil }
        let parameterText = String(code[(open + 1)..<(index - 1)])
        var effectsEnd = index
        while effectsEnd < code.count, code[effectsEnd] != "{", !(code[effectsEnd] == "-" && effectsEnd + 1 < code.count && code[effectsEnd + 1] == ">") {
            effectsEnd += 1
        }
        let effects = String(code[index..<effectsEnd]).split { !isIdentifier($0) }.map(String.init)
        let isAsyncThrows = effects.contains("async") && effects.contains("throws")
        var bodyStart = effectsEnd
        while bodyStart < code.count, code[bodyStart] != "{" { bodyStart += 1 }
        let parameters = splitTopLevel(parameterText).compactMap(parameter)
        return (Declaration(name: name, parameters: parameters, isAsyncThrows: isAsyncThrows), bodyStart)
    }

    /// `text` split at commas outside (), [], <> and {} (an arrow's `>` does not close anything).
    static func splitTopLevel(_ text: String, separator: Character = ",") -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var previous: Character = " "
        for character in text {
            switch character {
            case "(", "[", "{", "<": depth += 1
            case ")", "]", "}": depth -= 1
            case ">" where previous != "-": depth -= 1
            default: break
            }
            if character == separator, depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parts.append(current) }
        return parts
    }

    private static func parameter(_ text: String) -> Parameter? {
        let withoutDefault = splitTopLevel(text, separator: "=").first ?? text
        let halves = splitTopLevel(withoutDefault, separator: ":")
        guard let names = halves.first else { return nil }
        let label = names.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
        guard !label.isEmpty else { return nil }
        let type = halves.dropFirst().joined(separator: ":").filter { !$0.isWhitespace }
        return Parameter(label: label, type: type)
    }

    /// `source` with comments removed and string literal contents blanked (interpolated code kept), so
    /// braces, parentheses and keywords can be counted on what the compiler sees as code.
    static func codeOnly(_ source: String) -> String {
        enum Context {
            case code(interpolationDepth: Int?)
            case string(hashes: Int, multiline: Bool)
        }
        let scalars = Array(source)
        var output = ""
        output.reserveCapacity(scalars.count)
        var stack: [Context] = [.code(interpolationDepth: nil)]
        var index = 0

        func at(_ offset: Int) -> Character? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }
        func hashes(from offset: Int) -> Int {
            var count = 0
            while at(offset + count) == "#" { count += 1 }
            return count
        }

        while index < scalars.count {
            let character = scalars[index]
            switch stack.last ?? .code(interpolationDepth: nil) {
            case let .code(interpolationDepth):
                if character == "/", at(1) == "/" {
                    while index < scalars.count, scalars[index] != "\n" { index += 1 }
                    continue
                }
                if character == "/", at(1) == "*" {
                    var depth = 0
                    repeat {
                        if scalars[index] == "/", at(1) == "*" {
                            depth += 1
                            index += 2
                        } else if scalars[index] == "*", at(1) == "/" {
                            depth -= 1
                            index += 2
                        } else {
                            if scalars[index] == "\n" { output.append("\n") }
                            index += 1
                        }
                    } while index < scalars.count && depth > 0
                    output.append(" ")
                    continue
                }
                if character == "#" || character == "\"" {
                    let count = character == "#" ? hashes(from: 0) : 0
                    if at(count) == "\"" {
                        let multiline = at(count + 1) == "\"" && at(count + 2) == "\""
                        stack.append(.string(hashes: count, multiline: multiline))
                        output.append("\"")
                        index += count + (multiline ? 3 : 1)
                        continue
                    }
                }
                if let depth = interpolationDepth {
                    if character == "(" {
                        stack[stack.count - 1] = .code(interpolationDepth: depth + 1)
                    } else if character == ")" {
                        if depth == 1 {
                            stack.removeLast()
                            output.append(" ")
                            index += 1
                            continue
                        }
                        stack[stack.count - 1] = .code(interpolationDepth: depth - 1)
                    }
                }
                output.append(character)
                index += 1
            case let .string(count, multiline):
                if character == "\\", hashes(from: 1) == count {
                    if at(1 + count) == "(" {
                        stack.append(.code(interpolationDepth: 1))
                        output.append(" ")
                        index += 2 + count
                    } else {
                        output.append("  ")
                        index += 2 + count
                    }
                    continue
                }
                if character == "\"" {
                    let quotes = multiline ? 3 : 1
                    if (0..<quotes).allSatisfy({ at($0) == "\"" }), hashes(from: quotes) >= count,
                        (0..<count).allSatisfy({ at(quotes + $0) == "#" })
                    {
                        stack.removeLast()
                        output.append("\"")
                        index += quotes + count
                        continue
                    }
                }
                output.append(character == "\n" ? "\n" : " ")
                index += 1
            }
        }
        return output
    }
}

/// Main-actor state of the kind a view model holds.
@MainActor
private final class CategoriesScreen {
    var categoryCount = 0
}
