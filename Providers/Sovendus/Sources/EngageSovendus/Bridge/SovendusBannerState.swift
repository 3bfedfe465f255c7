@_spi(EngageProvider) import EngageCore
import Foundation
import Observation

/// One Sovendus banner on screen as an `@Observable` object for SwiftUI: whether it is loading, shown
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
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
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

    /// Where the banner is.
    public private(set) var phase: Phase = .loading
    /// The height to give the web view, in points: the page's initial height until it reports one.
    public private(set) var height: Double
    /// The last link the user opened from the banner, after the bridge's checks.
    public private(set) var lastOpenedURL: URL?
    /// The banner's page, for the app's web view.
    public let page: SovendusBannerPage
    /// The bridge to hand the web view's messages to; it updates this object.
    @ObservationIgnored public private(set) var bridge: SovendusBridge

    init(
        page: SovendusBannerPage,
        makeBridge: (@escaping SovendusBridge.HeightHandler, @escaping SovendusBridge.URLOpener) -> SovendusBridge,
        openURL: @escaping SovendusBridge.URLOpener
    ) {
        self.page = page
        height = page.initialHeight
        bridge = SovendusBridge(onHeight: { _ in }, openURL: { _ in })
        bridge = makeBridge(
            { [weak self] height in self?.show(height: height) },
            { [weak self] url in
                self?.lastOpenedURL = url
                openURL(url)
            })
    }

    /// Reports that the web view could not load the page (its navigation delegate's failure): the
    /// banner becomes ``Phase/error(_:)`` with the error, as an `EngageError`.
    public func loadFailed(_ error: any Error) {
        phase = .error(EngageError(.network, "The Sovendus banner page did not load.", providerID: .sovendus, underlyingError: error))
    }

    private func show(height: Double) {
        if self.height != height { self.height = height }
        if phase != .success { phase = .success }
    }
}

extension SovendusProvider {
    /// An observable state for one banner showing `page`: its ``SovendusBannerState/bridge`` is
    /// ``bridge(onHeight:openURL:)``'s, feeding the state, and opens checked links with `openURL`.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor public func bannerState(for page: SovendusBannerPage, openURL: @escaping SovendusBridge.URLOpener) -> SovendusBannerState {
        SovendusBannerState(page: page, makeBridge: { bridge(onHeight: $0, openURL: $1) }, openURL: openURL)
    }
}
