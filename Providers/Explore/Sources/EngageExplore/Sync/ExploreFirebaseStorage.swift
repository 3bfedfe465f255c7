@_spi(EngageProvider) import EngageCore
import Foundation

/// The Dash wallet's own directory source: one Firebase Storage object per network, published by
/// Dash's generator (`explore-dash-sync`).
///
/// Each object is a zip holding `explore.db`, deflated and encrypted with WinZip AES; its password is
/// the database's CRC-32C in lower-case hex, which the object's custom metadata publishes as
/// `Data-Checksum` beside `Data-Timestamp` (milliseconds since 1970), and which the archive's comment
/// repeats as `<timestamp>#<checksum>`. A sync reads the object's metadata
/// (`GET <endpoint>/v0/b/<bucket>/o/<object>`), downloads (`?alt=media`) only when the timestamp is
/// newer than the installed one, checks the size and MD5 Firebase reports, unpacks with the checksum as
/// password and checks the unpacked database's CRC-32C against it.
///
/// ```swift
/// let explore = ExploreConfiguration(network: .mainnet, firebaseStorage: .dashWallet)
/// ```
public struct ExploreFirebaseStorage: Codable, Sendable, Hashable {
    /// Firebase Storage's host, used when ``endpoint`` is `nil`.
    package static let firebaseHost = "firebasestorage.googleapis.com"

    /// The objects the Dash wallet syncs from: the bucket `dash-wallet-firebase.appspot.com`,
    /// `explore/explore-v4.db` on mainnet and `explore/explore-v4-testnet.db` on testnet.
    public static let dashWallet = ExploreFirebaseStorage()

    /// The bucket, as in `gs://<bucket>`.
    public var bucket: String
    /// The mainnet object's name (slashes included, not encoded).
    public var mainnetObject: String
    /// The testnet object's name.
    public var testnetObject: String
    /// The storage API's origin: `nil` is `https://firebasestorage.googleapis.com`; an emulator or a
    /// proxy sets its own.
    public var endpoint: URL?

    /// A source; by default the Dash wallet's bucket and objects on Firebase's own host.
    public init(
        bucket: String = "dash-wallet-firebase.appspot.com", mainnetObject: String = "explore/explore-v4.db",
        testnetObject: String = "explore/explore-v4-testnet.db", endpoint: URL? = nil
    ) {
        self.bucket = bucket
        self.mainnetObject = mainnetObject
        self.testnetObject = testnetObject
        self.endpoint = endpoint
    }

    /// The source of one object's URL, as Firebase's console or REST API shows it
    /// (`https://firebasestorage.googleapis.com/v0/b/<bucket>/o/<url-encoded object>`): that object
    /// serves `network`; the other network keeps its default object in the same bucket.
    ///
    /// - Throws: `.invalidConfiguration` for a URL that is not of that shape.
    public init(objectURL: URL, network: ExploreNetwork) throws(EngageError) {
        func refuse() -> EngageError {
            EngageError(
                .invalidConfiguration,
                "\(Redactor().redact(url: objectURL)) is not a Firebase Storage object URL (…/v0/b/<bucket>/o/<object>).",
                providerID: .explore)
        }
        guard let components = URLComponents(url: objectURL, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme), components.host != nil
        else { throw refuse() }
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "", "v0", "b", bucket, "o", object (its slashes encoded), preceded by any path of the endpoint.
        guard let marker = segments.lastIndex(of: "v0"), segments.count == marker + 5, segments[marker + 1] == "b",
            segments[marker + 3] == "o", let bucket = segments[marker + 2].removingPercentEncoding,
            let object = segments[marker + 4].removingPercentEncoding, !bucket.isEmpty, !object.isEmpty
        else { throw refuse() }
        var endpoint = components
        endpoint.percentEncodedPath = segments[..<marker].joined(separator: "/")
        endpoint.query = nil
        endpoint.fragment = nil
        self.init(bucket: bucket, endpoint: endpoint.url)
        switch network {
        case .mainnet: mainnetObject = object
        case .testnet: testnetObject = object
        }
    }

    enum CodingKeys: String, CodingKey {
        case bucket, mainnetObject, testnetObject, endpoint
    }

