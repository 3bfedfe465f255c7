import Observation

/// The state of a provider's model object (``ProviderModels``), observable on every OS the SDK
/// supports: SwiftUI tracks it through Observation where the OS has it (iOS 17, macOS 14 and later),
/// and every OS, iOS 16 included, gets each change as a snapshot from ``updates``.
///
/// A model keeps everything it shows in one `Snapshot` value held here, reads a part of it with
/// ``subscript(_:)`` and changes it only through ``update(_:)``. Each ``Field`` is observed on its own,
/// as `@Observable` observes a stored property: a view that reads the points is not updated when only
/// the loading flag changes. An update that leaves a field equal notifies nobody about it.
///
/// ```swift
/// @MainActor public final class LoyaltyCard {
///     public struct Snapshot: Sendable, Equatable {
///         public var points = 0
///         public var isLoading = false
///     }
///     private let state = ObservableModelState(Snapshot(), fields: [.field(\.points), .field(\.isLoading)])
///     public var points: Int { state[\.points] }
///     public var updates: AsyncStream<Snapshot> { state.updates }
///     func show(points: Int) { state.update { $0.points = points } }
/// }
/// ```
@_spi(EngageProvider) @MainActor
public final class ObservableModelState<Snapshot: Sendable & Equatable> {
    /// One part of the snapshot that Observation tracks on its own.
    public struct Field {
        fileprivate enum Event { case access, willSet, didSet }

        fileprivate let path: PartialKeyPath<Snapshot>
        fileprivate let differs: (Snapshot, Snapshot) -> Bool
        /// Tells the registrar (an `ObservationRegistrar`, untyped for the OS versions before it) of an
        /// event on this field of `state`.
        fileprivate let notify: (_ registrar: Any, _ state: ObservableModelState, _ event: Event) -> Void

        /// The part of the snapshot at `path`.
        @MainActor public static func field<Value: Equatable>(_ path: KeyPath<Snapshot, Value>) -> Field {
            // The registrar tells fields apart by key path: this one's, from the state's storage.
            let tracked = (\ObservableModelState<Snapshot>.current).appending(path: path)
            return Field(
                path: path,
                differs: { $0[keyPath: path] != $1[keyPath: path] },
                notify: { registrar, state, event in
                    guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *),
                        let registrar = registrar as? ObservationRegistrar
                    else { return }
                    switch event {
                    case .access: registrar.access(state, keyPath: tracked)
                    case .willSet: registrar.willSet(state, keyPath: tracked)
                    case .didSet: registrar.didSet(state, keyPath: tracked)
                    }
                })
        }
    }

    private var current: Snapshot
    private let fields: [Field]
    private let fieldIndex: [PartialKeyPath<Snapshot>: Int]
    /// An `ObservationRegistrar` where the OS has Observation: held untyped so that the class exists on
    /// the OS versions before it.
    private let registrar: Any?
    private let broadcaster: StateBroadcaster<Snapshot>

    /// A state holding `initial`, whose `fields` are observed one by one (a part of the snapshot that
    /// is not among them is observed with all of them).
    public init(_ initial: Snapshot, fields: [Field]) {
        current = initial
        self.fields = fields
        fieldIndex = Dictionary(fields.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        broadcaster = StateBroadcaster(initial)
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) {
            registrar = ObservationRegistrar()
        } else {
            registrar = nil
        }
    }

    deinit {
        broadcaster.finish()
    }

    /// The part of the snapshot at `path`. Read in a SwiftUI body or `withObservationTracking` (iOS 17
    /// and later), the read is tracked for that field.
    public subscript<Value>(_ path: KeyPath<Snapshot, Value>) -> Value {
        if let registrar {
            if let index = fieldIndex[path] {
                fields[index].notify(registrar, self, .access)
            } else {
                for field in fields { field.notify(registrar, self, .access) }
            }
        }
        return current[keyPath: path]
    }

    /// The whole snapshot; a tracked read of it is a read of every field.
    public var value: Snapshot {
        if let registrar {
            for field in fields { field.notify(registrar, self, .access) }
        }
        return current
    }

    /// Applies `change` to the snapshot; the observers of each field that changed, and ``updates``,
    /// hear of it. A result that compares equal is still kept (an `EngageError` equals another of its
    /// code, and the newer one's message is the one to show), without a notification.
    public func update(_ change: (inout Snapshot) -> Void) {
        var next = current
        change(&next)
        let changed = fields.filter { $0.differs(current, next) }
        guard let registrar, !changed.isEmpty else {
            current = next
            broadcaster.update { $0 = next }
            return
        }
        for field in changed { field.notify(registrar, self, .willSet) }
        current = next
        for field in changed { field.notify(registrar, self, .didSet) }
        broadcaster.update { $0 = next }
    }

    /// The current snapshot, then one per change, the newest only when a reader falls behind (the form
    /// for iOS 16 apps: `.task { for await snapshot in model.updates { … } }`). The sequence ends when
    /// the model is released.
    public nonisolated var updates: AsyncStream<Snapshot> { broadcaster.updates() }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension ObservableModelState: Observable {}
