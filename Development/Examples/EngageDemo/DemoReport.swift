import Foundation

/// The demo's output: titled sections of lines, printed as text or JSON.
struct DemoReport {
    struct Section: Codable {
        var title: String
        var lines: [String] = []

        mutating func line(_ text: String) { lines.append(text) }
    }

    private(set) var sections: [Section] = []

    mutating func section(_ title: String, _ fill: (inout Section) -> Void) {
        var section = Section(title: title)
        fill(&section)
        sections.append(section)
    }

    func print(asJSON: Bool) {
        var output = ""
        if asJSON {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            output = (try? encoder.encode(sections)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
            output += "\n"
        } else {
            for section in sections {
                output += "\n== \(section.title) ==\n"
                for line in section.lines { output += "  \(line)\n" }
            }
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
