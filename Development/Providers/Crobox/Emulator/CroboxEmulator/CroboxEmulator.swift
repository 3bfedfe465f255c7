@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird
@_spi(EngageProvider) import EngageCore

/// A local Crobox backend: the event pixel and the promotions endpoint, speaking the wire format the
/// official iOS and Android SDKs use.
///
/// Routes, relative to `http://127.0.0.1:<port>/crobox`:
///
/// | route | behaviour |
/// |---|---|
/// | `GET /socket.gif?<query>` | records a ``CroboxReceivedEvent`` and answers a 1x1 transparent GIF; 400 without `cid` or `t` |
/// | `POST /promotions?<query>` body `0=<id>&1=<id>…` | the official promotions document, written by the emulator itself: one promotion per product in request order (one page-level promotion without products) |
///
/// Both SDK dialects are accepted everywhere: `sdk` 1 or 2, impressions as `[i]` (iOS) or `imp[i]`
/// (Android), and the Android `z` checksum, verified whenever present (a mismatch is 400
/// `{"error":"checksum mismatch"}` and nothing is recorded). An unknown or missing container id on
/// `/promotions` is **405**, as the real backend answers.
///
/// Everything is deterministic: the badge a product gets depends only on its id (see
/// ``message(forProductID:)``), and every id in a response (session, promotion, message) is derived
/// from the host's seed and the request, so the same seed and the same requests produce the same bytes.
///
/// ```swift
/// let crobox = CroboxEmulator()
/// let host = SandboxHost(emulators: [crobox])
/// let base = try await host.start().baseURL(for: "crobox")!   // http://127.0.0.1:<port>/crobox
/// // ... exercise a client ...
/// #expect(crobox.receivedEvents.map(\.type) == ["pageview", "click"])
/// ```
public final class CroboxEmulator: Emulator {
    /// The path prefix, `crobox` unless another id was given.
    public let id: String
    /// What the emulated backend knows: containers, campaigns and badge messages.
    public let configuration: Configuration

    let state = Locked(CroboxEmulatorState())

    /// Creates the emulator.
    /// - Parameters:
    ///   - id: The path prefix (change it only to serve two Crobox backends side by side).
    ///   - configuration: Containers, campaigns and the badge catalogue.
    public init(id: String = "crobox", configuration: Configuration = .init()) {
        self.id = id
        self.configuration = configuration
    }

    /// Adds the routes listed in the type's documentation.
    public func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        addEventRoutes(to: group, environment: environment)
        addPromotionRoutes(to: group, environment: environment)
    }
}

extension CroboxEmulator {
    /// Every event accepted by `GET /socket.gif`, in arrival order.
    public var receivedEvents: [CroboxReceivedEvent] { state.withLock { $0.events } }

    /// The accepted events whose `t` is `type` (see `CroboxEmulatorWire.EventType`), in arrival order.
    public func receivedEvents(ofType type: String) -> [CroboxReceivedEvent] {
        state.withLock { $0.events.filter { $0.type == type } }
    }

    /// Every request `POST /promotions` answered with 200, in arrival order.
    public var promotionRequests: [CroboxPromotionRequest] { state.withLock { $0.promotionRequests } }

    /// The session id issued to `visitorID`, or `nil` when that visitor has not asked for promotions
    /// (since the last ``reset()`` or ``expireSessions()``).
    public func sessionID(forVisitor visitorID: UUID) -> UUID? {
        state.withLock { $0.sessions[visitorID] }
    }

    /// Ends every session: the next promotions request of each visitor gets a new session id.
    public func expireSessions() {
        state.withLock { state in
            state.sessions.removeAll()
            state.sessionGeneration += 1
        }
    }

    /// Forgets every recorded event, promotions request and session. Session ids issued afterwards are
    /// the same as after a fresh start, so a reset emulator answers exactly like a new one.
    public func reset() {
        state.withLock { $0 = CroboxEmulatorState() }
    }
}
