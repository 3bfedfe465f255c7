import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
@_spi(EngageProvider) import EngageCore
import UnixSignals

extension SandboxHost {
    /// Starts serving and returns once the server is listening.
    /// - Returns: The bound port and every emulator's base URL.
    /// - Throws: ``SandboxError`` for invalid or duplicate emulator ids, a second start, or a server
    ///   that could not bind.
    public func start() async throws -> SandboxEndpoints {
        try await start(shutdownSignals: [])
    }

    /// Starts serving, calls `onStart` with the endpoints, and serves until SIGINT or SIGTERM arrives
    /// (when `handlingSignals`), ``stop()`` is called or the calling task is cancelled; then shuts
    /// down gracefully.
    /// - Parameters:
    ///   - handlingSignals: Whether SIGINT and SIGTERM shut the host down (for executables; tests
    ///     pass `false` to leave the process's signal handling alone).
    ///   - onStart: Called once the server is listening, e.g. to print the endpoints.
    /// - Throws: What ``start()`` throws, or the server's error if it failed while serving.
    public func run(
        handlingSignals: Bool = true, onStart: @Sendable (SandboxEndpoints) async -> Void = { _ in }
    ) async throws {
        let endpoints = try await start(shutdownSignals: handlingSignals ? [.sigterm, .sigint] : [])
        await onStart(endpoints)
        guard let server = currentServer() else { return }
        try await withTaskCancellationHandler {
            try await server.task.value
        } onCancel: {
            Task { await self.stop() }
        }
    }

    /// Shuts the server down gracefully: it stops accepting connections, lets in-flight requests finish
    /// (up to ``SandboxConfiguration/shutdownGracePeriod``) and returns when it is closed. Calling it
    /// again, or on a host that never started, does nothing.
    public func stop() async {
        let server = lifecycle.withLock { state -> Server? in
            switch state {
            case .idle:
                state = .stopped(nil)
                return nil
            case .starting(let server), .stopped(let server):
                state = .stopped(server)
                return server
            case .running(let server, _):
                state = .stopped(server)
                return server
            }
        }
        // Long-lived event streams (the sandbox UI's) end now, or they would hold the graceful shutdown.
        journal.finishUpdates()
        faults.finishChanges()
        guard let server else { return }
        await server.group.triggerGracefulShutdown()
        _ = try? await server.task.value
    }

    private func currentServer() -> Server? {
        lifecycle.withLock { state in
            switch state {
            case .idle: nil
            case .starting(let server), .stopped(let server): server
            case .running(let server, _): server
            }
        }
    }

    private func start(shutdownSignals: [UnixSignal]) async throws -> SandboxEndpoints {
        let ids = emulators.map(\.id)
        try Self.validate(emulatorIDs: ids)
        try lifecycle.withLock { state throws(SandboxError) in
            guard case .idle = state else { throw .alreadyStarted }
            state = .starting(nil)
        }

        let listening = ListeningSignal()
        let application = Application(
            router: makeRouter(),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "engage-sandbox"
            ),
            onServerRunning: { channel in listening.succeed(port: channel.localAddress?.port) },
            logger: configuration.logger
        )
        var groupConfiguration = ServiceGroupConfiguration(
            services: [application], gracefulShutdownSignals: shutdownSignals, logger: configuration.logger
        )
        groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
        let group = ServiceGroup(configuration: groupConfiguration)
        let task = Task {
            do {
                try await group.run()
            } catch {
                listening.fail(error)
                throw error
            }
            listening.fail(SandboxError.startFailed("The server stopped before it was listening."))
        }
        let server = Server(group: group, task: task)
        let stillStarting = lifecycle.withLock { state -> Bool in
            guard case .starting = state else { return false }
            state = .starting(server)
            return true
        }
        guard stillStarting else {
            // stop() ran while we were setting up.
            await group.triggerGracefulShutdown()
            _ = try? await task.value
            throw SandboxError.startFailed("The host was stopped while starting.")
        }

        let port: Int
        do {
            port = try await listening.wait()
        } catch {
            await stop()
            if let error = error as? SandboxError { throw error }
            throw SandboxError.startFailed(String(describing: error))
        }
        let endpoints = SandboxEndpoints(host: configuration.host, port: port, emulatorIDs: ids)
        let running = lifecycle.withLock { state -> Bool in
            guard case .starting = state else { return false }
            state = .running(server, endpoints)
            return true
        }
        guard running else { throw SandboxError.startFailed("The host was stopped while starting.") }
        configuration.logger.info("Sandbox listening on \(configuration.host):\(port) with emulators \(ids)")
        return endpoints
    }

    private func makeRouter() -> Router<SandboxRequestContext> {
        let router = Router(context: SandboxRequestContext.self)
        router.add(
            middleware: SandboxMiddleware(
                emulatorIDs: Set(emulators.map(\.id)),
                journal: journal,
                faults: faults,
                maxBodySize: configuration.maxBodySize,
                now: configuration.now,
                sleep: configuration.sleep,
                logger: configuration.logger
            )
        )
        for emulator in emulators {
            emulator.addRoutes(to: router.group(RouterPath(emulator.id)), environment: environment(for: emulator.id))
        }
        for routes in extensions {
            routes.addRoutes(to: router, host: self)
        }
        return router
    }
}
