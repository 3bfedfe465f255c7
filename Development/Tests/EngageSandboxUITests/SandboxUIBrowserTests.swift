@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

/// Whether a headless Chromium is available (always in CI, where its absence is a failure).
let browserTestsEnabled = HeadlessChromium.executablePath != nil || ProcessInfo.processInfo.environment["CI"] != nil

@Suite("Sandbox UI in headless Chromium", .enabled(if: browserTestsEnabled), .serialized, .bounded)
struct SandboxUIBrowserTests {
    /// Opens the UI and waits until it has loaded the list and its event stream is open.
    func openUI(_ sandbox: UISandbox) async throws -> ChromiumTab {
        let tab = try await HeadlessChromium.shared().newTab()
        try await tab.navigate(to: sandbox.ui)
        #expect(try await tab.waitFor("window.sandboxUI && window.sandboxUI.ready"))
        let _: Bool = try await tab.evaluate("(window.sandboxUI.ready.then(function () { window.__uiReady = true; }), true)")
        #expect(try await tab.waitFor("window.__uiReady === true"), "the page loaded its list and opened its event stream")
        return tab
    }

    func rows(_ tab: ChromiumTab) async throws -> [[String]] {
        try await tab.evaluate(
            "Array.from(document.querySelectorAll('#request-rows tr')).map(function (r) { return [r.dataset.emulator, r.dataset.status, r.dataset.sequence]; })"
        )
    }

    @Test(
        "requests to two emulators appear live, newest first; a fault added through the API fails the next request and the page shows its hits"
    )
    func liveRequestsAndFaults() async throws {
        let sandbox = try await UISandbox()
        let tab = try await openUI(sandbox)
        #expect(try await rows(tab).isEmpty)

        _ = try await Exchange.send(try sandbox.emulator("reference", "echo"))
        _ = try await Exchange.send(try sandbox.emulator("crobox", "promotions"), method: "POST", json: "{}")
        #expect(
            try await tab.waitFor("document.querySelectorAll('#request-rows tr').length === 2"), "both requests arrived without a reload")
        let shown = try await rows(tab)
        #expect(shown.map(\.first) == ["crobox", "reference"])  // newest first

        let added = try await Exchange.send(
            sandbox.api("faults"), method: "POST",
            json: #"{"emulatorID":"crobox","path":"/promotions","fault":{"kind":"status","status":503},"trigger":{"kind":"always"}}"#
        )
        let rule: Rule = try added.json()
        #expect(
            try await tab.waitFor("document.querySelector('#fault-rows tr[data-rule-id=\"\(rule.id)\"]') !== null"),
            "the new rule is listed")
        let failed = try await Exchange.send(try sandbox.emulator("crobox", "promotions"), method: "POST", json: "{}")
        #expect(failed.status == 503)
        #expect(try await tab.waitFor("document.querySelector('#request-rows tr[data-status=\"503\"][data-emulator=\"crobox\"]') !== null"))
        #expect(
            try await tab.waitFor(
                "(document.querySelector('#fault-rows tr[data-rule-id=\"\(rule.id)\"] .hits') || {}).textContent === '1'"
            ), "the page shows the rule's hit count")
        await tab.close()
        await sandbox.stop()
    }

    @Test("requests recorded before the page opens are listed when it loads; a row opens its details; a screenshot is a PNG")
    func journalAtLoadAndScreenshot() async throws {
        let sandbox = try await UISandbox()
        _ = try await Exchange.send(try sandbox.emulator("reference", "echo"))
        _ = try await Exchange.send(try sandbox.emulator("crobox", "promotions"), method: "POST", json: "{}")
        let tab = try await openUI(sandbox)
        try await tab.setViewport(width: 1280, height: 800)
        #expect(try await rows(tab).map(\.first) == ["crobox", "reference"])
        #expect(try await tab.evaluate("document.getElementById('request-count').textContent", as: String.self) == "2 of 2 requests")
        try await tab.click("#request-rows tr[data-emulator=\"crobox\"]")
        #expect(try await tab.waitFor("document.getElementById('request-detail').textContent.includes('/promotions')"))
        let png = try await tab.screenshot()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)
        await tab.close()
        await sandbox.stop()
    }

    @Test("a secret in a request never appears in the page until revealed")
    func redactedUntilRevealed() async throws {
        let sandbox = try await UISandbox()
        let tab = try await openUI(sandbox)
        let token = "sandbox-secret-token-5f1e9a"
        let password = "pw-123"
        _ = try await Exchange.send(try sandbox.emulator("reference", "echo"), headers: ["Authorization": "Bearer \(token)"])
        _ = try await Exchange.send(
            try sandbox.emulator("reference", "auth/token"), method: "POST", json: #"{"username":"ui-user","password":"\#(password)"}"#
        )
        #expect(try await tab.waitFor("document.querySelectorAll('#request-rows tr').length === 2"))
        let page = "document.documentElement.outerHTML"
        // Each check waits for the pane to show the request just chosen, settled (not loading), and
        // redacted or revealed as expected: the pane of the request chosen before also shows
        // "<redacted>", and a click on a pane that is being replaced is lost.
        for (row, path) in [("tr[data-sequence]:nth-child(2)", "/echo"), ("tr[data-sequence]:nth-child(1)", "/auth/token")] {
            try await tab.click("#request-rows \(row)")
            #expect(try await tab.waitFor(Self.detailSettled(path: path, revealed: false)), "the details of \(path)")
            #expect(try await tab.waitFor("document.getElementById('request-detail').textContent.indexOf('<redacted>') >= 0"))
            let html: String = try await tab.evaluate(page)
            #expect(!html.contains(token) && !html.contains("\"\(password)\""), "nothing secret in the page before revealing (\(path))")
        }
        // The login (newest) is selected: reveal it.
        try await tab.click("#reveal-secrets")
        #expect(try await tab.waitFor(Self.detailSettled(path: "/auth/token", revealed: true)), "the login, revealed")
        #expect(try await tab.waitFor("document.getElementById('request-detail').textContent.indexOf('\(password)') >= 0"))
        // Selecting another request hides secrets again.
        try await tab.click("#request-rows tr[data-sequence]:nth-child(2)")
        #expect(try await tab.waitFor(Self.detailSettled(path: "/echo", revealed: false)), "the echo, redacted again")
        #expect(try await tab.waitFor("document.getElementById('request-detail').textContent.indexOf('<redacted>') >= 0"))
        let after: String = try await tab.evaluate(page)
        #expect(!after.contains(token))
        await tab.close()
        await sandbox.stop()
    }

    /// True once the detail pane shows the request whose path ends in `path`, has finished loading,
    /// and is redacted or revealed as `revealed` says.
    static func detailSettled(path: String, revealed: Bool) -> String {
        """
        (function () {
          var pane = document.getElementById('request-detail');
          var shown = pane.querySelector('.detail-head .path');
          return !pane.hasAttribute('aria-busy') && pane.dataset.revealed === '\(revealed)'
            && shown !== null && shown.textContent.split('?')[0].endsWith('\(path)');
        })()
        """
    }
}
