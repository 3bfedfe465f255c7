// engage-restart-child: the app side of the kill-and-restart scenario tests (Development/Tests/EngageTests/
// KillAndRestartTests.swift). Each run is one launch of an app on a database that outlives it: the tests
// kill a run with SIGKILL in the middle of its work, then launch another on the same files.
//
//   engage-restart-child track <storage-folder> <reference-base-url> <count>
//       starts the SDK with the reference provider, tracks <count> events, flushes the analytics queue
//       and prints "delivered N", then "pending N" (what the queue still holds)
//   engage-restart-child session <storage-folder> <reference-base-url> <run> <rounds>
//       starts the SDK with the reference provider; prints "session kept" when a session was stored,
//       else logs in and prints "logged in"; then, each round, tracks 5 events (printing "enqueued
//       <name>" once each is stored), prints "refreshing" and rotates the tokens, prints "flushing" and
//       flushes; at the end flushes once more and prints "failed <destination> <code> <message>" for
//       each destination that failed, then "pending N"
//   engage-restart-child sync <directory-folder> <feed-url>
//       starts the Explore provider on the feed and syncs; prints "installed <timestamp>" or
//       "up-to-date <timestamp>"
//
// Every line is flushed at once, so the tests can follow a run that they are about to kill.
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExplore
@_spi(EngageProvider) import EngageReference
import Foundation

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("engage-restart-child: " + message + "\n").utf8))
    exit(2)
}

func configuration(storage folder: String) -> EngageConfiguration {
    var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.restart-child")
    configuration.storage = .directory(folder)
    configuration.network.timeoutSeconds = 60
    // The run flushes by itself; no timer may deliver behind its back.
    configuration.analytics.flushIntervalSeconds = 3_600
    return configuration
}

/// A started registry with the reference provider on the storage folder. The platform's secret store
/// for a storage folder (a key file beside it on Linux): the same key every launch, as an app's keychain.
func startReference(storage folder: String, baseURL: URL) async throws -> (ProviderRegistry, ReferenceProvider) {
    var settings = configuration(storage: folder)
    try settings.setProvider("reference", ReferenceProvider.Configuration(baseURL: baseURL))
    let registry = try ProviderRegistry(configuration: settings)
    try await registry.register(.provider(ReferenceProvider.self, from: settings))
    _ = await registry.start()
    return (registry, try await registry.provider(ReferenceProvider.self))
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "track":
        guard arguments.count == 4, let baseURL = URL(string: arguments[2]), let count = Int(arguments[3]), count >= 0 else {
            fail("usage: track <storage-folder> <reference-base-url> <count>")
        }
        let (registry, reference) = try await startReference(storage: arguments[1], baseURL: baseURL)
        for index in 0..<count {
            try await reference.track(TrackedEvent(.custom, name: "restart-\(index)"))
        }
        say("enqueued \(count)")
        let report = await registry.analytics.flush()
        say("delivered \(report.delivered)")
        say("pending \(try await registry.analytics.pendingCount())")
        await registry.shutdown()
    case "session":
        guard arguments.count == 5, let baseURL = URL(string: arguments[2]), let rounds = Int(arguments[4]), rounds >= 0 else {
            fail("usage: session <storage-folder> <reference-base-url> <run> <rounds>")
        }
        let run = arguments[3]
        let (registry, reference) = try await startReference(storage: arguments[1], baseURL: baseURL)
        if try await reference.tokens.currentTokens() != nil {
            say("session kept")
        } else {
            try await reference.logIn(UserIdentity(userID: "soak", attributes: ["reference.password": "secret"]))
            say("logged in")
        }
        for round in 0..<rounds {
            for index in 0..<5 {
                let name = "\(run)-\(round)-\(index)"
                try await reference.track(TrackedEvent(.custom, name: name))
                say("enqueued \(name)")
            }
            say("refreshing")
            try await reference.tokens.refresh()
            say("flushing")
            _ = await registry.analytics.flush()
        }
        let report = await registry.analytics.flush()
        for (destination, error) in report.failures.sorted(by: { $0.key < $1.key }) {
            say("failed \(destination) \(error.code) \(error.message)")
        }
        say("pending \(try await registry.analytics.pendingCount())")
        await registry.shutdown()
    case "sync":
        guard arguments.count == 3, let feedURL = URL(string: arguments[2]) else { fail("usage: sync <directory-folder> <feed-url>") }
        let folder = arguments[1]
        var settings = configuration(storage: folder + "/sdk")
        try settings.setProvider(
            .explore,
            ExploreConfiguration(
                feedURL: feedURL, directoryFolder: folder + "/directories", syncsAutomatically: false
            ))
        let registry = try ProviderRegistry(configuration: settings)
        try await registry.register(.provider(ExploreProvider.self, from: settings))
        _ = await registry.start()
        let explore = try await registry.provider(ExploreProvider.self)
        say("started")
        switch try await explore.sync() {
        case let .installed(timestamp, _, _): say("installed \(timestamp)")
        case let .upToDate(timestamp): say("up-to-date \(timestamp)")
        }
        await registry.shutdown()
    default:
        fail("usage: track … | session … | sync …")
    }
} catch {
    fail("\(error)")
}
