@_spi(EngageProvider) import EngageCore
import Foundation
import Observation

/// One Sovendus banner on screen as an observable object for SwiftUI: whether it is loading, shown
/// (`success`) or failed (`error`), as Sovendus' iOS SDK reports it, the height to give the web view,
/// and the last link the user opened from it (the SDK's `onLinkOpened`).
///
/// ```swift
/// struct VoucherBannerView: View {
///     let banner: SovendusBannerState  // sovendus.bannerState(for: page) { url in openURL(url) }
///     var body: some View {
///         switch banner.phase {
///         case .loading: ProgressView()
///         case .success: Text("Your voucher").frame(height: banner.height)  // the app's web view here
///         case .error(let error): Text(error.localizedDescription)
///         }
///     }
/// }
/// ```
///
/// The app's web view loads ``page`` and hands every message to ``bridge``; the banner is shown from
/// the first height the page reports. The web view's navigation delegate reports a page that did not
/// load with ``loadFailed(_:)``. Links go to the `openURL` the state was made with, after the bridge's
/// checks.
///
/// On iOS 17, macOS 14 and later it is `Observable`; on every OS, iOS 16 included, ``updates`` delivers
/// it as a ``Snapshot`` after each change
/// (`.task { for await snapshot in banner.updates { height = snapshot.height } }`).
@MainActor
public final class SovendusBannerState {
    /// Where the banner is: the states Sovendus' own iOS SDK reports from its `VoucherBenefitsView`
    /// (`SovendusState`), under the same names.
    public enum Phase: Sendable, Equatable {
        /// The page is loading; nothing is shown yet.
        case loading
        /// The page reported its height: the banner is on screen.
        case success
        /// The page could not be loaded (``loadFailed(_:)``).
        case error(EngageError)
    }

    /// Everything the banner shows, as one value: what ``updates`` delivers.
    public struct Snapshot: Sendable, Equatable {
        /// Where the banner is.
        public internal(set) var phase: Phase = .loading
        /// The height to give the web view, in points.
        public internal(set) var height: Double
        /// The last link the user opened from the banner, after the bridge's checks.
        public internal(set) var lastOpenedURL: URL?
    }

    /// Where the banner is.
    public var phase: Phase { state[\.phase] }
    /// The height to give the web view, in points: the page's initial height until it reports one.
    public var height: Double { state[\.height] }
    /// The last link the user opened from the banner, after the bridge's checks.
    public var lastOpenedURL: URL? { state[\.lastOpenedURL] }
    /// The whole banner as it is now.
    public var snapshot: Snapshot { state.value }
    /// The banner as it is now, then again after every change (the newest only, when a reader falls
    /// behind): the form for iOS 16, where SwiftUI cannot observe the object itself. The sequence ends
    /// when the object is released.
    public nonisolated var updates: AsyncStream<Snapshot> { state.updates }
    /// The banner's page, for the app's web view.
    public let page: SovendusBannerPage
    /// The bridge to hand the web view's messages to; it updates this object.
    public private(set) var bridge: SovendusBridge

    private let state: ObservableModelState<Snapshot>

    init(
        page: SovendusBannerPage,
        makeBridge: (@escaping SovendusBridge.HeightHandler, @escaping SovendusBridge.URLOpener) -> SovendusBridge,
        openURL: @escaping SovendusBridge.URLOpener
    ) {
        self.page = page
        state = ObservableModelState(
            Snapshot(height: page.initialHeight), fields: [.field(\.phase), .field(\.height), .field(\.lastOpenedURL)])
        bridge = SovendusBridge(onHeight: { _ in }, openURL: { _ in })
        bridge = makeBridge(
            { [weak self] height in self?.show(height: height) },
            { [weak self] url in
                self?.state.update { $0.lastOpenedURL = url }
                openURL(url)
            })
    }

    /// Reports that the web view could not load the page (its navigation delegate's failure): the
    /// banner becomes ``Phase/error(_:)`` with the error, as an `EngageError`.
    public func loadFailed(_ error: any Error) {
        let failure = EngageError(.network, "The Sovendus banner page did not load.", providerID: .sovendus, underlyingError: error)
        state.update { $0.phase = .error(failure) }
    }

    private func show(height: Double) {
        state.update {
            $0.height = height
            $0.phase = .success
        }
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension SovendusBannerState: Observable {}

extension SovendusProvider {
    /// An observable state for one banner showing `page`: its ``SovendusBannerState/bridge`` is
    /// ``bridge(onHeight:openURL:)``'s, feeding the state, and opens checked links with `openURL`.
    @MainActor public func bannerState(for page: SovendusBannerPage, openURL: @escaping SovendusBridge.URLOpener) -> SovendusBannerState {
        SovendusBannerState(page: page, makeBridge: { bridge(onHeight: $0, openURL: $1) }, openURL: openURL)
    }
}
