extension JournalEntry: CustomStringConvertible {
    /// Header names whose values ``redactedDescription`` hides.
    public static let sensitiveHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    ]

    /// A one-line summary safe to log: sensitive header values are replaced by `<redacted>` and the
    /// body is summarised by its size.
    public var redactedDescription: String {
        let target = rawQuery.map { "\(path)?\($0)" } ?? path
        let outcome = status.map(String.init) ?? "no response"
        let headerList = headers.map { field in
            let value = Self.sensitiveHeaderNames.contains(field.name.lowercased()) ? "<redacted>" : field.value
            return "\(field.name): \(value)"
        }
        .joined(separator: ", ")
        var text = "#\(sequence) \(emulatorID) \(method) \(target) -> \(outcome)"
        if let fault { text += " (fault: \(fault))" }
        text += " headers: [\(headerList)] body: \(body.count) bytes"
        return text
    }

    /// The same as ``redactedDescription``, so an entry never leaks a credential into a log.
    public var description: String { redactedDescription }
}
