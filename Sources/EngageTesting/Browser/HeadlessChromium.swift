#if os(Linux) || os(macOS)
    import EngageCore
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
            profile = FileManager.default.temporaryDirectory.appendingPathComponent("engage-chromium-\(UUID().uuidString)")
            let arguments = [
                executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--user-data-dir=\(profile.path)",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-dev-shm-usage", "--disable-component-update", "--mute-audio", "about:blank",
            ]
            // Pipe 1: we write commands, Chromium reads them on its fd 3. Pipe 2: Chromium writes on fd 4.
            var commands: [Int32] = [0, 0]
            var replies: [Int32] = [0, 0]
            guard pipe(&commands) == 0, pipe(&replies) == 0 else {
                throw EngageError(.unsupported, "Could not create the pipes to Chromium.")
            }
            // Move every end above fd 10, close-on-exec, so that the dup2 onto 3 and 4 below always
            // copies (a dup2 onto itself would keep close-on-exec and Chromium would lose the pipe).
            let (commandRead, commandWrite) = (Self.moveHigh(commands[0]), Self.moveHigh(commands[1]))
            let (replyRead, replyWrite) = (Self.moveHigh(replies[0]), Self.moveHigh(replies[1]))
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

        private static func moveHigh(_ descriptor: Int32) -> Int32 {
            let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, 10)
            close(descriptor)
            return moved
        }

        private static func spawn(_ executable: String, arguments: [String], childRead: Int32, childWrite: Int32, processID: inout pid_t) -> Int32 {
            #if canImport(Glibc)
                var actions = posix_spawn_file_actions_t()
            #else
                var actions: posix_spawn_file_actions_t?
            #endif
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, childRead, 3)
            posix_spawn_file_actions_adddup2(&actions, childWrite, 4)
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
            guard try await waitFor("document.readyState === 'complete' && location.href === \(Self.quoted(url.absoluteString))", timeout: timeout) else {
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
                let text = ((exception["exception"] as? [String: Any])?["description"] as? String) ?? (exception["text"] as? String) ?? "an exception"
                throw EngageError(.invalidInput, "The page threw: \(text)")
            }
            guard let json = (result?["result"] as? [String: Any])?["value"] as? String else {
                throw EngageError(.decoding, "The expression has no JSON value (undefined or a function).")
            }
            return try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        }

        /// Polls `expression` every 10 ms until it is truthy (`true`) or `timeout` passes (`false`).
        /// The timeout only elapses when the page is broken; assert on the result.
        public func waitFor(_ expression: String, timeout: Duration = .seconds(15)) async throws -> Bool {
            let deadline = ContinuousClock.now + timeout
            repeat {
                if try await evaluate("!!(\(expression))", as: Bool.self) { return true }
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
                _ = try await command("Input.dispatchMouseEvent", ["type": type, "x": point.x, "y": point.y, "button": "left", "clickCount": 1])
            }
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
    /// commands by id. A reader thread blocks on the pipe; events (messages without an id) are dropped.
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

        func send(_ method: String, _ parameters: [String: any Sendable], sessionID: String? = nil) async throws -> [String: Any] {
            let data = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
                let id: Int? = state.withLock { state in
                    guard !state.closed else { return nil }
                    state.nextID += 1
                    state.waiting[state.nextID] = continuation
                    return state.nextID
                }
                guard let id else {
                    continuation.resume(throwing: EngageError(.network, "Chromium has exited."))
                    return
                }
                var message: [String: Any] = ["id": id, "method": method, "params": parameters]
                if let sessionID { message["sessionId"] = sessionID }
                guard let body = try? JSONSerialization.data(withJSONObject: message) else {
                    fail(id, EngageError(.invalidInput, "The \(method) parameters are not JSON."))
                    return
                }
                var bytes = [UInt8](body)
                bytes.append(0)
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBytes { write(writing, $0.baseAddress, $0.count) }
                    guard written > 0 else {
                        fail(id, EngageError(.network, "Chromium's pipe is closed."))
                        return
                    }
                    offset += written
                }
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
            let (waiting, wasClosed) = state.withLock { state in
                defer {
                    state.closed = true
                    state.waiting = [:]
                }
                return (state.waiting, state.closed)
            }
            waiting.values.forEach { $0.resume(throwing: EngageError(.network, "Chromium has exited.")) }
            if !wasClosed { closeDescriptor(writing) }
        }

        private func readLoop() {
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
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
            guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any], let id = object["id"] as? Int else { return }
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(returning: message)
        }
    }

    /// The C library's `close`, which `DevToolsConnection.close()` hides inside the class.
    private func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }
#endif
