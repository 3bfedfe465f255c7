import EngageCore
import Foundation

/// The Crobox wire format shared by the provider and its emulator: query keys, encodings and the
/// optional checksum. One definition, so the two cannot drift apart.
public enum CroboxWire {
    /// Query parameter keys.
    public enum Key {
        public static let containerID = "cid"
        public static let visitorID = "pid"
        public static let eventCounter = "e"
        public static let viewID = "vid"
        public static let pageType = "pt"
        public static let sdk = "sdk"
        public static let currency = "cc"
        public static let locale = "lc"
        public static let userID = "uid"
        public static let timezone = "tz"
        public static let timestamp = "ts"
        public static let pageName = "lh"
        public static let placeholderID = "vpid"
        public static let checksum = "z"
        public static let eventType = "t"
        public static let productID = "pi"
        public static let price = "price"
        public static let quantity = "qty"
        public static let title = "dt"
        public static let searchTerms = "st"
        public static let otherProducts = "lst"
        public static let step = "stp"
        public static let transactionID = "tid"
        public static let affiliation = "aff"
        public static let coupon = "cpn"
        public static let revenue = "rev"
        public static let tag = "tg"
        public static let name = "nm"
        public static let message = "msg"
        public static let file = "f"
        public static let line = "l"
        public static let promotionID = "promoId"
        /// Custom page property `key`: `cp.<key>`.
        public static func customProperty(_ key: String) -> String { "cp.\(key)" }
    }

    /// Values of the `t` parameter.
    public enum EventType {
        public static let click = "click"
        public static let addToCart = "cart"
        public static let removeFromCart = "rmcart"
        public static let pageView = "pageview"
        public static let error = "error"
        public static let custom = "event"
    }

    /// Which official SDK's dialect a request imitates (`sdk=1` iOS, `sdk=2` Android).
    public enum Dialect: Int, Codable, Sendable, CaseIterable {
        case iOS = 1
        case android = 2

        /// The key of the `index`-th impression: `[i]` on iOS, `imp[i]` on Android.
        public func impressionKey(_ index: Int) -> String {
            switch self {
            case .iOS: "[\(index)]"
            case .android: "imp[\(index)]"
            }
        }
    }

    /// `value` in base 36 with lowercase digits and a leading `-` when negative.
    ///
    /// `1711554991093` → `lu9znf91`.
    public static func base36(_ value: Int64) -> String {
        String(value, radix: 36, uppercase: false)
    }

    /// A millisecond timestamp as Crobox's `ts` parameter.
    public static func timestamp(_ date: Date) -> String {
        base36(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// Parses a `ts` parameter back into a date.
    public static func date(fromTimestamp text: String) -> Date? {
        Int64(text, radix: 36).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// Encodes query items per RFC 3986 (`+` becomes `%2B`), keeping their order.
    public static func encodeQuery(_ items: [(String, String)]) -> String {
        items.map { "\(QueryEncoding.encode($0.0))=\(QueryEncoding.encode($0.1))" }.joined(separator: "&")
    }

    /// The Android SDK's `z` checksum of an encoded query: MurmurHash3 x86 32-bit (seed 0) of its UTF-8
    /// bytes, as a signed 32-bit integer in base 36.
    ///
    /// `foobar=bla` → `az968c`; `john=doe&foobar=bla` → `-hfa74c`.
    public static func checksum(ofEncodedQuery query: String) -> String {
        let hash = MurmurHash3.x86_32(Array(query.utf8), seed: 0)
        return base36(Int64(Int32(bitPattern: hash)))
    }

    /// The product ids of a promotions request body: `0=<id>&1=<id>&…` in index order.
    public static func promotionsBody(productIDs: [String]) -> String {
        encodeQuery(productIDs.enumerated().map { (String($0.offset), $0.element) })
    }
}

/// MurmurHash3, x86 32-bit variant (Austin Appleby, public domain).
public enum MurmurHash3 {
    public static func x86_32(_ bytes: [UInt8], seed: UInt32) -> UInt32 {
        let c1: UInt32 = 0xcc9e_2d51
        let c2: UInt32 = 0x1b87_3593
        var hash = seed
        let blockCount = bytes.count / 4
        for block in 0..<blockCount {
            let offset = block * 4
            var k = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
            k &*= c1
            k = (k << 15) | (k >> 17)
            k &*= c2
            hash ^= k
            hash = (hash << 13) | (hash >> 19)
            hash = hash &* 5 &+ 0xe654_6b64
        }
        let tail = blockCount * 4
        var k: UInt32 = 0
        let remainder = bytes.count & 3
        if remainder >= 3 { k ^= UInt32(bytes[tail + 2]) << 16 }
        if remainder >= 2 { k ^= UInt32(bytes[tail + 1]) << 8 }
        if remainder >= 1 {
            k ^= UInt32(bytes[tail])
            k &*= c1
            k = (k << 15) | (k >> 17)
            k &*= c2
            hash ^= k
        }
        hash ^= UInt32(truncatingIfNeeded: bytes.count)
        hash ^= hash >> 16
        hash &*= 0x85eb_ca6b
        hash ^= hash >> 13
        hash &*= 0xc2b2_ae35
        hash ^= hash >> 16
        return hash
    }
}
