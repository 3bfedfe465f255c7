/// Ordering helpers for query results.
enum ExploreOrdering {
    /// Moves the first `count` elements of `elements` in `precedes` order to the front, sorted; the
    /// others follow in no particular order.
    ///
    /// A page of 100 out of tens of thousands of matches needs only its own elements sorted: this keeps
    /// the best `count` in a heap (O(n log count)) when `count` is small next to the whole, and sorts
    /// everything otherwise. `precedes` must be a strict total order, so the front is the same as a
    /// full sort's.
    static func sortPrefix<Element>(_ elements: inout [Element], count: Int, by precedes: (Element, Element) -> Bool) {
        let count = max(0, min(count, elements.count))
        guard count > 0 else { return }
        guard count * 8 < elements.count else {
            elements.sort(by: precedes)
            return
        }
        // A max-heap (by `precedes`) of the best `count` so far, kept in `elements[0..<count]`.
        elements.withUnsafeMutableBufferPointer { buffer in
            func siftDown(_ start: Int) {
                var parent = start
                while true {
                    let left = 2 * parent + 1
                    guard left < count else { return }
                    var largest = left
                    if left + 1 < count && precedes(buffer[left], buffer[left + 1]) { largest = left + 1 }
                    guard precedes(buffer[parent], buffer[largest]) else { return }
                    buffer.swapAt(parent, largest)
                    parent = largest
                }
            }
            for index in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(index) }
            for index in count..<buffer.count where precedes(buffer[index], buffer[0]) {
                buffer.swapAt(0, index)
                siftDown(0)
            }
        }
        elements[0..<count].sort(by: precedes)
    }
}
