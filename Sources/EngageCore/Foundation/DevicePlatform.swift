/// The operating system the SDK runs on, named as backends expect it in headers and reports.
package enum DevicePlatform {
    /// `ios`, `macos`, `tvos`, `watchos`, `visionos`, `android`, `linux`, or `other`.
    package static var name: String {
        #if os(iOS)
            "ios"
        #elseif os(macOS)
            "macos"
        #elseif os(tvOS)
            "tvos"
        #elseif os(watchOS)
            "watchos"
        #elseif os(visionOS)
            "visionos"
        #elseif os(Android)
            "android"
        #elseif os(Linux)
            "linux"
        #else
            "other"
        #endif
    }
}
