@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

extension CroboxEmulator: InspectableEmulator {
    /// Four tables, newest first: `Events` (every accepted pixel event), `Error reports` (the events of
    /// type `error` with their tag, name, message, file and line), `Promotion requests` (each answered
    /// `POST /promotions` with its products) and `Sessions` (the session id each visitor holds).
    /// ``reset()`` empties them all.
    public func inspect() -> EmulatorStateView {
        let (events, errors, requests, sessions) = state.withLock { state in
            (
                Array(state.events.suffix(EmulatorStateView.rowLimit)),
                Array(state.events.filter { $0.type == CroboxEmulatorWire.EventType.error }.suffix(EmulatorStateView.rowLimit)),
                Array(state.promotionRequests.suffix(EmulatorStateView.rowLimit)),
                state.sessions
            )
        }
        typealias Key = CroboxEmulatorWire.Key
        let eventRows = events.reversed().map { event -> [String] in
            [
                event.receivedAt.formatted(.iso8601), event.type, event.containerID, event.visitorID ?? "",
                event.pageType.map(String.init) ?? "",
                event.productID ?? "", event.impressions.joined(separator: ", "), event.sdk.map(String.init) ?? "",
            ]
        }
        let errorRows = errors.reversed().map { event -> [String] in
            [
                event.receivedAt.formatted(.iso8601), event[Key.tag] ?? "", event[Key.name] ?? "", event[Key.message] ?? "",
                event[Key.file] ?? "",
                event[Key.line] ?? "",
            ]
        }
        let requestRows = requests.reversed().map { request -> [String] in
            [
                request.receivedAt.formatted(.iso8601), request.containerID, request.visitorID.uuidString, request.placeholderID,
                request.productIDs.isEmpty ? "(page)" : request.productIDs.joined(separator: ", "),
            ]
        }
        let sessionRows = sessions.map { [$0.key.uuidString, $0.value.uuidString] }.sorted { $0[0] < $1[0] }.prefix(
            EmulatorStateView.rowLimit)
        return EmulatorStateView(tables: [
            .init(
                title: "Events", columns: ["received at", "type", "container", "visitor", "page type", "product", "impressions", "sdk"],
                rows: eventRows
            ),
            .init(title: "Error reports", columns: ["received at", "tag", "name", "message", "file", "line"], rows: errorRows),
            .init(
                title: "Promotion requests", columns: ["received at", "container", "visitor", "placeholder", "products"], rows: requestRows),
            .init(title: "Sessions", columns: ["visitor", "session"], rows: Array(sessionRows)),
        ])
    }
}
