@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Testing

/// A unique temporary directory for one test. Delete it with `defer { directory.remove() }`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        let name = "engagekit-tests-" + UUID().uuidString
        path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/<component>`.
    func appending(_ component: String) -> String {
        path + "/" + component
    }
}

extension FakeClock {
    /// Moves the clock forward by `seconds`.
    func advance(by seconds: Double) {
        advance(by: .seconds(double: seconds))
    }
}

/// Polls `condition` until it holds; records an issue (and returns) when the test is cancelled first,
/// which only its deadline does (the code under test is then broken or hung).
func eventually(sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async -> Bool) async {
    let met = await waitUntil(condition)
    if !met { Issue.record("Condition not met before the test was cancelled", sourceLocation: sourceLocation) }
}

/// A random source that always returns the same fraction.
struct ConstantRandom: RandomSource {
    var fraction: Double
    func nextFraction() -> Double { fraction }
}

/// Expects `body` to throw an `EngageError` and returns it.
@discardableResult
func expectEngageError(
    _ code: EngageError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> EngageError? {
    do {
        try body()
        Issue.record("Expected EngageError(\(code)), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as EngageError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("Expected EngageError(\(code)), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Expects async `body` to throw an `EngageError` and returns it.
@discardableResult
func expectEngageError(
    _ code: EngageError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> EngageError? {
    do {
        try await body()
        Issue.record("Expected EngageError(\(code)), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as EngageError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("Expected EngageError(\(code)), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
