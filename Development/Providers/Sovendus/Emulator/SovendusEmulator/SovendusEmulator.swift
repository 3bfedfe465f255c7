@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird

/// A local Sovendus: the coupon redemption API, the error telemetry, the benefits endpoint, and a
/// stand-in for `flexibleIframe.js`, so a whole banner page runs offline in a browser.
///
/// Routes, relative to `http://127.0.0.1:<port>/sovendus`:
///
/// | route | behaviour |
/// |---|---|
/// | `POST /redeem/{trafficSourceNumber}` | 200 `{"message":"Coupon redemption received."}`; 404 for a traffic source that is not digits; 422 `{"error":"Input validation failed."}` for a body that breaks a rule; 500 `{"error":"Internal error"}` for an unknown traffic source or medium id |
/// | `POST /error` | records a telemetry report; 400 for another shape |
/// | `POST /benefits` | the benefits of a known traffic source and medium (404 otherwise); 400 when a consumer field carries anything but `true`/`false` |
/// | `GET /sovabo/common/js/flexibleIframe.js` | the stand-in banner script (see ``bannerScript``) |
/// | `GET /pages/{n}` | a page handed to ``hostPage(_:)`` |
///
/// Redemption rules (as Sovendus validates): `email_hash` 32 lower-case hex digits,
/// `traffic_medium_public_id` a UUID, `order_value` digits, `.` and two decimals, `order_currency`
/// three upper-case letters, `order_id` and `coupon_code` not empty; every field a string.
///
/// ```swift
/// let sovendus = SovendusEmulator()
/// let host = SandboxHost(emulators: [sovendus])
/// let base = try await host.start().baseURL(for: "sovendus")!
/// // EngageEmulators: the client's configuration for this emulator.
/// let configuration = sovendus.providerConfiguration(baseURL: base)
/// ```
public final class SovendusEmulator: Emulator {
    /// What the emulated Sovendus knows.
    public struct Configuration: Sendable {
        /// The traffic source number this Sovendus knows.
        public var trafficSourceNumber: Int
        /// The traffic medium number within it.
        public var trafficMediumNumber: Int
        /// The traffic medium's public id, which redemption must name.
        public var trafficMediumPublicID: UUID

        /// The seeded traffic source and medium unless others are given.
        public init(
            trafficSourceNumber: Int = SovendusEmulator.seededTrafficSourceNumber,
            trafficMediumNumber: Int = SovendusEmulator.seededTrafficMediumNumber,
            trafficMediumPublicID: UUID = SovendusEmulator.seededTrafficMediumPublicID
        ) {
            self.trafficSourceNumber = trafficSourceNumber
            self.trafficMediumNumber = trafficMediumNumber
            self.trafficMediumPublicID = trafficMediumPublicID
        }
    }

    /// The seeded traffic source number, 1234.
    public static let seededTrafficSourceNumber = 1234
    /// The seeded traffic medium number, 1.
    public static let seededTrafficMediumNumber = 1
    /// The seeded traffic medium public id.
    public static let seededTrafficMediumPublicID = UUID(
        uuid: (0x0B, 0x7B, 0x4D, 0x7E, 0x3A, 0x3C, 0x4C, 0x9F, 0x9A, 0x55, 0x6F, 0x1C, 0x2D, 0x3E, 0x4F, 0x5A))
    /// The path of the stand-in banner script under the emulator, as Sovendus serves the real one.
    public static let scriptPath = "sovabo/common/js/flexibleIframe.js"

    /// The path prefix, `sovendus` unless another id was given.
    public let id: String
    /// The traffic numbers it knows.
    public let configuration: Configuration
    let state = Locked(SovendusEmulatorState())

    /// An emulator knowing `configuration`'s traffic source and medium.
    public init(id: String = "sovendus", configuration: Configuration = .init()) {
        self.id = id
        self.configuration = configuration
    }

    /// Adds the routes listed in the type's documentation.
    public func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        addRedemptionRoutes(to: group)
        addBenefitRoutes(to: group)
        addPageRoutes(to: group)
    }
}

extension SovendusEmulator {
    /// Every redemption answered with 200, in arrival order.
    public var redemptions: [SovendusReceivedRedemption] { state.withLock { $0.redemptions } }

    /// Every telemetry report received, in arrival order, with its raw body.
    public var errorReports: [SovendusReceivedErrorReport] { state.withLock { $0.errorReports } }

    /// Every benefits request answered with 200, in arrival order: which consumer fields the app said
    /// it has.
    public var benefitRequests: [[String: Bool]] { state.withLock { $0.benefitRequests } }
    /// How many benefits requests came in sandbox mode (`"sandbox": true`).
    public var sandboxBenefitRequestCount: Int { state.withLock { $0.sandboxBenefitRequests } }

    /// Serves `html` at `pages/<n>` under the emulator and returns that path (for browsers and people:
    /// a page loaded from the emulator's origin behaves as one loaded with the page's base URL).
    public func hostPage(_ html: String) -> String {
        state.withLock { state in
            state.pages.append(html)
            return "pages/\(state.pages.count)"
        }
    }

    /// Forgets every redemption, report, request and hosted page.
    public func reset() {
        state.withLock { $0 = SovendusEmulatorState() }
    }
}

/// A redemption the emulator accepted: the body's fields as sent, each a string.
public struct SovendusReceivedRedemption: Sendable, Hashable {
    /// The traffic source number in the path, as digits.
    public var trafficSourceNumber: String
    /// `email_hash`: 32 lower-case hex digits, never the address.
    public var emailHash: String
    /// `traffic_medium_public_id`, a UUID in the case it was sent.
    public var trafficMediumPublicID: String
    /// `order_value`, as sent: digits, `.` and two decimals.
    public var orderValue: String
    /// `order_currency`, three upper-case letters.
    public var orderCurrency: String
    /// `order_id`, not empty.
    public var orderID: String
    /// `coupon_code`, not empty.
    public var couponCode: String
}

/// A telemetry report the emulator received.
public struct SovendusReceivedErrorReport: Sendable, Hashable {
    /// The body exactly as sent, for checks on everything it carries.
    public var body: Data
    /// The report's `message`, e.g. "redeem_coupon failed: sovendus.redemptionFailed (HTTP 500)".
    public var message: String
    /// The report's `counter`: 1 for a provider instance's first report, up to 3.
    public var counter: Int
    /// The report's `type`, one of the official SDK's `unknown`, `notFound`, `exception`, `cors`.
    public var type: String
}

struct SovendusEmulatorState {
    var redemptions: [SovendusReceivedRedemption] = []
    var errorReports: [SovendusReceivedErrorReport] = []
    var benefitRequests: [[String: Bool]] = []
    var sandboxBenefitRequests = 0
    var pages: [String] = []
}
