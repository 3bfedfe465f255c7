#if PiggyCards
    import EngageCore

    /// Makes concurrent calls without a token share one `POST login`: the first caller logs in, the
    /// others wait for its outcome (success or error). A later call with no token logs in anew.
    actor PiggyCardsLoginGate {
        private var inFlight: Task<Void, any Error>?

        /// Returns once `tokens` holds a session, running `logIn` at most once for concurrent callers.
        func ensureSession(_ tokens: TokenManager, logIn: @escaping @Sendable () async throws -> Void) async throws {
            if try await tokens.hasSession() { return }
            if let inFlight { return try await inFlight.value }
            let login = Task { try await logIn() }
            inFlight = login
            defer { inFlight = nil }
            try await login.value
        }
    }
#endif
