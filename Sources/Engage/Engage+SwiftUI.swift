#if canImport(SwiftUI)
    import SwiftUI

    /// The environment entry behind `EnvironmentValues.engage`.
    private struct EngageEnvironmentKey: EnvironmentKey {
        static var defaultValue: Engage { .shared }
    }

    extension EnvironmentValues {
        /// The `Engage` instance views read with `@Environment(\.engage)`: `Engage.shared` unless a view
        /// above sets another, as a preview or a UI test does with an `EngageFake`'s instance
        /// (`.environment(\.engage, fake.engage)`). Its providers' models are read from it at once
        /// (`engage.warply.wallet`).
        public var engage: Engage {
            get { self[EngageEnvironmentKey.self] }
            set { self[EngageEnvironmentKey.self] = newValue }
        }
    }
#endif
