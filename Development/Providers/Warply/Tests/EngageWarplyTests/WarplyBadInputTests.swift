// What the provider does with bad answers and hostile input, end to end: malformed and truncated
// bodies, wrong shapes, refusals, huge lists and hostile strings.
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator

@Suite("Warply bad answers and hostile input end to end", .bounded(.heavy))
struct WarplyBadInputTests {
    /// A 200 JSON answer with `body`, once, on `path`.
    static func answer(_ body: String, path: String = WarplyPaths.standardContext) -> FaultRule {
        FaultRule(
            .status(200, body: Data(body.utf8), headers: ["Content-Type": "application/json"]), emulatorID: "warply", method: "POST",
            path: path, trigger: .times(1)
        )
    }

    static func engageError(_ error: any Error) -> EngageError? { error as? EngageError }

    @Test("a malformed JSON body is a decoding error; the next call works")
    func malformedBody() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        harness.host.faults.inject(FaultRule(.malformedBody, emulatorID: "warply", path: WarplyPaths.standardContext, trigger: .times(1)))
        await #expect { try await warply.campaigns() } throws: { error in
            let error = Self.engageError(error)
            return error?.code == .decoding && error?.providerID == .warply && error?.isRetryable == false
        }
        #expect(warply.state.allCampaignList.isEmpty)
        #expect(try await warply.campaigns().count == 14)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a truncated body is an error, never a partial list; the next call works")
    func truncatedBody() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        harness.host.faults.inject(FaultRule(.truncatedBody, emulatorID: "warply", path: WarplyPaths.standardContext, trigger: .times(1)))
        await #expect { try await warply.merchants() } throws: { error in
            let code = WarplyE2E.code(error)
            return code == .network || code == .decoding || code == .timeout
        }
        #expect(warply.state.merchantList.isEmpty)
        #expect(try await warply.merchants().count == 13)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a section holding the wrong type is a decoding error naming the field path")
    func wrongSectionType() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        harness.host.faults.inject(
            Self.answer(#"{"status":"1","context":{"MAPP_CAMPAIGNING":{"result":{"not":"a list"}},"MAPP_CAMPAIGNING-status":1}}"#))
        await #expect { try await warply.campaigns() } throws: { error in
            let error = Self.engageError(error)
            return error?.code == .decoding && error?.message.contains("MAPP_CAMPAIGNING") == true
                && error?.message.contains("result") == true
        }
        // An object where the profile's section expects one, but a list inside: the same.
        harness.host.faults.inject(Self.answer(#"{"status":"1","context":{"MAPP_SHOPS":{"result":"nope"},"MAPP_SHOPS-status":1}}"#))
        await #expect { try await warply.merchantCategories() } throws: { error in
            let error = Self.engageError(error)
            return error?.code == .decoding && error?.message.contains("MAPP_SHOPS") == true
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("wrong scalar types in a model inside the list are a decoding error naming the element and field")
    func wrongScalarTypes() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        harness.host.faults.inject(
            Self.answer(
                #"{"status":"1","context":{"MAPP_CAMPAIGNING":{"result":[{"session_uuid":"ok-1","sorting":"2"},{"session_uuid":"bad","sorting":{"n":1}}]},"MAPP_CAMPAIGNING-status":1}}"#
            ))
        await #expect { try await warply.campaigns() } throws: { error in
            let error = Self.engageError(error)
            return error?.code == .decoding && error?.message.contains("sorting") == true && error?.message.contains("1") == true
        }
        harness.host.faults.inject(
            Self.answer(
                #"{"status":"1","context":{"MAPP_COUPON":{"result":[{"couponset_uuid":"cs","availability":"lots"}]},"MAPP_COUPON-status":1}}"#
            ))
        await #expect { try await warply.availableCoupons() } throws: { error in
            let error = Self.engageError(error)
            return error?.code == .decoding && error?.message.contains("availability") == true
        }
        harness.host.faults.inject(
            Self.answer(
                #"{"status":"1","context":{"MAPP_SHOPS":{"result":[{"uuid":"m-1","latitude":[1,2]}]},"MAPP_SHOPS-status":1}}"#
            ))
        await #expect { try await warply.merchants() } throws: { error in
            let error = Self.engageError(error)
            return error?.code == .decoding && error?.message.contains("latitude") == true
        }
        // Lenient where the backend is known to vary: numbers as strings, flags as "true".
        harness.host.faults.inject(
            Self.answer(
                #"{"status":1,"context":{"MAPP_CAMPAIGNING":{"result":[{"session_uuid":"b","sorting":2,"carousel":"false"},{"session_uuid":"a","sorting":"1","carousel":true}]},"MAPP_CAMPAIGNING-status":"1"}}"#
            ))
        let lenient = try await warply.campaigns()
        #expect(lenient.map(\.sessionUUID) == ["a", "b"])
        #expect(lenient.map(\.isCarousel) == [true, false])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a section status 2 is warplyRequestRejected carrying the server's msg")
    func sectionStatusRejected() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        harness.host.faults.inject(
            Self.answer(
                #"{"status":"1","context":{"MAPP_CAMPAIGNING":{"msg":"Campaigns are paused for maintenance"},"MAPP_CAMPAIGNING-status":2}}"#
            ))
        await #expect { try await warply.campaigns() } throws: { error in
            let error = Self.engageError(error)
            return error?.code == .warplyRequestRejected && error?.message.contains("Campaigns are paused for maintenance") == true
                && error?.message.contains("section status 2") == true
        }
        // The message at the top level is carried too.
        harness.host.faults.inject(Self.answer(#"{"status":"1","msg":"Shops are closed","context":{"MAPP_SHOPS-status":2}}"#))
        await #expect { try await warply.merchants() } throws: { error in
            let error = Self.engageError(error)
            return error?.code == .warplyRequestRejected && error?.message.contains("Shops are closed") == true
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a top-level status 0 is warplyRequestRejected with the msg")
    func topLevelStatusZero() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        harness.host.faults.inject(Self.answer(#"{"status":"0","msg":"Service temporarily closed"}"#))
        await #expect { try await warply.articles() } throws: { error in
            let error = Self.engageError(error)
            return error?.code == .warplyRequestRejected && error?.message.contains("Service temporarily closed") == true
                && error?.message.contains("status 0") == true
        }
        // The same for a status-form answer (device info) and a result-form one (login).
        harness.host.faults.inject(
            Self.answer(#"{"status":0,"msg":"No"}"#, path: WarplyWire.path(.deviceInfo, appUUID: WarplyHarness.appUUID)))
        await #expect { try await warply.updateDeviceToken("t") } throws: { WarplyE2E.code($0) == .warplyRequestRejected }
        harness.host.faults.inject(
            Self.answer(#"{"status":"0","msg":"Login closed"}"#, path: WarplyWire.path(.deiLogin, appUUID: WarplyHarness.appUUID)))
        await #expect { try await warply.logIn(deiEmail: "maria@example.gr") } throws: { error in
            let error = Self.engageError(error)
            return error?.code == .warplyRequestRejected && error?.message.contains("Login closed") == true
        }
        #expect(try await warply.isLoggedIn() == false)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("5000 extra campaigns: all decoded and sorted, logged out and logged in")
    func hugeList() async throws {
        let harness = try await WarplyHarness(emulatorConfiguration: WarplyEmulator.Configuration(extraCampaignCount: 5_000))
        let (engage, warply) = try await harness.startProvider()
        let campaigns = try await warply.campaigns()
        #expect(campaigns.count == 5_014)
        #expect(WarplyE2E.isAscending(campaigns.map(\.sorting)))
        #expect(Set(campaigns.map(\.sessionUUID)).count == 5_014)
        #expect(campaigns.last?.sorting == 100 + 4_999)

        try await warply.logIn(deiEmail: "maria@example.gr")
        let processed = try await warply.campaigns()
        #expect(processed.count == 5_010)  // 10 seed ones + 5000 generated "info" campaigns
        #expect(WarplyE2E.isAscending(processed.map(\.sorting)))
        #expect(warply.state.allCampaignList.count == 5_013)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("hostile session UUIDs: refused, or sent as one encoded path segment; never a crash")
    func hostileSessionUUID() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let prefix = "/api/session/"
        let sessionRequests = {
            harness.host.journal.entries(for: "warply").filter { $0.method == "GET" && $0.path != WarplyPaths.register }
        }

        // Too long, empty or multi-line: refused before anything is sent.
        let huge = String(repeating: "🎉\u{200F}\"'../", count: 1_500)
        #expect(huge.utf8.count > 10_000)
        for refused in [huge, "", "line\nbreak"] {
            await #expect { try await warply.singleCampaign(sessionUUID: refused) } throws: { WarplyE2E.code($0) == .invalidInput }
        }
        // Path traversal is refused too, encoded or not.
        for traversal in ["🎉\u{200F}\u{202E}\"'../../etc/passwd", "a/../b", "..\\windows"] {
            await #expect { try await warply.singleCampaign(sessionUUID: traversal) } throws: { WarplyE2E.code($0) == .invalidInput }
        }
        #expect(sessionRequests().isEmpty)

        // The rest goes out as one percent-encoded segment and is answered "unknown session".
        let hostile = [
            "🎉\u{200F}\u{202E}\"' quoted", "a/b?c=d#e", "%2F%3F", "%2E%2E", "' OR 1=1 --", "\u{0}nul", String(repeating: "ß", count: 128),
        ]
        for value in hostile {
            await #expect { try await warply.singleCampaign(sessionUUID: value) } throws: { error in
                let error = error as? EngageError
                return error?.code == .warplyRequestRejected && error?.message.contains("Unknown session") == true
            }
            let entry = try #require(sessionRequests().last)
            #expect(entry.path.hasPrefix(prefix))
            let segment = String(entry.path.dropFirst(prefix.count))
            #expect(!segment.contains("/") && !segment.contains("?") && !segment.contains("#"), "\(entry.path)")
            #expect(segment.removingPercentEncoding == value, "\(entry.path)")
        }
        #expect(sessionRequests().count == hostile.count)
        #expect(try await warply.campaigns().count == 14)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("dot-segment session UUIDs are refused, so nothing reaches a parent path")
    func dotSegmentSessionUUID() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        for value in ["..", ".", "./", "../campaigns"] {
            await #expect { try await warply.singleCampaign(sessionUUID: value) } throws: { WarplyE2E.code($0) == .invalidInput }
        }
        // Only the start's registration and device details went out.
        let start: Set = [WarplyPaths.register, WarplyWire.path(.deviceInfo, appUUID: WarplyHarness.appUUID)]
        let sent = harness.host.journal.entries(for: "warply").filter { !start.contains($0.path) }
        #expect(sent.isEmpty, "\(sent.map(\.path))")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("hostile coupon codes: refused, or sent intact in the JSON body and answered not valid")
    func hostileCouponCode() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let huge = String(repeating: "🎉\u{200F}\"'../", count: 1_500)
        for refused in [huge, "", "two\nlines"] {
            await #expect { try await warply.validateCoupon(code: refused) } throws: { WarplyE2E.code($0) == .invalidInput }
        }
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).isEmpty)
        let hostile = ["🎉\u{200F}\u{202E}\"'../../etc", #"{"coupon":"FUEL"}"#, "\\u0000", "<script>alert(1)</script>"]
        for code in hostile {
            let validation = try await warply.validateCoupon(code: code)
            #expect(!validation.isValid)
            #expect(validation.couponCode == code)
        }
        let sent = WarplyE2E.contextBodies(harness, WarplyPaths.authenticatedContext).map { $0.string("coupon") }
        #expect(sent == hostile)
        await #expect { try await warply.redeemCoupon(productUUID: "../../" + hostile[0]) } throws: {
            WarplyE2E.code($0) == .warplyCouponNotRedeemable
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the stored session survives failed calls")
    func sessionSurvivesFailures() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let tokens = try #require(try await warply.tokens.currentTokens())
        harness.host.faults.inject(
            FaultRule(.malformedBody, emulatorID: "warply", path: WarplyPaths.authenticatedContext, trigger: .times(1)))
        await #expect { try await warply.profile() } throws: { WarplyE2E.code($0) == .decoding }
        harness.host.faults.inject(Self.answer(#"{"status":"0","msg":"Nope"}"#, path: WarplyPaths.authenticatedContext))
        await #expect { try await warply.coupons() } throws: { WarplyE2E.code($0) == .warplyRequestRejected }
        harness.host.faults.inject(
            FaultRule(.status(500), emulatorID: "warply", path: WarplyPaths.authenticatedContext, trigger: .times(1)))
        await #expect { try await warply.pointsHistory() } throws: { ($0 as? EngageError)?.httpStatus == 500 }
        harness.host.faults.inject(
            FaultRule(.dropConnection, emulatorID: "warply", path: WarplyPaths.authenticatedContext, trigger: .times(2)))
        await #expect { try await warply.transactionHistory() } throws: { WarplyE2E.code($0) == .network || WarplyE2E.code($0) == .timeout }
        harness.host.faults.removeAll()
        _ = try? await warply.singleCampaign(sessionUUID: "🎉\u{200F}\"'../")
        _ = try? await warply.validateCoupon(code: String(repeating: "x", count: 10_000))

        #expect(try await warply.isLoggedIn())
        #expect(try await warply.tokens.currentTokens() == tokens)
        #expect(harness.emulator.refreshCount == 0)
        #expect(try await warply.profile().email == "maria@example.gr")
        await engage.shutdown()
        await harness.stop()
    }
}
