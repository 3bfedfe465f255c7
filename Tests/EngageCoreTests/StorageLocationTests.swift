@_spi(EngageProvider) import EngageCore
import Foundation
import Testing

@Suite("Storage: locations")
struct StorageLocationTests {
    @Test func inMemoryHasNoDirectory() throws {
        #expect(try StorageLocation.inMemory.resolvedDirectory(environment: [:]) == nil)
    }

    @Test func directoryIsUsedAsGiven() throws {
        #expect(try StorageLocation.directory("/var/lib/shop").resolvedDirectory(environment: [:]) == "/var/lib/shop")
        expectEngageError(.invalidConfiguration) { _ = try StorageLocation.directory("").resolvedDirectory() }
    }

    #if !canImport(Darwin)
        @Test func applicationDefaultUsesXDGDataHome() throws {
            let location = StorageLocation.applicationDefault(appID: "com.example.shop")
            let resolved = try location.resolvedDirectory(environment: ["XDG_DATA_HOME": "/data/xdg/", "HOME": "/home/u"])
            #expect(resolved == "/data/xdg/com.example.shop")
        }

        @Test func applicationDefaultFallsBackToLocalShare() throws {
            let location = StorageLocation.applicationDefault(appID: "com.example.shop")
            #expect(try location.resolvedDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/com.example.shop")
            // The XDG spec says relative or empty values are ignored.
            #expect(
                try location.resolvedDirectory(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "relative/dir"])
                    == "/home/u/.local/share/com.example.shop"
            )
            #expect(
                try location.resolvedDirectory(environment: ["HOME": "/home/u", "XDG_DATA_HOME": ""])
                    == "/home/u/.local/share/com.example.shop"
            )
        }
    #endif

    @Test("Invalid application ids are refused", arguments: ["", "..", "a/b", "../etc", "a..b", "x\u{0}", "/abs", ".app"])
    func invalidAppIDs(appID: String) {
        expectEngageError(.invalidConfiguration) {
            _ = try StorageLocation.applicationDefault(appID: appID).resolvedDirectory(environment: ["HOME": "/home/u"])
        }
    }

    @Test func codableUsesReadableJSON() throws {
        let locations: [StorageLocation] = [.inMemory, .directory("/tmp/x"), .applicationDefault(appID: "com.a.b")]
        let json = try JSONEncoder().encode(locations)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""kind":"applicationDefault""#))
        #expect(text.contains(#""appID":"com.a.b""#))
        #expect(try JSONDecoder().decode([StorageLocation].self, from: json) == locations)
        let decoded = try JSONDecoder().decode(StorageLocation.self, from: Data(#"{"kind":"directory","path":"/p"}"#.utf8))
        #expect(decoded == .directory("/p"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StorageLocation.self, from: Data(#"{"kind":"cloud"}"#.utf8))
        }
    }
}
