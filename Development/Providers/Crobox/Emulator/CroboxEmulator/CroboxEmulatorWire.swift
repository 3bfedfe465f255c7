import Foundation

/// What the emulator reads from Crobox requests, written down from the official iOS SDK
/// (crobox/crobox-sdk-ios c7034ce6: the parameter names in `Sources/Crobox/services/CroboxAPIServices.swift`,
/// the event types in `Sources/Crobox/data/model/RequestQueryParams.swift` lines 49–56, `ts` in base 36
/// from its `CroboxEncoder`) and the Android SDK's checksum. The emulator's own constants, never the
/// client's `CroboxWire`: a client that sends a wrong name fails the emulator's checks.
package enum CroboxEmulatorWire {
    /// Query parameter names.
    enum Key {
        static let containerID = "cid"
        static let visitorID = "pid"
        static let eventCounter = "e"
        static let viewID = "vid"
        static let pageType = "pt"
        static let sdk = "sdk"
        static let currency = "cc"
        static let locale = "lc"
        static let userID = "uid"
        static let timezone = "tz"
        static let timestamp = "ts"
        static let pageName = "lh"
        static let placeholderID = "vpid"
        static let checksum = "z"
        static let eventType = "t"
        static let productID = "pi"
        static let price = "price"
        static let quantity = "qty"
        static let title = "dt"
        static let searchTerms = "st"
        static let otherProducts = "lst"
        static let step = "stp"
        static let transactionID = "tid"
        static let affiliation = "aff"
        static let coupon = "cpn"
        static let revenue = "rev"
        static let tag = "tg"
        static let name = "nm"
        static let message = "msg"
        static let file = "f"
        static let line = "l"
        static let promotionID = "promoId"
        /// Custom property `key`: `cp.<key>` (the SDK's `processCustomProperties`).
        static func customProperty(_ key: String) -> String { "cp.\(key)" }
    }

    /// Values of `t` (checkout and purchase travel as `pageview`, as the official SDK sends them).
    enum EventType {
        static let click = "click"
        static let addToCart = "cart"
        static let removeFromCart = "rmcart"
        static let pageView = "pageview"
        static let error = "error"
        static let custom = "event"
    }

    /// `ts`: epoch milliseconds in base 36.
    static func date(fromTimestamp text: String) -> Date? {
        Int64(text, radix: 36).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// The Android SDK's `z`: MurmurHash3 x86 32-bit (seed 0) of the encoded query's bytes, as a signed
    /// 32-bit integer in base 36 (checked against the Android SDK's own test vectors in
    /// `CroboxEmulatorWireTests`, as the client's is in `CroboxWireTests`).
    package static func checksum(ofEncodedQuery query: String) -> String {
        String(Int64(Int32(bitPattern: murmur3(Array(query.utf8), seed: 0))), radix: 36)
    }

    /// MurmurHash3, x86 32-bit variant (Austin Appleby's `MurmurHash3_x86_32`, public domain): the
    /// emulator's own, so that a client whose hash is wrong fails the emulator's checksum check.
    static func murmur3(_ bytes: [UInt8], seed: UInt32) -> UInt32 {
        func rotateLeft(_ value: UInt32, by count: UInt32) -> UInt32 { (value << count) | (value >> (32 - count)) }
        func mix(_ word: UInt32) -> UInt32 { rotateLeft(word &* 0xcc9e_2d51, by: 15) &* 0x1b87_3593 }
        /// Up to four bytes as a little-endian word.
        func word(_ slice: ArraySlice<UInt8>) -> UInt32 { slice.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        var hash = seed
        var start = bytes.startIndex
        while bytes.endIndex - start >= 4 {
            hash = rotateLeft(hash ^ mix(word(bytes[start..<start + 4])), by: 13) &* 5 &+ 0xe654_6b64
            start += 4
        }
        if start < bytes.endIndex { hash ^= mix(word(bytes[start...])) }
        hash ^= UInt32(truncatingIfNeeded: bytes.count)
        for (shift, factor) in [(16, 0x85eb_ca6b), (13, 0xc2b2_ae35)] as [(UInt32, UInt32)] {
            hash ^= hash >> shift
            hash &*= factor
        }
        return hash ^ (hash >> 16)
    }
}
