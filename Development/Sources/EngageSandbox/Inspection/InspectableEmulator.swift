/// An emulator that shows its state in the sandbox UI (`engage-sandbox`'s `ui` page) and can be put
/// back to its starting state from there.
///
/// ```swift
/// /// A small backend that records the deals clients claim, and shows them in the sandbox UI.
/// final class DealsEmulator: InspectableEmulator {
///     let id = "deals"
///     private let claims = Locked<[String]>([])
///
///     func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
///         group.post("claims/:deal") { _, context in
///             let deal = context.parameters.get("deal") ?? ""
///             self.claims.withLock { $0.append(deal) }
///             return Response(status: .created)
///         }
///     }
///
///     func inspect() -> EmulatorStateView {
///         EmulatorStateView(tables: [
///             .init(title: "Claims", columns: ["deal"], rows: claims.value.reversed().map { [$0] })
///         ])
///     }
///
///     func reset() {
///         claims.withLock { $0.removeAll() }
///     }
/// }
/// ```
public protocol InspectableEmulator: Emulator {
    /// A read-only view of what a developer wants to see (users, orders, received events), as titled
    /// tables. It never contains credentials (tokens, passwords, secrets); card numbers and codes are
    /// shown by their last four characters.
    func inspect() -> EmulatorStateView

    /// Forgets what clients did since the emulator started, back to its seeded starting state.
    func reset()
}

/// What ``InspectableEmulator/inspect()`` returns: tables of text, in the order they are shown.
public struct EmulatorStateView: Sendable, Codable, Equatable {
    /// One titled table. Every row has one cell per column.
    public struct Table: Sendable, Codable, Equatable {
        /// The heading shown above the table, e.g. `Users`.
        public var title: String
        /// The column headings.
        public var columns: [String]
        /// The rows, each with one cell per column (a shorter row is padded with empty cells).
        public var rows: [[String]]

        /// A table titled `title` with these `columns` and `rows`.
        public init(title: String, columns: [String], rows: [[String]]) {
            self.title = title
            self.columns = columns
            self.rows = rows
        }
    }

    /// The tables, in display order.
    public var tables: [Table]

    /// A view made of `tables`.
    public init(tables: [Table]) {
        self.tables = tables
    }
}

extension EmulatorStateView {
    /// The most rows an emulator puts in one table: the newest 200.
    public static let rowLimit = 200

    /// The last four characters of `secretLike` behind bullets (`•••• 4242`), for card numbers and
    /// codes shown in a state view; empty text stays empty.
    public static func lastFour(_ secretLike: String) -> String {
        guard !secretLike.isEmpty else { return "" }
        return "•••• " + String(secretLike.suffix(4))
    }
}
