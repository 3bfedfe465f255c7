/// The client a Crobox request says it came from, by its `sdk` query parameter: Crobox's iOS SDK sends
/// `sdk=1` and keys impressions `[i]`, its Android SDK sends `sdk=2` and keys them `imp[i]`
/// (docs/providers/crobox.md). The emulator's own reading of the parameter, not the client's type, so
/// that a client sending the wrong number fails against it.
public enum CroboxSDKDialect: Int, Sendable, Hashable, CaseIterable {
    /// `sdk=1`.
    case iOS = 1
    /// `sdk=2`.
    case android = 2
}
