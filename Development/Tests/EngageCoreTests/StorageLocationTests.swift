@_spi(EngageProvider) @testable import EngageCore
import Foundation
import EngageTestTraits
import Testing

@Suite("Storage: locations", .bounded)
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

    @Test("an app-group location encodes its group and keychain access group, and refuses an invalid group")
    func appGroupCodableAndValidation() throws {
        let location = StorageLocation.appGroup(
            "group.com.example.shop", appID: "com.example.shop", keychainAccessGroup: "ABCDE12345.com.example.shop")
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(location)) as? [String: String]
        #expect(
            json == [
                "kind": "appGroup", "group": "group.com.example.shop", "appID": "com.example.shop",
                "keychainAccessGroup": "ABCDE12345.com.example.shop",
            ])
        #expect(try JSONDecoder().decode(StorageLocation.self, from: JSONEncoder().encode(location)) == location)
        let withoutKeychain = try JSONDecoder().decode(
            StorageLocation.self, from: Data(#"{"kind":"appGroup","group":"group.a","appID":"a.b"}"#.utf8))
        #expect(withoutKeychain == .appGroup("group.a", appID: "a.b"))
        expectEngageError(.invalidConfiguration) {
            _ = try StorageLocation.appGroup("../group", appID: "com.example.shop").resolvedDirectory(environment: ["HOME": "/home/u"])
        }
    }

    #if !canImport(Darwin)
        @Test("an app group is a shared directory on Linux: data under XDG_DATA_HOME/<group>, keys under XDG_STATE_HOME/<group>")
        func appGroupDirectories() throws {
            let location = StorageLocation.appGroup("group.com.example.shop", appID: "com.example.shop")
            let environment = ["XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/state", "HOME": "/home/u"]
            #expect(try location.resolvedDirectory(environment: environment) == "/data/group.com.example.shop/com.example.shop")
            #expect(try location.keyDirectory(environment: environment) == "/state/group.com.example.shop/com.example.shop/keys")
            #expect(
                try location.resolvedDirectory(environment: ["HOME": "/home/u"])
                    == "/home/u/.local/share/group.com.example.shop/com.example.shop")
        }

        @Test("two processes of an app group (the app and its widget) open the same sealed session")
        func appGroupSharesSealedValues() throws {
            let root = try TemporaryDirectory()
            defer { root.remove() }
            let environment = ["XDG_DATA_HOME": root.appending("data"), "XDG_STATE_HOME": root.appending("state"), "HOME": root.path]
            let location = StorageLocation.appGroup("group.com.example.shop", appID: "com.example.shop")
            // The app seals a session with the platform's default key store for the location.
            do {
                let database = try EngageDatabase(location: location, environment: environment, clock: SystemClock())
                let store = try SecretStores.platformDefault(appID: "com.example.shop", location: location, environment: environment)
                let storage = try database.namespace("acme", sealer: Sealer(store: store, keyName: "engage.storage"))
                try storage.setSealedValue("refresh-token-1", forKey: "session")
                try database.close()
            }
            // The widget, another process with the same location, finds both the database and the key.
            let database = try EngageDatabase(location: location, environment: environment, clock: SystemClock())
            let store = try SecretStores.platformDefault(appID: "com.example.shop", location: location, environment: environment)
            let storage = try database.namespace("acme", sealer: Sealer(store: store, keyName: "engage.storage"))
            #expect(try storage.sealedValue(String.self, forKey: "session") == "refresh-token-1")
            try database.close()
        }
    #endif
}
