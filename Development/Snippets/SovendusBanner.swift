// The Sovendus banner on an order-confirmation screen: build the page, read what the web view hands
// back, decide its navigations, and redeem the order's coupon. Runs offline against the emulator; in
// an app, the web view (WKWebView, Android's WebView, Flutter, React Native) is the app's own.

// snippet.hide
import Engage
import EngageEmulators
import EngageSandbox
import EngageSovendus
import Foundation

let sandbox = SandboxHost(emulators: BuiltInEmulators.all())
var configuration = EngageConfiguration.preset(.testing, appID: "com.example.shop")
try BuiltInEmulators.configure(&configuration, endpoints: try await sandbox.start())
configuration.providers = configuration.providers.filter { $0.key == "sovendus" }
let engage = try Engage(configuration: configuration)
// snippet.show

// snippet.banner
let sovendus = try await engage.provider(SovendusProvider.self)
let order = SovendusOrder(id: "Order-123", netValue: 120.5, currency: "EUR", couponCode: "WELCOME10")
let consumer = SovendusConsumer(salutation: .mrs, firstName: "Eva", email: "eva@example.com", country: "DE")
let page = try sovendus.bannerPage(for: order, consumer: consumer, platform: .ios)
// The app's web view loads page.html with page.baseURL, page.initialHeight points high.
let bridge = sovendus.bridge(
    onHeight: { height in print("banner height:", height) },
    openURL: { url in print("open in the system browser:", url) }
)
// Its message handler hands over each message as received; its navigation delegate asks the policy.
bridge.receive(["type": "height", "value": 420])
let decision = page.navigationPolicy.decision(for: URL(string: "https://shop.example/deal"), trigger: .userAction)
let receipt = try await sovendus.redeemCoupon(for: order, consumer: consumer)
// snippet.end

print(decision)  // openExternally(https://shop.example/deal)
print(receipt.message ?? "received")  // Coupon redemption received.
precondition(sandbox.journal.entries(for: "sovendus").filter { $0.path.hasPrefix("/redeem/") }.count == 1)
await engage.shutdown()
await sandbox.stop()
