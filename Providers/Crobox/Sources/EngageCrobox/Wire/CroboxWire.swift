@_spi(EngageProvider) import EngageCore
import Foundation

/// The Crobox wire format shared by the provider and its emulator: query keys, encodings and the
/// optional checksum. One definition, so the two cannot drift apart.
package enum CroboxWire {
    /// Query parameter keys.
    package enum Key {
        package static let containerID = "cid"
        package static let visitorID = "pid"
        package static let eventCounter = "e"
        package static let viewID = "vid"
        package static let pageType = "pt"
        package static let sdk = "sdk"
        package static let currency = "cc"
        package static let locale = "lc"
        package static let userID = "uid"
        package static let timezone = "tz"
        package static let timestamp = "ts"
        package static let pageName = "lh"
        package static let placeholderID = "vpid"
        package static let checksum = "z"
        package static let eventType = "t"
        package static let productID = "pi"
        package static let price = "price"
        package static let quantity = "qty"
        package static let title = "dt"
        package static let searchTerms = "st"
        package static let otherProducts = "lst"
        package static let step = "stp"
        package static let transactionID = "tid"
        package static let affiliation = "aff"
        package static let coupon = "cpn"
        package static let revenue = "rev"
        package static let tag = "tg"
        package static let name = "nm"
        package static let message = "msg"
        package static let file = "f"
        package static let line = "l"
        package static let promotionID = "promoId"
        /// Custom page property `key`: `cp.<key>`.
        package static func customProperty(_ key: String) -> String { "cp.\(key)" }
    }

    /// Values of the `t` parameter.
    package enum EventType {
        package static let click = "click"
        package static let addToCart = "cart"
        package static let removeFromCart = "rmcart"
        package static let pageView = "pageview"
        package static let error = "error"
        package static let custom = "event"
    }

    /// Which official SDK's dialect a request imitates (the configuration's `CroboxDialect`).
    package typealias Dialect = CroboxDialect

    /// `value` in base 36 with lowercase digits and a leading `-` when negative.
    ///
    /// `1711554991093` → `lu9znf91`.
    package static func base36(_ value: Int64) -> String {
        String(value, radix: 36, uppercase: false)
    }

    /// A millisecond timestamp as Crobox's `ts` parameter.
    package static func timestamp(_ date: Date) -> String {
        base36(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// Parses a `ts` parameter back into a date.
    package static func date(fromTimestamp text: String) -> Date? {
        Int64(text, radix: 36).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// Encodes query items per RFC 3986 (`+` becomes `%2B`), keeping their order.
    package static func encodeQuery(_ items: [(String, String)]) -> String {
        items.map { "\(QueryEncoding.encode($0.0))=\(QueryEncoding.encode($0.1))" }.joined(separator: "&")
    }

    /// The Android SDK's `z` checksum of an encoded query: MurmurHash3 x86 32-bit (seed 0) of its UTF-8
    /// bytes, as a signed 32-bit integer in base 36.
    ///
    /// `foobar=bla` → `az968c`; `john=doe&foobar=bla` → `-hfa74c`.
    package static func checksum(ofEncodedQuery query: String) -> String {
        let hash = MurmurHash3.x86_32(Array(query.utf8), seed: 0)
        return base36(Int64(Int32(bitPattern: hash)))
    }

    /// The product ids of a promotions request body: `0=<id>&1=<id>&…` in index order.
    package static func promotionsBody(productIDs: [String]) -> String {
        encodeQuery(productIDs.enumerated().map { (String($0.offset), $0.element) })
    }
}

/// MurmurHash3, x86 32-bit variant (Austin Appleby, public domain).
package enum MurmurHash3 {
    package static func x86_32(_ bytes: [UInt8], seed: UInt32) -> UInt32 {
        let c1: UInt32 = 0xcc9e_2d51
        let c2: UInt32 = 0x1b87_3593
        var hash = seed
        let blockCount = bytes.count / 4
        for block in 0..<blockCount {
            let offset = block * 4
            var k =
                UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
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

extension CroboxDialect {
    /// The key of the `index`-th impression: `[i]` on iOS, `imp[i]` on Android.
    package func impressionKey(_ index: Int) -> String {
        switch self {
        case .iOS: "[\(index)]"
        case .android: "imp[\(index)]"
        }
    }
}
