@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Cellular access: a client kept off cellular networks marks every request, and URLSession is told", .bounded)
struct CellularAccessTests {
    static let baseURL = URL(string: "https://api.example.com/v1/")!

    @Test("requests may use cellular networks unless the client or the request says otherwise")
    func clientAndRequestChoice() throws {
        let transport = InMemoryTransport()
        let open = APIClient(baseURL: Self.baseURL, transport: transport)
        #expect(try open.makeRequest(.get, "offers").options.allowsCellularAccess)
        let perRequest = try open.makeRequest(.get, "offers", options: RequestOptions(allowsCellularAccess: false))
        #expect(!perRequest.options.allowsCellularAccess)

        let wifiOnly = APIClient(baseURL: Self.baseURL, transport: transport, allowsCellularAccess: false)
        #expect(try !wifiOnly.makeRequest(.get, "offers").options.allowsCellularAccess)
        // A request cannot widen what its client allows.
        let widened = try wifiOnly.makeRequest(.post, "offers", options: RequestOptions(isRepeatable: true, allowsCellularAccess: true))
        #expect(!widened.options.allowsCellularAccess)
    }

    @Test("the URLRequest URLSession sends carries the choice, the body and the attempt's timeout")
    func urlRequestCarriesTheChoice() throws {
        let client = APIClient(baseURL: Self.baseURL, transport: InMemoryTransport(), allowsCellularAccess: false)
        let request = try client.makeRequest(
            .post, "redeem", body: .data(Data("{}".utf8), contentType: "application/json"),
            options: RequestOptions(timeout: .seconds(7)))
        let urlRequest = try URLSessionTransport.urlRequest(for: request, defaultTimeout: .seconds(30))
        #expect(!urlRequest.allowsCellularAccess)
        #expect(urlRequest.timeoutInterval == 7)
        #expect(urlRequest.httpBody == Data("{}".utf8))
        #expect(urlRequest.url?.absoluteString == "https://api.example.com/v1/redeem")

        let open = try APIClient(baseURL: Self.baseURL, transport: InMemoryTransport()).makeRequest(.get, "offers")
        let openURLRequest = try URLSessionTransport.urlRequest(for: open, defaultTimeout: .seconds(30))
        #expect(openURLRequest.allowsCellularAccess)
        #expect(openURLRequest.timeoutInterval == 30)
    }
}
