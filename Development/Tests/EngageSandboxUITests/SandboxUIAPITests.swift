@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import NIOCore
import EngageTestTraits
import Testing

@_spi(EngageProvider) @testable import EngageSandboxUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Sandbox UI: JSON API", .bounded)
struct SandboxUIAPITests {
    @Test("requests to two emulators are listed, with secrets in paths and queries redacted; a detail hides secrets unless revealed")
    func requestsAndRedaction() async throws {
        let sandbox = try await UISandbox()
        let secret = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXZhbHVl"
        _ = try await Exchange.send(try sandbox.emulator("reference", "echo"), headers: ["Authorization": "Bearer \(secret)"])
        _ = try await Exchange.send(
            try sandbox.emulator("reference", "auth/token"), method: "POST", json: #"{"username":"maria@example.gr","password":"pw-123"}"#
        )
        _ = try await Exchange.send(
            URL(string: try sandbox.emulator("crobox", "socket.gif").absoluteString + "?cid=xlrc9t&token=\(secret)")!)

        let list: [Summary] = try await Exchange.send(sandbox.api("requests")).json()
        #expect(list.map(\.emulatorID) == ["reference", "reference", "crobox"])
        #expect(list.map(\.method) == ["GET", "POST", "GET"])
        #expect(list[1].status == 200)
        #expect(list[2].query?.contains(secret) == false)
        #expect(list[2].query?.contains("cid=xlrc9t") == true)

        let echo = try await Exchange.send(sandbox.api("requests/\(list[0].sequence)"))
        #expect(echo.status == 200)
        #expect(!echo.text.contains(secret))
        #expect(echo.text.contains("<redacted>"))
        let login = try await Exchange.send(sandbox.api("requests/\(list[1].sequence)"))
        #expect(!login.text.contains("pw-123") && !login.text.contains("maria@example.gr"))
        // Pretty-printed: one key per line.
        #expect(login.text.contains(#"\n  \"password\" : \"<redacted>\""#))

        let revealed = try await Exchange.send(
            try #require(URL(string: sandbox.api("requests/\(list[0].sequence)").absoluteString + "?reveal=1")))
        #expect(revealed.text.contains(secret))
        let revealedLogin = try await Exchange.send(
            try #require(URL(string: sandbox.api("requests/\(list[1].sequence)").absoluteString + "?reveal=1")))
        #expect(revealedLogin.text.contains("pw-123"))

        #expect(try await Exchange.send(sandbox.api("requests/999999")).status == 404)
        #expect(try await Exchange.send(sandbox.api("requests"), method: "DELETE").status == 204)
        let cleared: [Summary] = try await Exchange.send(sandbox.api("requests")).json()
        #expect(cleared.isEmpty)
        await sandbox.stop()
    }

    @Test("a fault added through the API fails the next request as configured and counts its hits; a used-up rule stays listed")
    func faults() async throws {
        let sandbox = try await UISandbox()
        let added = try await Exchange.send(
            sandbox.api("faults"), method: "POST",
            json:
                #"{"emulatorID":"crobox","method":"POST","path":"/promotions","fault":{"kind":"status","status":503},"trigger":{"kind":"times","count":2}}"#
        )
        #expect(added.status == 201)
        let rule: Rule = try added.json()
        #expect(rule.emulatorID == "crobox" && rule.hits == 0 && rule.remaining == 2 && rule.active)

        // Another emulator and another path are untouched.
        #expect(try await Exchange.send(try sandbox.emulator("reference", "echo")).status == 200)
        for _ in 0..<2 {
            #expect(try await Exchange.send(try sandbox.emulator("crobox", "promotions"), method: "POST", json: "{}").status == 503)
        }
        #expect(try await Exchange.send(try sandbox.emulator("crobox", "promotions"), method: "POST", json: "{}").status != 503)
        let rules: [Rule] = try await Exchange.send(sandbox.api("faults")).json()
        #expect(rules.count == 1)
        #expect(rules.first?.hits == 2 && rules.first?.active == false && rules.first?.remaining == 0)
        let summaries: [Summary] = try await Exchange.send(sandbox.api("requests")).json()
        #expect(summaries.compactMap(\.fault) == ["status 503", "status 503"])

        let always = try await Exchange.send(sandbox.api("faults"), method: "POST", json: #"{"fault":{"kind":"delay","milliseconds":1}}"#)
        let alwaysRule: Rule = try always.json()
        #expect(alwaysRule.emulatorID == nil && alwaysRule.remaining == nil)
        #expect(try await Exchange.send(sandbox.api("faults/\(alwaysRule.id)"), method: "DELETE").status == 204)
        #expect(try await Exchange.send(sandbox.api("faults/\(alwaysRule.id)"), method: "DELETE").status == 404)
        #expect(try await Exchange.send(sandbox.api("faults"), method: "DELETE").status == 204)
        #expect(sandbox.host.faults.snapshots.isEmpty)
        await sandbox.stop()
    }

    @Test(
        "bad rules are refused with a message, and nothing is injected",
        arguments: [
            #"{"fault":{"kind":"status","status":99}}"#,
            #"{"fault":{"kind":"status"}}"#,
            #"{"fault":{"kind":"delay","milliseconds":-5}}"#,
            #"{"fault":{"kind":"explode"}}"#,
            #"{"fault":{"kind":"dropConnection"},"trigger":{"kind":"times","count":0}}"#,
            #"{"fault":{"kind":"dropConnection"},"trigger":{"kind":"probability","value":1.5}}"#,
            #"{"emulatorID":"nope","fault":{"kind":"malformedBody"}}"#,
            #"{"method":"BREW","fault":{"kind":"malformedBody"}}"#,
            #"{"path":"events","fault":{"kind":"malformedBody"}}"#,
            #"{"path":"/a b","fault":{"kind":"malformedBody"}}"#,
            #"{"fault":"status"}"#,
            #"not json"#,
            #"{"fault":{"kind":"status","status":503,"body":1}}"#,
        ])
    func badRules(body: String) async throws {
        let sandbox = try await UISandbox()
        let answer = try await Exchange.send(sandbox.api("faults"), method: "POST", json: body)
        #expect(answer.status == 400)
        struct Problem: Decodable { var error: String }
        #expect(try answer.json(Problem.self).error.isEmpty == false)
        #expect(sandbox.host.faults.snapshots.isEmpty)
        await sandbox.stop()
    }

    @Test("cross-origin writes, non-JSON writes and foreign host names are refused; answers carry the CSP")
    func guardRules() async throws {
        let sandbox = try await UISandbox()
        let rule = #"{"fault":{"kind":"malformedBody"}}"#
        let crossOrigin = try await Exchange.send(
            sandbox.api("faults"), method: "POST", json: rule, headers: ["Origin": "https://attacker.test"])
        #expect(crossOrigin.status == 403)
        let formPost = try await Exchange.send(sandbox.api("faults"), method: "POST", headers: ["Content-Type": "text/plain"])
        #expect(formPost.status == 415)
        let rebound = try await Exchange.send(sandbox.api("overview"), headers: ["Host": "attacker.test"])
        #expect(rebound.status == 403)
        #expect(sandbox.host.faults.snapshots.isEmpty)

        let sameOrigin = try await Exchange.send(
            sandbox.api("faults"), method: "POST", json: rule, headers: ["Origin": "http://127.0.0.1:\(sandbox.endpoints.port)"]
        )
        #expect(sameOrigin.status == 201)
        let page = try await Exchange.send(sandbox.ui)
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(page.headers["x-content-type-options"] == "nosniff")
        for asset in ["app.js", "style.css"] {
            #expect(try await Exchange.send(sandbox.ui.appendingPathComponent("assets/\(asset)")).status == 200, "\(asset)")
        }
        // Only the bundled files are served, whatever the name asks for.
        let traversal = try #require(URL(string: sandbox.ui.absoluteString + "assets/..%2F..%2Freference%2Fecho"))
        #expect(try await Exchange.send(traversal).status == 404)
        await sandbox.stop()
    }

    @Test("loopback addresses and host names are told apart from others")
    func loopbackRules() throws {
        for address in ["127.0.0.1", "127.8.9.10", "::1"] {
            #expect(SandboxRequestContext.isLoopback(try SocketAddress(ipAddress: address, port: 1)), "\(address)")
        }
        for address in ["10.0.0.1", "192.168.1.20", "::2", "fe80::1", "128.0.0.1"] {
            #expect(!SandboxRequestContext.isLoopback(try SocketAddress(ipAddress: address, port: 1)), "\(address)")
        }
        for host in ["127.0.0.1:8080", "localhost:1", "LOCALHOST", "[::1]:8080", "127.0.0.1"] {
            #expect(SandboxUIGuard.isLoopbackHost(host), "\(host)")
        }
        for host in ["attacker.test", "127.0.0.1.attacker.test:80", "[::2]:1", "localhost.attacker.test", "127.0.0:1", "0.0.0.0:8080"] {
            #expect(!SandboxUIGuard.isLoopbackHost(host), "\(host)")
        }
    }

    @Test("a client on another address of this machine is refused", .enabled(if: nonLoopbackAddress() != nil))
    func nonLoopbackClient() async throws {
        let address = try #require(nonLoopbackAddress())
        let sandbox = try await UISandbox(configuration: SandboxConfiguration(host: "0.0.0.0"))
        let answer = try await Exchange.send(try #require(URL(string: "http://\(address):\(sandbox.endpoints.port)/_sandbox/api/overview")))
        #expect(answer.status == 403)
        #expect(answer.text.contains("not_loopback"))
        // The emulators themselves still answer (the sandbox chose to listen there).
        let echo = try await Exchange.send(try #require(URL(string: "http://\(address):\(sandbox.endpoints.port)/reference/echo")))
        #expect(echo.status == 200)
        await sandbox.stop()
    }

    @Test("the token limit shortens the access tokens issued next, not refresh tokens, and expires_in says so")
    func tokenLimit() async throws {
        let sandbox = try await UISandbox()
        struct Tokens: Decodable { var lifetimeLimitSeconds: Int? }
        let set = try await Exchange.send(sandbox.api("tokens"), method: "PUT", json: #"{"lifetimeLimitSeconds": 30}"#)
        #expect(try set.json(Tokens.self).lifetimeLimitSeconds == 30)
        struct Login: Decodable { var access_token: String; var expires_in: Int }
        let login: Login = try await Exchange.send(
            try sandbox.emulator("reference", "auth/token"), method: "POST", json: #"{"username":"u","password":"pw-123"}"#
        ).json()
        #expect(login.expires_in == 30)
        let claims = try sandbox.host.jwt.verify(login.access_token)
        #expect(claims.expiresAt.timeIntervalSince(claims.issuedAt) == 30)
        #expect(sandbox.host.jwt.issue(subject: "r", lifetime: .seconds(3600), isRefreshToken: true).isEmpty == false)
        let refreshClaims = try sandbox.host.jwt.verify(
            sandbox.host.jwt.issue(subject: "r", lifetime: .seconds(3600), isRefreshToken: true))
        #expect(refreshClaims.expiresAt.timeIntervalSince(refreshClaims.issuedAt) == 3600)

        #expect(try await Exchange.send(sandbox.api("tokens"), method: "PUT", json: #"{"lifetimeLimitSeconds": 0}"#).status == 400)
        let cleared = try await Exchange.send(sandbox.api("tokens"), method: "PUT", json: #"{"lifetimeLimitSeconds": null}"#)
        #expect(try cleared.json(Tokens.self).lifetimeLimitSeconds == nil)
        #expect(sandbox.host.jwt.accessTokenLifetimeLimit == nil)
        await sandbox.stop()
    }
}

/// An IPv4 address of this machine that is not loopback, if it has one.
func nonLoopbackAddress() -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0, let first = list else { return nil }
    defer { freeifaddrs(list) }
    var cursor: UnsafeMutablePointer<ifaddrs>? = first
    while let entry = cursor {
        defer { cursor = entry.pointee.ifa_next }
        guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0
        else { continue }
        let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if !text.hasPrefix("127.") { return text }
    }
    return nil
}
