// Choosing providers: with the package's traits, the providers an app enables are registered by
// `Engage(configuration:)` and `Engage.configure(with:)` from their configuration sections. Without traits (tools that cannot set them),
// depend on the provider's product and register it yourself, which is also how a third-party
// provider joins.

// snippet.hide
import Engage
import EngageCrobox
import EngageEmulators
import EngageSandbox
import Foundation

let sandbox = SandboxHost(emulators: BuiltInEmulators.all())
guard let croboxURL = try await sandbox.start().baseURL(for: "crobox") else { fatalError("the sandbox serves Crobox") }
// snippet.show

var configuration = EngageConfiguration.preset(.production, appID: "com.example.shop")
configuration.storage = .inMemory
try configuration.setProvider(.crobox, CroboxConfiguration(containerID: "xlrc9t", baseURL: croboxURL))

// An explicit registration replaces the built-in one of the same id; it reads the provider's section.
let engage = try Engage(
    configuration: configuration,
    providers: [ProviderRegistration.provider(CroboxProvider.self, from: configuration)]
)

// The facade fans out to every provider with a capability; a provider's own operations are on its type.
let crobox = try await engage.provider(CroboxProvider.self)
let promotions = try await crobox.promotions(placeholderID: "12", page: CroboxPage(pageType: .detail), productIDs: ["sku-1"])
print(promotions.promotions.count, "promotions")

// snippet.hide
await engage.shutdown()
await sandbox.stop()
