#if PiggyCards
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import Hummingbird
    @_spi(EngageProvider) import EngageCore

    extension PiggyCardsEmulator {
        func addCatalogueRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
            // A bare array of `{id, name}` (`[PiggyCardsBrand]`), ids as strings.
            group.get("brands/:country") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    _ = try self.authenticatedUser(request, environment: environment)
                    let country = (context.parameters.get("country") ?? "").uppercased()
                    let brands = self.catalogue.brands.filter { $0.countries.contains(country) }.map { ["id": $0.id, "name": $0.name] }
                    return GiftCardEmulatorRoutes.jsonResponse(brands)
                }
            }
            // `{code, message, data: [PiggyCardsGiftcard]}`; stock as `quantity`.
            group.get("giftcards/:country") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    _ = try self.authenticatedUser(request, environment: environment)
                    let country = (context.parameters.get("country") ?? "").uppercased()
                    let brandID = request.uri.queryParameters["brandId"].map(String.init)
                    let brandIDs = Set(self.catalogue.brands.filter { $0.countries.contains(country) }.map(\.id))
                    let products = self.state.withLock { state in
                        self.catalogue.products
                            .filter { brandIDs.contains(String($0.brandID)) && (brandID == nil || String($0.brandID) == brandID) }
                            .map { $0.wireObject(quantity: state.stock[$0.id] ?? 0) }
                    }
                    return GiftCardEmulatorRoutes.jsonResponse(["code": 200, "message": "Success", "data": products])
                }
            }
            // A bare `{currency, exchange_rate, date_modified}`: DASH per unit of the currency (the
            // official model's comment), 8 decimals.
            group.get("exchange-rate") { request, _ in
                try await GiftCardEmulatorRoutes.respond {
                    _ = try self.authenticatedUser(request, environment: environment)
                    let currency = request.uri.queryParameters["currency"].map(String.init) ?? "USD"
                    guard currency == "USD" else {
                        throw GiftCardEmulatorRejection.piggy(.badRequest, "Unsupported currency \(currency.prefix(12))")
                    }
                    var perUnit = 1 / self.configuration.dashRate
                    var rounded = Decimal()
                    NSDecimalRound(&rounded, &perUnit, 8, .plain)
                    // Written by hand: JSONSerialization would print the double's binary noise (0.03333333000000001).
                    let body =
                        #"{"currency":"USD","date_modified":""# + environment.now().formatted(.iso8601)
                        + #"","exchange_rate":"# + GiftCardEmulatorMoney.plain(rounded) + "}"
                    return SandboxResponse.raw(Data(body.utf8), status: .ok, headers: [.contentType: "application/json"])
                }
            }
        }
    }
#endif
