@_spi(EngageProvider) @testable import EngageCore
import CroboxEmulator
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) import EngageSandboxUI
import Foundation
import ReferenceEmulator
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A sandbox serving the Reference and Crobox emulators and the UI on loopback.
struct UISandbox {
    let host: SandboxHost
    let endpoints: SandboxEndpoints
    let ui: URL

    init(configuration: SandboxConfiguration = SandboxConfiguration()) async throws {
        host = SandboxHost(
            emulators: [ReferenceEmulator(configuration: .init(password: "pw-123")), CroboxEmulator()], configuration: configuration,
            extensions: [SandboxUI()]
        )
        endpoints = try await host.start()
        ui = try #require(SandboxUI.url(for: endpoints))
    }

    /// `path` under the UI's API, e.g. `faults`.
    func api(_ path: String) -> URL {
        ui.appendingPathComponent("api/" + path)
    }

    func emulator(_ id: String, _ path: String) throws -> URL {
        try #require(endpoints.baseURL(for: id)).appendingPathComponent(path)
    }

    func stop() async { await host.stop() }
}

/// One HTTP exchange with no cookies, caches or redirects.
struct Exchange {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func json<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: body)
    }

    static func send(
        _ url: URL, method: String = "GET", json: String? = nil, headers: [String: String] = [:]
    ) async throws -> Exchange {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Exchange(status: http.statusCode, headers: fields, body: data)
    }
}

/// What `GET /api/requests` lists.
struct Summary: Decodable, Equatable {
    var sequence: Int
    var emulatorID: String
    var method: String
    var path: String
    var query: String?
    var status: Int?
    var fault: String?
}

/// What `GET /api/faults` lists.
struct Rule: Decodable {
    var id: Int
    var emulatorID: String?
    var hits: Int
    var remaining: Int?
    var active: Bool
}
