import Foundation

/// Compares JSON by shape: its keys, their JSON types and the nesting, not the values. Recorded
/// official answers are checked against what a client sends and what an emulator answers with it.
package enum JSONShape {
    /// The JSON type of a value parsed by `JSONSerialization` (`null`, `string`, `number`, `bool`,
    /// `array`, `object`).
    package static func kind(_ value: Any) -> String {
        switch value {
        case is NSNull: "null"
        case is String: "string"
        // JSONSerialization's booleans are NSNumbers whose Objective-C type is `c` (char), on Linux too.
        case let number as NSNumber: String(cString: number.objCType) == "c" ? "bool" : "number"
        case is [Any]: "array"
        case is [String: Any]: "object"
        default: "unknown"
        }
    }

    /// Where `value` differs in shape from `recorded`: a key the recording lacks, a different JSON type
    /// (`null` on either side matches any type: an optional field may be empty in one answer and set in
    /// another), and, when `exact`, a recorded key `value` lacks. Arrays are compared element by element
    /// against the recording's first element.
    package static func differences(_ value: Any, from recorded: Any, exact: Bool, at path: String = "$") -> [String] {
        let (got, want) = (kind(value), kind(recorded))
        if want == "null" || got == "null" { return [] }
        guard got == want else { return ["\(path): \(got) where the recording has \(want)"] }
        if let object = value as? [String: Any], let expected = recorded as? [String: Any] {
            var found: [String] = []
            for key in object.keys.sorted() {
                guard let expectedValue = expected[key] else {
                    found.append("\(path).\(key): not in the recording")
                    continue
                }
                if let actual = object[key] { found += differences(actual, from: expectedValue, exact: exact, at: "\(path).\(key)") }
            }
            if exact {
                for key in expected.keys.sorted() where object[key] == nil { found.append("\(path).\(key): missing") }
            }
            return found
        }
        if let array = value as? [Any], let expected = recorded as? [Any], let first = expected.first {
            return array.enumerated().flatMap { differences($0.element, from: first, exact: exact, at: "\(path)[\($0.offset)]") }
        }
        return []
    }
}
