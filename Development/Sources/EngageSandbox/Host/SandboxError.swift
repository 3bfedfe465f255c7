/// Errors the sandbox host reports.
public enum SandboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Two emulators share an id.
    case duplicateEmulatorID(String)
    /// An emulator id is empty or not a lowercase path segment (`[a-z0-9._-]+`).
    case invalidEmulatorID(String)
    /// ``SandboxHost/start()`` was called on a host that is starting, running or stopped.
    case alreadyStarted
    /// The server stopped before it was listening (e.g. the port was taken); the message says why.
    case startFailed(String)
    /// ``RequestJournal/waitForEntries(count:emulatorID:timeout:)`` timed out.
    case journalTimeout(expected: Int, actual: Int)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .duplicateEmulatorID(let id): "Two emulators use the id \"\(id)\"; ids must be unique."
        case .invalidEmulatorID(let id): "Emulator id \"\(id)\" must be a non-empty lowercase path segment ([a-z0-9._-])."
        case .alreadyStarted: "The sandbox host was already started; create a new host to start again."
        case .startFailed(let reason): "The sandbox host could not start: \(reason)"
        case .journalTimeout(let expected, let actual):
            "Timed out waiting for \(expected) journal entries; \(actual) arrived."
        }
    }
}
