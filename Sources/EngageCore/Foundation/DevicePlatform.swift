import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

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

    /// The hardware model as the kernel names it: `iPhone15,2` on an iPhone, the simulated device's
    /// identifier in the iOS simulator, the architecture (`arm64`, `x86_64`) on Macs and Linux; `unknown`
    /// when the kernel does not say.
    package static var model: String {
        if let simulated = ProcessInfo.processInfo.environment["SIMULATOR_MODEL_IDENTIFIER"], !simulated.isEmpty {
            return simulated
        }
        var system = utsname()
        guard uname(&system) == 0 else { return "unknown" }
        let machine = withUnsafeBytes(of: &system.machine) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return machine.isEmpty ? "unknown" : machine
    }
}
