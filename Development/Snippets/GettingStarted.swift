// Getting started: start EngageKit with two providers, read offers from both, use a completion
// handler and subscribe to operation events. Runs offline: the providers talk to their emulators,
// served on loopback by the sandbox.

// snippet.hide
import Engage
import EngageCrobox
import EngageEmulators
import EngageSandbox
import EngageWarply
import Foundation

let sandbox = SandboxHost(emulators: BuiltInEmulators.all())
let endpoints = try await sandbox.start()
guard let croboxURL = endpoints.baseURL(for: "crobox"), let warplyURL = endpoints.baseURL(for: "warply") else {
    fatalError("the sandbox serves both emulators")
}
// snippet.show

// One configuration: presets for the shared settings, one section per provider.
var configuration = EngageConfiguration.preset(.production, appID: "com.example.shop")
configuration.storage = .inMemory
try configuration.setProvider(.crobox, CroboxConfiguration(containerID: "xlrc9t", baseURL: croboxURL, locale: "en_US"))
var warply = WarplyConfiguration.preset(.development, appUUID: "f83dfde1145e4c2da69793abb2f579af")
warply.environment = .custom(warplyURL)
try configuration.setProvider(.warply, warply)

// Providers start concurrently; one that fails is reported, the others run.
let engage = try Engage(configuration: configuration)
for (id, error) in await engage.waitUntilReady().failures { print("\(id) did not start: \(error)") }

// Every provider's offers, with partial failures reported per provider.
let offers = try await engage.offers(OfferQuery(productIDs: ["sku-1", "sku-2"], placementID: "12"))
for offer in offers.items { print(offer.providerID, offer.title.value(), offer.badge?.text ?? "") }
for (id, error) in offers.report.failures { print("partial failure from \(id): \(error.message)") }

// The same operation with a completion handler; keep the EngageCancellable to cancel it.
let request = engage.offers(OfferQuery()) { result in
    if case let .success(offers) = result { print("\(offers.items.count) offers") }
}

// Operation events, by type; the subscription lives as long as its token.
let subscription = engage.events.subscribe(to: OperationEvent.self) { event in
    print(event.name)  // e.g. custom_success_promotions_crobox
}

// snippet.hide
_ = (request, subscription)
await engage.shutdown()
await sandbox.stop()