    /// Decodes a source in which every key is optional (the Dash wallet's values by default).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ExploreFirebaseStorage()
        self.init(
            bucket: try container.decodeIfPresent(String.self, forKey: .bucket) ?? defaults.bucket,
            mainnetObject: try container.decodeIfPresent(String.self, forKey: .mainnetObject) ?? defaults.mainnetObject,
            testnetObject: try container.decodeIfPresent(String.self, forKey: .testnetObject) ?? defaults.testnetObject,
            endpoint: try container.decodeIfPresent(URL.self, forKey: .endpoint)
        )
    }

    /// The object `network` syncs from.
    package func object(for network: ExploreNetwork) -> String {
        switch network {
        case .mainnet: mainnetObject
        case .testnet: testnetObject
        }
    }

    /// The storage API's base URL.
    func baseURL() throws(EngageError) -> URL {
        if let endpoint { return endpoint }
        var components = URLComponents()
        components.scheme = "https"
        components.host = Self.firebaseHost
        guard let url = components.url else {
            throw EngageError(.invalidConfiguration, "Firebase Storage's URL cannot be formed.", providerID: .explore)
        }
        return url
    }

    /// The object's path under the base URL: `v0/b/<bucket>/o/<object>`, every reserved character of
    /// the bucket and the object (slashes included) percent-encoded.
    package func objectPath(for network: ExploreNetwork) -> String {
        "v0/b/\(QueryEncoding.encode(bucket))/o/\(QueryEncoding.encode(object(for: network)))"
    }

    /// What is wrong with the source, if anything.
    func validationIssues() -> [String] {
        var issues: [String] = []
        if let endpoint, !["http", "https"].contains(endpoint.scheme?.lowercased() ?? "") {
            issues.append("firebaseStorage.endpoint must be an http or https URL")
        }
        let bucketCharacters = bucket.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 46 || byte == 95
        }
        if bucket.isEmpty || bucket.utf8.count > 222 || !bucketCharacters {
            issues.append("firebaseStorage.bucket must be a bucket name (lower-case letters, digits, '.', '-', '_')")
        }
        for (key, object) in [("mainnetObject", mainnetObject), ("testnetObject", testnetObject)] {
            let segments = object.split(separator: "/", omittingEmptySubsequences: false)
            if object.isEmpty || object.utf8.count > 1024
                || object.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                || segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
            {
                issues.append("firebaseStorage.\(key) must be an object name without empty, '.' or '..' segments or control characters")
            }
        }
        return issues
    }
}

/// The metadata Firebase Storage answers for an object (`GET …/o/<object>`): the parts a sync reads.
///
/// ```json
/// {"name": "explore/explore-v4.db", "bucket": "…", "size": "31457280", "md5Hash": "1B2M2Y8AsgTpgAmY7PhCfg==",
///  "metadata": {"Data-Timestamp": "1763700000000", "Data-Checksum": "e3069283"}}
/// ```
package struct ExploreStorageObject: Decodable, Sendable {
    /// The object's name.
    package var name: String
    /// Its size in bytes (Firebase writes it as a string).
    package var size: Int64
    /// The base64 MD5 of its bytes, when Firebase reports one.
    package var md5Hash: String?
    /// Its custom metadata.
    package var metadata: [String: String]

    enum CodingKeys: String, CodingKey {
        case name, size, md5Hash, metadata
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        if let text = try? container.decode(String.self, forKey: .size) {
            guard let size = Int64(text) else {
                throw DecodingError.dataCorruptedError(forKey: .size, in: container, debugDescription: "size \"\(text)\" is not a number")
            }
            self.size = size
        } else {
            size = try container.decode(Int64.self, forKey: .size)
        }
        md5Hash = try container.decodeIfPresent(String.self, forKey: .md5Hash)
        metadata = try container.decodeIfPresent([String: String].self, forKey: .metadata) ?? [:]
    }

    /// The release the metadata describes, or `.exploreDownloadInvalid` when a value is missing or
    /// unusable.
    package func release(maxBytes: Int64) throws(EngageError) -> (timestamp: Int64, checksum: String) {
        func refuse(_ reason: String) -> EngageError {
            EngageError(.exploreDownloadInvalid, "The Firebase Storage object \(name) is not usable: \(reason).", providerID: .explore)
        }
        guard let text = metadata["Data-Timestamp"], let timestamp = Int64(text), timestamp > 0 else {
            throw refuse("its Data-Timestamp metadata is missing or not a positive number of milliseconds")
        }
        guard let checksum = metadata["Data-Checksum"], CRC32C.value(ofPublished: checksum) != nil else {
            throw refuse("its Data-Checksum metadata is missing or not a CRC-32C in hex")
        }
        guard size > 0 else { throw refuse("size \(size)") }
        guard size <= maxBytes else { throw refuse("its \(size) bytes are over the limit of \(maxBytes)") }
        if let md5Hash, Data(base64Encoded: md5Hash)?.count != 16 { throw refuse("its md5Hash is not a base64 MD5") }
        return (timestamp, checksum)
    }
}
