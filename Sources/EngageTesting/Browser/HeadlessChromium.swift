#if os(Linux) || os(macOS)
    @_spi(EngageProvider) import EngageCore
    import Foundation
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A real headless Chromium for tests of web pages, driven over the DevTools protocol on a pipe
    /// (`--remote-debugging-pipe`): no port, no WebSocket, nothing to clean up when the test process
    /// ends (Chromium exits when its pipe closes).
    ///
    /// ```swift
    /// let browser = try await HeadlessChromium.shared()
    /// let tab = try await browser.newTab()
    /// try await tab.addScriptOnNewDocument("window.recorded = [];")
    /// try await tab.navigate(to: pageURL)
    /// #expect(try await tab.waitFor("document.getElementById('banner') !== null"))
    /// let title: String = try await tab.evaluate("document.title")
    /// ```
    ///
    /// The executable is `$CHROMIUM` when set, else the first of `chromium`, `chromium-browser` and
    /// `google-chrome` on the `PATH` (Debian's `chromium` package installs `/usr/bin/chromium`).
    public final class HeadlessChromium: Sendable {
        /// The Chromium executable found, or `nil` when there is none.
        public static var executablePath: String? {
            let environment = ProcessInfo.processInfo.environment
            if let configured = environment["CHROMIUM"], !configured.isEmpty { return configured }
            let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
            for name in ["chromium", "chromium-browser", "google-chrome"] {
                for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                    return "\(directory)/\(name)"
                }
            }
            return nil
        }

        private static let sharedBrowser = Locked<Task<HeadlessChromium, any Error>?>(nil)

        /// One browser for the whole test process, launched on first use; tests open their own tabs.
        public static func shared() async throws -> HeadlessChromium {
            let task = sharedBrowser.withLock { task in
                if let task { return task }
                let launch = Task { try HeadlessChromium() }
                task = launch
                return launch
            }
            return try await task.value
        }

        private let connection: DevToolsConnection
        private let processID: pid_t
        private let profile: URL

        /// Launches a new headless Chromium with a fresh profile.
        /// - Throws: `.notConfigured` when no Chromium is installed, `.unsupported` when it cannot be started.
        public init() throws {
            guard let executable = Self.executablePath else {
                throw EngageError(.notConfigured, "No Chromium found: install Debian's chromium package or set CHROMIUM.")
            }
            // A write to the pipe of a Chromium that died must fail, not kill the test process.
            signal(SIGPIPE, SIG_IGN)
            Self.removeProfilesOfEndedProcesses()
            profile = FileManager.default.temporaryDirectory.appendingPathComponent("engage-chromium-\(getpid())-\(UUID().uuidString)")
            let arguments = [
                executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--user-data-dir=\(profile.path)",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-dev-shm-usage", "--disable-component-update", "--mute-audio", "about:blank",
            ]
            // Pipe 1: we write commands, Chromium reads them on its fd 3. Pipe 2: Chromium writes on fd 4.
            var commands: [Int32] = [-1, -1]
            var replies: [Int32] = [-1, -1]
            guard pipe(&commands) == 0 else { throw EngageError(.unsupported, "Could not create the pipes to Chromium.") }
            guard pipe(&replies) == 0 else {
                commands.forEach { _ = close($0) }
                throw EngageError(.unsupported, "Could not create the pipes to Chromium.")
            }
            // Move every end above fd 10, close-on-exec, so that the dup2 onto 3 and 4 below always
            // copies (a dup2 onto itself would keep close-on-exec and Chromium would lose the pipe).
            let ends = (commands + replies).map(Self.moveHigh)
            guard !ends.contains(-1) else {
                ends.filter { $0 >= 0 }.forEach { _ = close($0) }
                throw EngageError(.unsupported, "Could not set up the pipes to Chromium.")
            }
            let (commandRead, commandWrite, replyRead, replyWrite) = (ends[0], ends[1], ends[2], ends[3])
            var processID: pid_t = 0
            let status = Self.spawn(executable, arguments: arguments, childRead: commandRead, childWrite: replyWrite, processID: &processID)
            close(commandRead)
            close(replyWrite)
            guard status == 0 else {
                close(commandWrite)
                close(replyRead)
                throw EngageError(.unsupported, "Could not start \(executable) (error \(status)).")
            }
            self.processID = processID
            connection = DevToolsConnection(writing: commandWrite, reading: replyRead)
        }

        deinit {
            connection.close()
            kill(processID, SIGKILL)
            var status: Int32 = 0
            waitpid(processID, &status, 0)
            try? FileManager.default.removeItem(at: profile)
        }

        /// Opens a new tab on `about:blank`.
        public func newTab() async throws -> ChromiumTab {
            let created = try await connection.send("Target.createTarget", ["url": "about:blank"])
            guard let targetID = (created["result"] as? [String: Any])?["targetId"] as? String else {
                throw EngageError(.decoding, "Chromium did not name the new tab.")
            }
            let attached = try await connection.send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
            guard let sessionID = (attached["result"] as? [String: Any])?["sessionId"] as? String else {
                throw EngageError(.decoding, "Chromium did not attach to the new tab.")
            }
            let tab = ChromiumTab(connection: connection, targetID: targetID, sessionID: sessionID)
            _ = try await tab.command("Page.enable")
            _ = try await tab.command("Runtime.enable")
            return tab
        }

        /// `descriptor` moved to a number of at least 10, close-on-exec (`-1` on failure).
        private static func moveHigh(_ descriptor: Int32) -> Int32 {
            let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, 10)
            close(descriptor)
            return moved
        }

        /// Deletes the profiles that test processes which have ended left behind (the shared browser
        /// of a test process is never deinitialised).
        private static func removeProfilesOfEndedProcesses() {
            let directory = FileManager.default.temporaryDirectory
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names where name.hasPrefix("engage-chromium-") {
                let parts = name.dropFirst("engage-chromium-".count).split(separator: "-", maxSplits: 1)
                guard let owner = parts.first.flatMap({ pid_t($0) }), owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else {
                    continue
                }
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
        }

        private static func spawn(
            _ executable: String, arguments: [String], childRead: Int32, childWrite: Int32, processID: inout pid_t
        ) -> Int32 {
            #if canImport(Glibc)
                var actions = posix_spawn_file_actions_t()
            #else
                var actions: posix_spawn_file_actions_t?
            #endif
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, childRead, 3)
            posix_spawn_file_actions_adddup2(&actions, childWrite, 4)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            return posix_spawn(&processID, executable, &actions, nil, argv, environ)
        }
    }

    /// A tab of a ``HeadlessChromium``.
    public struct ChromiumTab: Sendable {
        let connection: DevToolsConnection
        let targetID: String
        let sessionID: String

        /// Runs `source` in every document this tab loads from now on, before the document's own
        /// scripts and whatever its Content-Security-Policy says (stand-ins for a native side).
        public func addScriptOnNewDocument(_ source: String) async throws {
            _ = try await command("Page.addScriptToEvaluateOnNewDocument", ["source": source])
        }

        /// Loads `url` and waits until its document has loaded (`readyState` complete).
        public func navigate(to url: URL, timeout: Duration = .seconds(15)) async throws {
            let answer = try await command("Page.navigate", ["url": url.absoluteString])
            if let failure = (answer["result"] as? [String: Any])?["errorText"] as? String {
                throw EngageError(.network, "Chromium could not load \(url.absoluteString): \(failure)")
            }
            guard
                try await waitFor(
                    "document.readyState === 'complete' && location.href === \(Self.quoted(url.absoluteString))", timeout: timeout)
            else {
                throw EngageError(.timeout, "\(url.absoluteString) did not finish loading.")
            }
        }

        /// The value of the JavaScript `expression` in the tab's page, passed through `JSON.stringify`
        /// and decoded as `Value` (promises are awaited).
        public func evaluate<Value: Decodable>(_ expression: String, as type: Value.Type = Value.self) async throws -> Value {
            let answer = try await command(
                "Runtime.evaluate", ["expression": "JSON.stringify(\(expression))", "returnByValue": true, "awaitPromise": true]
            )
            let result = answer["result"] as? [String: Any]
            if let exception = result?["exceptionDetails"] as? [String: Any] {
                let text =
                    ((exception["exception"] as? [String: Any])?["description"] as? String) ?? (exception["text"] as? String)
                    ?? "an exception"
                throw EngageError(.invalidInput, "The page threw: \(text)")
            }
            guard let json = (result?["result"] as? [String: Any])?["value"] as? String else {
                throw EngageError(.decoding, "The expression has no JSON value (undefined or a function).")
            }
            return try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        }

        /// Polls `expression` every 10 ms until it is truthy (`true`) or `timeout` passes (`false`);
        /// an evaluation that fails meanwhile (the document being replaced) is tried again. The timeout
        /// only elapses when the page is broken; assert on the result.
        public func waitFor(_ expression: String, timeout: Duration = .seconds(15)) async throws -> Bool {
            let deadline = ContinuousClock.now + timeout
            repeat {
                do {
                    if try await evaluate("!!(\(expression))", as: Bool.self) { return true }
                } catch let error as EngageError where error.code == .invalidInput {
                    // A document being replaced ("Execution context was destroyed") or a page that threw
                    // meanwhile: ask again until the deadline.
                }
                try await Task.sleep(for: .milliseconds(10))
            } while ContinuousClock.now < deadline
            return false
        }

        /// A real (trusted) left click at the centre of the first element matching `selector`.
        public func click(_ selector: String) async throws {
            struct Point: Decodable { var x: Double, y: Double }
            let point = try await evaluate(
                "(function () { var r = document.querySelector(\(Self.quoted(selector))).getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()",
                as: Point.self
            )
            for type in ["mousePressed", "mouseReleased"] {
                _ = try await command(
                    "Input.dispatchMouseEvent", ["type": type, "x": point.x, "y": point.y, "button": "left", "clickCount": 1])
            }
        }

        /// Lays the page out as a window `width` × `height` CSS pixels large would (at a pixel ratio
        /// of 1), for layouts that depend on the width and for ``screenshot()``.
        public func setViewport(width: Int, height: Int) async throws {
            _ = try await command(
                "Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
        }

        /// A PNG of what the tab shows now (the viewport).
        public func screenshot() async throws -> Data {
            let answer = try await command("Page.captureScreenshot", ["format": "png"])
            guard let base64 = (answer["result"] as? [String: Any])?["data"] as? String, let png = Data(base64Encoded: base64) else {
                throw EngageError(.decoding, "Chromium answered Page.captureScreenshot without an image.")
            }
            return png
        }

        /// Closes the tab.
        public func close() async {
            _ = try? await connection.send("Target.closeTarget", ["targetId": targetID])
        }

        func command(_ method: String, _ parameters: [String: any Sendable] = [:]) async throws -> [String: Any] {
            try await connection.send(method, parameters, sessionID: sessionID)
        }

        /// `text` as a JavaScript string literal.
        static func quoted(_ text: String) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        }
    }

    /// The DevTools protocol over Chromium's pipe: NUL-terminated JSON messages, answers matched to
    /// commands by id. A reader thread of its own (never a thread of the cooperative pool) polls the
    /// pipe; events (messages without an id) are dropped. Every command fails after its deadline.
    final class DevToolsConnection: Sendable {
        private let writing: Int32
        private let reading: Int32
        private struct State {
            var nextID = 0
            var waiting: [Int: CheckedContinuation<Data, any Error>] = [:]
            var closed = false
        }

        private let state = Locked(State())

        init(writing: Int32, reading: Int32) {
            self.writing = writing
            self.reading = reading
            let thread = Thread { [self] in readLoop() }
            thread.name = "engage-chromium-reader"
            thread.start()
        }

        /// How long a command may wait for its answer before it fails (a wedged browser must fail the
        /// test, not hang the run).
        static let answerTimeout: Duration = .seconds(60)

        func send(_ method: String, _ parameters: [String: any Sendable], sessionID: String? = nil) async throws -> [String: Any] {
            let id = state.withLock { state -> Int in
                state.nextID += 1
                return state.nextID
            }
            let timeout = Task { [weak self] in
                try await Task.sleep(for: Self.answerTimeout)
                self?.fail(id, EngageError(.timeout, "Chromium did not answer \(method) within \(Self.answerTimeout)."))
            }
            defer { timeout.cancel() }
            let data = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
                var message: [String: Any] = ["id": id, "method": method, "params": parameters]
                if let sessionID { message["sessionId"] = sessionID }
                guard let body = try? JSONSerialization.data(withJSONObject: message) else {
                    continuation.resume(throwing: EngageError(.invalidInput, "The \(method) parameters are not JSON."))
                    return
                }
                var bytes = [UInt8](body)
                bytes.append(0)
                // Registered and written under the lock: messages never interleave, and the pipe is
                // never written after close() has closed it (its number could be reused).
                let failure = state.withLock { state -> EngageError? in
                    guard !state.closed else { return EngageError(.network, "Chromium has exited.") }
                    state.waiting[id] = continuation
                    var offset = 0
                    while offset < bytes.count {
                        let written = bytes[offset...].withUnsafeBytes { write(writing, $0.baseAddress, $0.count) }
                        if written < 0, errno == EINTR { continue }
                        guard written > 0 else {
                            state.waiting[id] = nil
                            return EngageError(.network, "Chromium's pipe is closed.")
                        }
                        offset += written
                    }
                    return nil
                }
                if let failure { continuation.resume(throwing: failure) }
            }
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw EngageError(.decoding, "Chromium's answer to \(method) is not a JSON object.")
            }
            if let error = object["error"] as? [String: Any] {
                throw EngageError(.invalidInput, "Chromium refused \(method): \(error["message"] as? String ?? "unknown error")")
            }
            return object
        }

        private func fail(_ id: Int, _ error: EngageError) {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(throwing: error)
        }

        /// Fails every waiting command and closes the command pipe (once).
        func close() {
            let waiting = state.withLock { state -> [CheckedContinuation<Data, any Error>] in
                defer { state.waiting = [:] }
                if !state.closed {
                    state.closed = true
                    closeDescriptor(writing)
                }
                return Array(state.waiting.values)
            }
            waiting.forEach { $0.resume(throwing: EngageError(.network, "Chromium has exited.")) }
        }

        /// Reads answers until Chromium closes its end, or until this connection is closed: the pipe is
        /// polled once a second, so the reader never blocks for longer than that past a `close()` (a
        /// browser that keeps its end open cannot keep the thread). Each command has its own deadline
        /// (``answerTimeout``).
        private func readLoop() {
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                var descriptor = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, 1_000)
                if ready < 0 {
                    if errno == EINTR { continue }
                    break
                }
                if ready == 0 {
                    if state.withLock({ $0.closed }) { break }
                    continue
                }
                let count = buffer.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: buffer[0..<count])
                while let end = pending.firstIndex(of: 0) {
                    let message = Data(pending[..<end])
                    pending.removeSubrange(...end)
                    deliver(message)
                }
            }
            closeDescriptor(reading)
            close()
        }

        private func deliver(_ message: Data) {
            guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any], let id = object["id"] as? Int else {
                return
            }
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(returning: message)
        }
    }

    /// The C library's `close`, which `DevToolsConnection.close()` hides inside the class.
    private func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }
#endif
