/// How many times one logical call may still go out on the wire, shared by every layer that can send
/// it again: the retry middleware, the 401 renewal and a provider's re-send (`APIClient.Hooks`).
///
/// `APIClient` attaches one budget to each call (`NetworkSettings.maxSendsPerCall`, 4 by default); a
/// layer that would send again first checks ``hasRemaining`` and, when the budget is spent, hands the
/// last answer or failure to its caller instead. The stack takes one unit per send
/// (`MiddlewareTransport`), so a middleware that resends on its own cannot exceed the bound either.
final class SendBudget: Sendable {
    /// The most sends the call may make.
    let limit: Int
    private let used = Locked(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Whether one more send is allowed.
    var hasRemaining: Bool { used.value < limit }

    /// Takes one send; `false` when the budget is spent.
    func take() -> Bool {
        used.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }
}

extension HTTPRequestMessage {
    /// Whether the layers above the transport may send this request once more: always for a request
    /// outside an `APIClient` call (no budget), otherwise while the call's budget lasts.
    var mayBeSentAgain: Bool { options.sendBudget?.hasRemaining ?? true }
}
