// Stand-ins for the few SwiftUI names the docs' SwiftUI blocks use, so that .ci/check-doc-code can
// type-check those blocks where SwiftUI does not exist (Linux, where CI runs): the EngageKit calls in
// them (the observable models, `engage.state`) are compiled against the package; the views only
// need to be well-formed. On macOS the blocks compile against the real SwiftUI instead.
import Engage
import Foundation
@MainActor protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

/// What every stand-in view and modifier is.
struct ShimView: View {
    var body: ShimView { ShimView() }
}

@resultBuilder enum ViewBuilder {
    static func buildExpression(_ view: any View) -> any View { view }
    static func buildBlock(_ parts: (any View)...) -> ShimView { ShimView() }
    static func buildOptional(_ part: (any View)?) -> any View { ShimView() }
    static func buildEither(first: any View) -> any View { first }
    static func buildEither(second: any View) -> any View { second }
}

struct Text: View {
    init(_ text: String) {}
    var body: ShimView { ShimView() }
}

struct ProgressView: View {
    init() {}
    init(value: Double) {}
    var body: ShimView { ShimView() }
}

struct VStack: View {
    init(@ViewBuilder content: () -> ShimView) {}
    var body: ShimView { ShimView() }
}

struct List: View {
    init(@ViewBuilder content: () -> ShimView) {}
    init<Data: RandomAccessCollection>(_ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> ShimView)
    where Data.Element: Identifiable {}
    var body: ShimView { ShimView() }
}

struct ForEach: View {
    init<Data: RandomAccessCollection, ID: Hashable>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> ShimView
    ) {}
    var body: ShimView { ShimView() }
}

struct Color: View {
    static let clear = Color()
    var body: ShimView { ShimView() }
}

extension View {
    func task(_ action: @escaping @Sendable @MainActor () async -> Void) -> ShimView { ShimView() }
    func refreshable(action: @escaping @Sendable () async -> Void) -> ShimView { ShimView() }
    func frame(height: Double) -> ShimView { ShimView() }
}

/// The environment's values the docs read: EngageKit's entry (the real one is `EnvironmentValues.engage`
/// in Sources/Engage/Engage+SwiftUI.swift, compiled where SwiftUI exists).
struct EnvironmentValues {
    var engage: Engage { Engage.shared }
}

/// A view's own value: SwiftUI keeps it outside the view, so a view (a struct) sets it from its body's
/// closures, on the main actor.
@MainActor @propertyWrapper struct State<Value> {
    private final class Storage {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
    private let storage: Storage
    init(wrappedValue: Value) { storage = Storage(wrappedValue) }
    var wrappedValue: Value {
        get { storage.value }
        nonmutating set { storage.value = newValue }
    }
}

@propertyWrapper struct Environment<Value> {
    let wrappedValue: Value
    init(_ keyPath: KeyPath<EnvironmentValues, Value>) { wrappedValue = EnvironmentValues()[keyPath: keyPath] }
}

/// An app's entry point and its scenes (`@main` is dropped from a block compiled with these stand-ins:
/// the snippet is a program of its own).
@MainActor protocol App {
    associatedtype Body: Scene
    init()
    @SceneBuilder var body: Body { get }
}

@MainActor protocol Scene {}

struct ShimScene: Scene {}

@resultBuilder enum SceneBuilder {
    static func buildBlock(_ parts: any Scene...) -> ShimScene { ShimScene() }
}

struct WindowGroup: Scene {
    init(@ViewBuilder content: () -> ShimView) {}
}

extension View {
    func onOpenURL(perform action: @escaping (URL) -> Void) -> ShimView { ShimView() }
}
