/// The web view a banner page runs in, which decides how the page hands its two messages (`height`
/// and `openUrl`) to the native side.
///
/// | platform | the page calls | the native side receives |
/// |---|---|---|
/// | `ios` | `window.webkit.messageHandlers.sovHandler.postMessage({type, value})` | a dictionary (WKScriptMessage body) |
/// | `android` | `window.sovHandler.postMessage(JSON.stringify({type, value}))` | a JSON string (`@JavascriptInterface`) |
/// | `flutter` | `window.flutter_inappwebview.callHandler("sovHandler", {type, value})` | a map (or its JSON) |
/// | `reactNative` | `window.ReactNativeWebView.postMessage("height" + N)` / `("openUrl" + url)` | a string |
/// | `web` | `window.parent.postMessage({type, value}, "*")` | a `message` event in the embedding page |
///
/// ``SovendusBridge`` reads every one of these forms.
public enum SovendusPlatform: String, Sendable, Hashable, CaseIterable, Codable {
    /// WKWebView on Apple platforms.
    case ios
    /// Android's WebView.
    case android
    /// Flutter's `flutter_inappwebview`.
    case flutter
    /// React Native's `react-native-webview`.
    case reactNative = "react-native"
    /// A browser page embedding the banner in an iframe.
    case web

    /// The JavaScript statement(s) of `function send(type, value)` for this platform: constant text,
    /// never built from data. A missing native object drops the message rather than throwing.
    var transportScript: String {
        switch self {
        case .ios:
            return """
                var handlers = window.webkit && window.webkit.messageHandlers;
                    if (handlers && handlers.sovHandler) { handlers.sovHandler.postMessage({ type: type, value: value }); }
                """
        case .android:
            return """
                if (window.sovHandler && window.sovHandler.postMessage) { window.sovHandler.postMessage(JSON.stringify({ type: type, value: value })); }
                """
        case .flutter:
            return """
                var call = function () { window.flutter_inappwebview.callHandler("sovHandler", { type: type, value: value }); };
                    if (window.flutter_inappwebview && window.flutter_inappwebview.callHandler) { call(); }
                    else { window.addEventListener("flutterInAppWebViewPlatformReady", call, { once: true }); }
                """
        case .reactNative:
            return """
                if (window.ReactNativeWebView && window.ReactNativeWebView.postMessage) { window.ReactNativeWebView.postMessage(type + String(value)); }
                """
        case .web:
            return """
                if (window.parent) { window.parent.postMessage({ type: type, value: value }, "*"); }
                """
        }
    }
}
