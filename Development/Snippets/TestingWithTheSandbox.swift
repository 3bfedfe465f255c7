// Testing with the sandbox: serve the emulators on loopback, point the providers at them, inject a
// fault, and read what the emulator received from its journal.

// snippet.hide
import Engage
import EngageCrobox
import EngageEmulators
import EngageSandbox
import Foundation
// snippet.show

// One host serves any number of emulators, each under its own path prefix, on a free port; every
// compiled-in provider's section then points at its emulator.
// snippet.all
let sandbox = SandboxHost(emulators: BuiltInEmulators.all())
var configuration = EngageConfiguration.preset(.testing, appID: "com.example.tests")
try BuiltInEmulators.configure(&configuration, endpoints: try await sandbox.start())
// snippet.end
configuration.storage = .inMemory
let engage = try Engage(configuration: configuration)  // provider(_:) waits for the start
let crobox = try await engage.provider(CroboxProvider.self)

// The next promotions request fails with 503. The testing preset does not retry, so the caller sees
// the failure, marked retryable; the call after it succeeds.
sandbox.faults.inject(FaultRule(.status(503), emulatorID: "crobox", path: "/promotions", trigger: .times(1)))
let page = CroboxPage(pageType: .detail)
do {
    _ = try await crobox.promotions(placeholderID: "12", page: page, productIDs: ["sku-1"])
} catch {
    print(error.httpStatus ?? 0, error.isRetryable ? "retryable" : "final")  // 503 retryable
}
let promotions = try await crobox.promotions(placeholderID: "12", page: page, productIDs: ["sku-1"])
print(promotions.promotions.count, "promotions")

// The journal holds every request the emulator received, faulted ones included.
for entry in sandbox.journal.entries(for: "crobox") {
    print(entry.method, entry.path, entry.status.map(String.init) ?? "-", entry.fault.map { "\($0)" } ?? "")
}

// snippet.hide
await engage.shutdown()
await sandbox.stop()
