// engage-screenshot: photographs the sandbox UI in headless Chromium, for the docs' screenshots
// (Scripts/sandbox-screenshot runs it after sending the sandbox real traffic). It drives Chromium over
// the DevTools protocol (EngageTesting's HeadlessChromium), so it waits for the page's own signals
// (the list loaded, the event stream open, the rows shown) instead of a fixed delay.
//
//     engage-screenshot UI-URL OUT.png [--width 1280] [--height 800] [--rows N] [--select CSS]
@_spi(EngageProvider) import EngageCore
import EngageTesting
import Foundation

@main
struct EngageScreenshot {
    static func main() async {
        do {
            try await run(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("engage-screenshot: \(error.localizedDescription)\n".utf8))
            exit(1)
        }
    }

    static func run(_ arguments: [String]) async throws {
        var positional: [String] = []
        var options: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--"), index + 1 < arguments.count {
                options[String(argument.dropFirst(2))] = arguments[index + 1]
                index += 2
            } else {
                positional.append(argument)
                index += 1
            }
        }
        guard positional.count == 2, let url = URL(string: positional[0]) else {
            throw EngageError(.invalidInput, "usage: engage-screenshot UI-URL OUT.png [--width W] [--height H] [--rows N] [--select CSS]")
        }
        let width = Int(options["width"] ?? "") ?? 1280
        let height = Int(options["height"] ?? "") ?? 800
        let rows = Int(options["rows"] ?? "") ?? 1

        let browser = try HeadlessChromium()
        let tab = try await browser.newTab()
        try await tab.setViewport(width: width, height: height)
        try await tab.navigate(to: url)
        guard try await tab.waitFor("window.sandboxUI && window.sandboxUI.ready") else {
            throw EngageError(.timeout, "\(url.absoluteString) is not the sandbox UI.")
        }
        let _: Bool = try await tab.evaluate("(window.sandboxUI.ready.then(function () { window.__shotReady = true; }), true)")
        guard try await tab.waitFor("window.__shotReady === true && document.querySelectorAll('#request-rows tr').length >= \(rows)")
        else {
            throw EngageError(.timeout, "The page did not list \(rows) requests.")
        }
        if let selector = options["select"] {
            // The row may be below the fold of its scrolling list: bring it into view, then click it.
            let found: Bool = try await tab.evaluate(
                "(function (e) { if (!e) return false; e.scrollIntoView({ block: 'center' }); return true; })(document.querySelector(\(quoted(selector))))"
            )
            guard found else { throw EngageError(.invalidInput, "Nothing on the page matches \(selector).") }
            try await tab.click(selector)
            guard try await tab.waitFor("document.querySelector('#request-detail .detail-head') !== null") else {
                throw EngageError(.timeout, "Clicking \(selector) showed no request details.")
            }
        }
        try await tab.screenshot().write(to: URL(fileURLWithPath: positional[1]))
        await tab.close()
    }

    /// `text` as a JavaScript string literal.
    static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
