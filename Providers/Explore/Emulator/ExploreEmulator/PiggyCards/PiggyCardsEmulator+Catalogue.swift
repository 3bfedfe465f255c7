#if PiggyCards
    @_spi(EngageProvider) import EngageExplore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import Hummingbird
    @_spi(EngageProvider) import EngageCore

    extension PiggyCardsEmulator {
        func addCatalogueRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
            group.get("brands/:country") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    _ = try self.authenticatedUser(request, environment: environment)
                    let country = (context.parameters.get("country") ?? "").uppercased()
                    let brands = self.catalogue.brands.filter { $0.countries.contains(country) }.map(\.brand)
                    return try SandboxResponse.json(PiggyCardsWire.Envelope(data: brands))
                }
            }
            group.get("giftcards/:country") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    _ = try self.authenticatedUser(request, environment: environment)
                    let country = (context.parameters.get("country") ?? "").uppercased()
                    let brandID = request.uri.queryParameters["brandId"].map(String.init)
                    let brandIDs = Set(self.catalogue.brands.filter { $0.countries.contains(country) }.map(\.brand.id))
                    let products = self.state.withLock { state in
                        self.catalogue.products
                            .filter { product in
                                product.brandID.map(brandIDs.contains) ?? false && (brandID == nil || product.brandID == brandID)
                            }
                            .map { product -> PiggyCardsProduct in
                                var listed = product
                                listed.quantity = state.stock[product.id]
                                return listed
                            }
                    }
                    return try SandboxResponse.json(PiggyCardsWire.Envelope(data: products))
                }
            }
            group.get("exchange-rate") { request, _ in
                try await GiftCardEmulatorRoutes.respond {
                    _ = try self.authenticatedUser(request, environment: environment)
                    let currency = request.uri.queryParameters["currency"].map(String.init) ?? "USD"
                    guard currency == "USD" else { throw GiftCardEmulatorRejection.piggy(.badRequest, "Unsupported currency \(currency)") }
                    let rate = PiggyCardsWire.ExchangeRate(currency: currency, rate: GiftCardMoney.wireString(self.configuration.dashRate))
                    return try SandboxResponse.json(PiggyCardsWire.Envelope(data: rate))
                }
            }
        }
    }
#endif
