@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

extension ReferenceEmulator: InspectableEmulator {
    /// Three tables: `Events` (the stored events, newest first, with their payload as compact JSON),
    /// `Sessions` (each user holding unused refresh tokens, with how many; never the tokens) and
    /// `Counters` (logins, refreshes, stored and duplicate events).
    public func inspect() -> EmulatorStateView {
        let snapshot = store.withLock { store in
            (
                events: Array(store.events.suffix(EmulatorStateView.rowLimit)), subjects: Array(store.refreshTokens.values),
                loginCount: store.loginCount,
                refreshCount: store.refreshCount, eventCount: store.events.count, duplicateEventCount: store.duplicateEventCount
            )
        }
        let events = snapshot.events.reversed().map { [$0.id, $0.name, Self.compactJSON($0.payload)] }
        var tokensBySubject: [String: Int] = [:]
        for subject in snapshot.subjects { tokensBySubject[subject, default: 0] += 1 }
        let sessions = tokensBySubject.sorted { $0.key < $1.key }.prefix(EmulatorStateView.rowLimit).map { [$0.key, String($0.value)] }
        return EmulatorStateView(tables: [
            .init(title: "Events", columns: ["id", "name", "payload"], rows: events),
            .init(title: "Sessions", columns: ["user", "unused refresh tokens"], rows: Array(sessions)),
            .init(
                title: "Counters", columns: ["counter", "value"],
                rows: [
                    ["logins", String(snapshot.loginCount)],
                    ["refreshes", String(snapshot.refreshCount)],
                    ["events stored", String(snapshot.eventCount)],
                    ["duplicate events ignored", String(snapshot.duplicateEventCount)],
                ]),
        ])
    }

    /// Forgets the stored events, every refresh token (so every session ends) and the counters. The
    /// refresh-token generator keeps its place in the host's seeded stream, so tokens issued afterwards
    /// are new ones.
    public func reset() {
        store.withLock { store in
            let generator = store.generator
            store = ReferenceStore()
            store.generator = generator
        }
    }

    /// `payload` as compact JSON with sorted keys, cut at 200 characters (empty when absent).
    private static func compactJSON(_ payload: JSONValue) -> String {
        if case .null = payload { return "" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(payload), let text = String(data: data, encoding: .utf8) else { return "" }
        return text.count > 200 ? String(text.prefix(199)) + "…" : text
    }
}
