@_spi(EngageProvider) import EngageCore
import Foundation

/// Hostile variations of a valid JSON document, for property tests of decoding: every variation must
/// decode or fail with an error, never trap.
///
/// The variations start from a real encoding of the type (so they reach deep into its shape) and
/// then, at a seeded random position, drop a key, change a value's type, put in a huge, negative,
/// fractional or non-integral number, a long or hostile string, a deeply nested array, or `null`.
/// Generation is deterministic for a seed.
///
/// ```swift
/// for document in HostileJSON.variations(of: try JSONEncoder().encode(PageRequest()), count: 200, seed: 1) {
///     _ = try? JSONDecoder().decode(PageRequest.self, from: document)   // errors are fine, traps are not
/// }
/// ```
public enum HostileJSON {
    /// Seeded choices among `n` possibilities.
    private struct Picker {
        let source: SeededRandomSource
        mutating func next(below bound: Int) -> Int { min(bound - 1, Int(source.nextFraction() * Double(max(1, bound)))) }
    }

    /// Decodes `type` from `count` hostile variations of `validDocument` (see
    /// ``variations(of:count:seed:)``) and returns each outcome. Reaching the end is the property: no
    /// variation trapped. The caller checks that the failures are the errors it expects.
    public static func decodingOutcomes<T: Decodable>(
        _ type: T.Type, from validDocument: Data, count: Int = 300, seed: UInt64, decoder: JSONDecoder = JSONDecoder()
    ) -> [Result<T, any Error>] {
        variations(of: validDocument, count: count, seed: seed).map { document in
            Result { try decoder.decode(T.self, from: document) }
        }
    }

    /// What went wrong when `valid`'s type decoded hostile variations of `valid`'s encoding: a failure
    /// that is neither a `DecodingError` nor an `EngageError`, a decoded value that cannot be encoded
    /// again, or no variation refused at all. Empty is the property holding (and reaching the end is
    /// the property that nothing trapped).
    ///
    /// ```swift
    /// #expect(try HostileJSON.problems(decoding: PageRequest(offset: 10, limit: 20), seed: 5).isEmpty)
    /// ```
    public static func problems<T: Codable>(decoding valid: T, count: Int = 300, seed: UInt64) throws -> [String] {
        let encoded = try JSONEncoder().encode(valid)
        _ = try JSONDecoder().decode(T.self, from: encoded)  // the starting point is valid
        var problems: [String] = []
        var refused = 0
        for outcome in decodingOutcomes(T.self, from: encoded, count: count, seed: seed) {
            switch outcome {
            case .success(let decoded):
                do {
                    _ = try JSONEncoder().encode(decoded)
                } catch {
                    problems.append("\(T.self): a decoded value could not be encoded again: \(error)")
                }
            case .failure(let error):
                refused += 1
                if !(error is DecodingError || error is EngageError) {
                    problems.append("\(T.self): failed with \(type(of: error)), not a DecodingError or an EngageError")
                }
            }
        }
        if refused == 0 { problems.append("\(T.self) accepted every hostile variation") }
        return problems
    }

    /// `count` variations of `document` (which must be JSON), the same ones for the same `seed`.
    public static func variations(of document: Data, count: Int, seed: UInt64) -> [Data] {
        guard let root = try? JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed]) else { return [] }
        var generator = Picker(source: SeededRandomSource(seed: seed))
        var documents: [Data] = []
        for index in 0..<count {
            let mutated = index == 0 ? hostileValue(&generator) : mutate(root, depth: 0, generator: &generator)
            if let data = try? JSONSerialization.data(withJSONObject: mutated, options: [.fragmentsAllowed]) {
                documents.append(data)
            }
        }
        documents.append(Data(String(repeating: "[", count: 10_000).utf8))  // deeper than any decoder allows
        documents.append(Data("{\"a\":".utf8))  // truncated
        return documents
    }

    private static func mutate(_ value: Any, depth: Int, generator: inout Picker) -> Any {
        switch value {
        case let object as [String: Any] where !object.isEmpty && generator.next(below: 4) != 0:
            var copy = object
            let keys = object.keys.sorted()
            let key = keys[generator.next(below: keys.count)]
            switch generator.next(below: 3) {
            case 0: copy.removeValue(forKey: key)
            default: copy[key] = mutate(object[key] ?? NSNull(), depth: depth + 1, generator: &generator)
            }
            return copy
        case let array as [Any] where !array.isEmpty && generator.next(below: 4) != 0:
            var copy = array
            let index = generator.next(below: array.count)
            copy[index] = mutate(array[index], depth: depth + 1, generator: &generator)
            return copy
        default:
            return hostileValue(&generator)
        }
    }

    private static func hostileValue(_ generator: inout Picker) -> Any {
        switch generator.next(below: 14) {
        case 0: return NSNull()
        case 1: return -1
        case 2: return Int64.max
        case 3: return Int64.min
        case 4: return 1e308
        case 5: return -0.5
        case 6: return 3.7
        case 7: return ""
        case 8: return String(repeating: "x", count: 100_000)
        case 9: return "</script><script>alert(1)</script>\u{2028}\u{0}'\";--"
        case 10: return true
        case 11: return [Any]()
        case 12: return ["unexpected": ["nested": [1, "two", NSNull()]]]
        default:
            var nested: Any = 0
            for _ in 0..<200 { nested = [nested] }
            return nested
        }
    }
}
