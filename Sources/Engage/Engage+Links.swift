@_spi(EngageProvider) import EngageCore
import Foundation

extension Engage {
    /// The provider link `url` stands for, by the configuration's `LinkSettings` (its `links`); `nil`
    /// when no route matches. Sends nothing and publishes nothing: for an app that routes links itself.
    public func link(for url: URL) -> EngageLink? {
        configuration.links.link(for: url)
    }

    /// Handles a URL the app was opened with (a universal link, a custom scheme): when a route of the
    /// configuration's `links` matches it, publishes the `EngageLink` on ``events`` and returns
    /// `true`; otherwise returns `false` and the URL is the app's. Nothing is sent.
    ///
    /// ```swift
    /// WindowGroup { ContentView() }
    ///     .onOpenURL { url in
    ///         if !Engage.shared.handle(url) { appRouter.open(url) }
    ///     }
    /// ```
    @discardableResult
    public func handle(_ url: URL) -> Bool {
        guard let link = link(for: url) else { return false }
        events.publish(link)
        return true
    }

    /// Handles the payload of a notification the user opened: when the payload carries a link (a
    /// string under one of the configuration's `links.notificationKeys`, at its top level) that a route
    /// matches, publishes the `EngageLink` (origin `.notification`) on ``events`` and returns `true`;
    /// otherwise `false`, and the notification is the app's.
    ///
    /// ```swift
    /// func userNotificationCenter(
    ///     _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
    /// ) async {
    ///     _ = Engage.shared.handleNotification(response.notification.request.content.userInfo)
    /// }
    /// ```
    @discardableResult
    public func handleNotification(_ userInfo: [AnyHashable: Any]) -> Bool {
        guard let link = link(inNotification: userInfo) else { return false }
        events.publish(link)
        return true
    }

    /// The link a notification's payload carries, if a route matches it.
    func link(inNotification userInfo: [AnyHashable: Any]) -> EngageLink? {
        for key in configuration.links.notificationKeys {
            guard let text = userInfo[key] as? String, text.utf8.count <= 4_096, let url = URL(string: text) else { continue }
            return configuration.links.link(for: url, origin: .notification)
        }
        return nil
    }
}
