#if PiggyCards
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
    @_spi(EngageProvider) @testable import EngageCore
    @_spi(EngageProvider) @testable import EngageExplore
    @_spi(EngageProvider) import EngageSandbox
    @_spi(EngageProvider) @testable import EngageTesting
    import EngageTestTraits
    import ExploreEmulator
    import Foundation
    import HTTPTypes
    import Testing

    /// PiggyCards' requests and answers as the Dash wallet's official client writes and reads them,
    /// recorded in `Development/Providers/Explore/Tests/Fixtures/PiggyCards` (each file's source is in its README):
    /// the client sends the recorded requests' shapes and reads the recorded answers to the right values.
    extension GiftCardSuites {
        @Suite("PiggyCards: the client speaks the recorded official shapes", .bounded)
        struct PiggyCardsRecordedAnswerTests {
            /// A client over a transport that answers each route with a recorded file.
            struct Recorded {
                static let base = "/dash/v1"
                let transport = InMemoryTransport()
                let clock = FakeClock()
                let test: GiftCardTestContext
                let client: PiggyCardsClient

                init() throws {
                    test = try GiftCardTestContext(clock: clock, transport: transport)
                    let baseURL = try #require(URL(string: "https://api.piggy.cards/dash/v1/"))
                    client = try PiggyCardsClient(configuration: PiggyCardsConfiguration(baseURL: baseURL), context: test.context)
                }

                /// Answers `method path…` with the recorded `file` and `status`.
                func answer(_ method: HTTPRequest.Method, _ path: String, with file: String, status: HTTPResponse.Status = .ok) throws {
                    let body = try RecordedJSON.data("PiggyCards", file)
                    transport.route(method, Self.base + path) { _ in
                        var head = HTTPResponse(status: status)
                        head.headerFields[.contentType] = "application/json"
                        return HTTPResponseMessage(head: head, body: body)
                    }
                }

                /// The JSON body of the last request to `path`.
                func sentBody(_ path: String) throws -> Any {
                    let request = try #require(transport.requests(to: Self.base + path).last)
                    return try JSONSerialization.jsonObject(with: try #require(request.body))
                }

                /// Signs up and verifies against the recorded sign-up, verification and login answers.
                func signIn() async throws {
                    try answer(.post, "/signup", with: "signup-answer.json")
                    try answer(.post, "/verify-otp", with: "verify-otp-answer.json")
                    try answer(.post, "/login", with: "login-answer.json")
                    try await client.signUp(firstName: "Ana", lastName: "Silva", email: "ana@example.com", country: "US", state: "AZ")
                    try await client.verify(otp: "482913")
                }
            }

            static func expectShape(
                _ sent: Any, like file: String, sourceLocation: SourceLocation = #_sourceLocation
            ) throws {
                let differences = JSONShape.differences(sent, from: try RecordedJSON.value("PiggyCards", file), exact: true)
                #expect(differences.isEmpty, "\(file): \(differences)", sourceLocation: sourceLocation)
            }

            @Test("sign-up sends first_name and last_name; verification and login send the recorded keys; the token is kept")
            func account() async throws {
                let recorded = try Recorded()
                try await recorded.signIn()
                try Self.expectShape(try recorded.sentBody("/signup"), like: "signup-request.json")
                try Self.expectShape(try recorded.sentBody("/verify-otp"), like: "verify-otp-request.json")
                try Self.expectShape(try recorded.sentBody("/login"), like: "login-request.json")
                let login = try #require(try recorded.sentBody("/login") as? [String: Any])
                #expect(login["userId"] as? String == "6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0")
                #expect(login["password"] as? String == "c0ffee12deadbeef34567890")
                let tokens = try #require(try await recorded.client.tokens.currentTokens())
                #expect(tokens.accessToken.hasPrefix("eyJ"))
                #expect(tokens.expiresAt == recorded.clock.now.addingTimeInterval(3_600))
            }

            @Test("brands are a bare array")
            func brands() async throws {
                let recorded = try Recorded()
                try await recorded.signIn()
                try recorded.answer(.get, "/brands/US", with: "brands.json")
                let brands = try await recorded.client.brands(country: "US")
                #expect(brands.map(\.id) == ["174", "211"] && brands.map(\.name) == ["Xbox", "Corner Grocer"])
            }

            @Test("gift cards: integer ids, a percent discount, listed or ranged denominations, a price type with spaces")
            func giftCards() async throws {
                let recorded = try Recorded()
                try await recorded.signIn()
                try recorded.answer(.get, "/giftcards/US", with: "giftcards.json")
                let products = try await recorded.client.giftCards(country: "US", brandID: "211")
                #expect(products.map(\.id) == ["5021", "5022", "5023"])
                #expect(products.map(\.discountBasisPoints) == [1_500, 1_250, 400])
                #expect(products[0].denominations == .fixed([25]) && products[1].denominations == .fixed([25, 50, 100]))
                #expect(products[2].priceType == .range && products[2].denominations == .range(minimum: 10, maximum: 500))
                #expect(products.allSatisfy { $0.brandID == "211" } && products[0].quantity == 40)
            }

            @Test("an order sends the recorded request and reads a payment URI")
            func order() async throws {
                let recorded = try Recorded()
                try await recorded.signIn()
                try recorded.answer(.get, "/giftcards/US", with: "giftcards.json")
                try recorded.answer(.post, "/orders", with: "order-answer.json")
                let product = try #require(try await recorded.client.giftCards(country: "US", brandID: "211").first { $0.id == "5022" })
                let order = try await recorded.client.createOrder(product: product, denomination: 50, recipientEmail: "ana@example.com")
                try Self.expectShape(try recorded.sentBody("/orders"), like: "order-request.json")
                let sent = try #require(try recorded.sentBody("/orders") as? [String: Any])
                let line = try #require((sent["orders"] as? [[String: Any]])?.first)
                #expect(line["productId"] as? Int == 5022 && line["denomination"] as? Int == 50)
                #expect(order.id == "PC-88213")
                #expect(order.quote.totalMinorUnits == 4_450, "12.5 % less the wallet's 1.5 points: 11 % off $50")
                #expect(order.paymentAddress == "XnQ4mB8JqK5Lr3Tz9wVyP2sHc7dFgA1eUo" && order.dashAmount == Decimal(string: "1.1125"))
                #expect(order.payMessage == "Send 1.1125 DASH to pay order PC-88213")
                let user = try #require(sent["user"] as? [String: Any])
                let metadata = try #require(user["metadata"] as? [String: Any])
                #expect(user["name"] as? String == "none" && user["ip"] as? String == "192.168.100.1")
                #expect(metadata["country"] as? String == "US" && metadata["state"] as? String == "AZ")
                #expect(metadata["registeredSince"] as? String == "2023-11-14", "the sign-up date, on the fake clock")
            }

            @Test("an order answer without payTo: the payment URI is read from the order's status")
            func orderWithoutPayment() async throws {
                let recorded = try Recorded()
                try await recorded.signIn()
                try recorded.answer(.get, "/giftcards/US", with: "giftcards.json")
                try recorded.answer(.post, "/orders", with: "order-answer-without-payment.json")
                try recorded.answer(.get, "/orders/PC-88214", with: "order-status-pending.json")
                let product = try #require(try await recorded.client.giftCards(country: "US", brandID: "211").first)
                let order = try await recorded.client.createOrder(product: product, denomination: 25, recipientEmail: "ana@example.com")
                #expect(order.id == "PC-88214" && order.dashAmount == Decimal(string: "0.5562") && order.payMessage == nil)
                let details = try await recorded.client.order(id: "PC-88214")
                #expect(details.status == .paymentPending && details.cards.isEmpty && details.deliveryTime == nil)
            }

            @Test("the exchange rate is a bare object, read as DASH per dollar")
            func exchangeRate() async throws {
                let recorded = try Recorded()
                try await recorded.signIn()
                try recorded.answer(.get, "/exchange-rate", with: "exchange-rate.json")
                let rate = try await recorded.client.exchangeRate(currency: "USD")
                #expect(rate.currency == "USD" && rate.dashPerUnit == Decimal(string: "0.025") && rate.pricePerDash == 40)
                #expect(rate.modified == "2026-11-27 18:04:11")
            }

            @Test("a delivered order: the envelope, the claim code, PIN, barcode and claim link")
            func completeOrder() async throws {
                let recorded = try Recorded()
                try await recorded.signIn()
                try recorded.answer(.get, "/orders/PC-88213", with: "order-status-complete.json")
                let details = try await recorded.client.order(id: "PC-88213")
                #expect(details.id == "PC-88213" && details.status == .complete)
                let card = try #require(details.cards.first)
                #expect(card.claimCode == "CG-7731-4420-9981" && card.claimPin == "5127")
                #expect(card.barcodeURL?.hasPrefix("https://api.piggy.cards/barcode") == true)
                #expect(card.redeemURL == "https://cornergrocer.example/claim/7f3a91")
                #expect(details.deliveryTime == "2026-11-27 18:09:40" && details.payTo?.hasPrefix("dash:") == true)
                #expect(try recorded.client.vault.card(provider: .piggyCards, id: "PC-88213")?.secrets == card)
                for text in printedForms(details) { #expect(!text.contains("7731") && !text.contains("claim/7f3a91")) }
            }

            @Test(
                "the status words of the wallet's order screen",
                arguments: [
                    ("Payment pending", PiggyCardsOrderStatus.paymentPending), ("paid", .paid), ("Processing", .processing),
                    ("Complete", .complete), ("completed", .complete), ("Cancelled", .cancelled), ("failed", .cancelled),
                    ("Rejected", .cancelled), ("On hold", PiggyCardsOrderStatus(rawValue: "On hold")),
                ])
            func statusWords(wire: String, status: PiggyCardsOrderStatus) {
                #expect(PiggyCardsOrderStatus(wireValue: wire) == status)
            }

            @Test("the refusals' messages: {error} of the account calls, {errors:[…]} of the others")
            func refusals() async throws {
                let recorded = try Recorded()
                try recorded.answer(.post, "/signup", with: "signup-answer.json")
                try recorded.answer(.post, "/verify-otp", with: "error-auth.json", status: .badRequest)
                try await recorded.client.signUp(firstName: "", lastName: "", email: "ana@example.com", country: "US")
                let wrongCode = await engageError { try await recorded.client.verify(otp: "000000") }
                #expect(wrongCode?.code == .exploreGiftCardCodeInvalid)
                #expect(wrongCode?.message.contains("Invalid verification code") == true, "\(String(describing: wrongCode))")

                try recorded.answer(.post, "/verify-otp", with: "verify-otp-answer.json")
                try recorded.answer(.post, "/login", with: "login-answer.json")
                try await recorded.client.verify(otp: "482913")
                try recorded.answer(.get, "/giftcards/US", with: "giftcards.json")
                try recorded.answer(.post, "/orders", with: "error-api.json", status: .badRequest)
                let product = try #require(try await recorded.client.giftCards(country: "US", brandID: "211").first)
                let refused = await engageError {
                    _ = try await recorded.client.createOrder(product: product, denomination: 25, recipientEmail: "ana@example.com")
                }
                #expect(refused?.code == .exploreGiftCardAmountInvalid)
                #expect(refused?.message.contains("Amount is above the card's limit") == true, "\(String(describing: refused))")
                try recorded.answer(.post, "/orders", with: "error-out-of-stock.json", status: .internalServerError)
                let outOfStock = await engageError {
                    _ = try await recorded.client.createOrder(product: product, denomination: 25, recipientEmail: "ana@example.com")
                }
                #expect(outOfStock?.code == .exploreGiftCardOutOfStock && outOfStock?.isRetryable == false)
            }

            @Test("a payment URI that is not dash:<address>?amount=<above zero> is refused, not stored as an order")
            func badPaymentURI() async throws {
                for payTo in ["bitcoin:1abc?amount=1", "dash:?amount=1", "dash:Xabc", "dash:Xabc?amount=0", "dash:Xabc?amount=-1", ""] {
                    #expect(PiggyCardsPaymentURI(payTo) == nil, "\(payTo)")
                }
                #expect(PiggyCardsPaymentURI("dash:Xabc?label=x&amount=0.5")?.amount == Decimal(string: "0.5"))
            }

            /// The emulator's answers, fetched raw over loopback, have the recorded answers' keys and JSON
            /// types, and it accepts the recorded requests as the wallet sends them.
            @Test("the emulator answers in the recorded shapes and accepts the recorded requests")
            func emulatorShapes() async throws {
                let harness = try await PiggyCardsHarness(configuration: .init(processingDelay: .zero, fulfillmentDelay: .zero))
                let base = harness.baseURL
                func send(
                    _ method: HTTPRequest.Method, _ path: String, _ body: Data? = nil, token: String? = nil
                ) async throws -> (
                    Int, Any
                ) {
                    var head = HTTPRequest(
                        method: method, scheme: "http", authority: "127.0.0.1:\(base.port ?? 0)", path: base.path + path)
                    head.headerFields[.contentType] = "application/json"
                    if let token { head.headerFields[.authorization] = "Bearer \(token)" }
                    let response = try await URLSessionTransport().send(HTTPRequestMessage(head: head, body: body))
                    return (response.status, try JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed]))
                }
                func expect(
                    _ answer: (Int, Any), like file: String, status: Int = 200, sourceLocation: SourceLocation = #_sourceLocation
                )
                    throws
                {
                    #expect(answer.0 == status, "\(file)", sourceLocation: sourceLocation)
                    let differences = JSONShape.differences(answer.1, from: try RecordedJSON.value("PiggyCards", file), exact: false)
                    #expect(differences.isEmpty, "\(file): \(differences)", sourceLocation: sourceLocation)
                }
                let signup = try await send(.post, "/signup", try RecordedJSON.data("PiggyCards", "signup-request.json"))
                try expect(signup, like: "signup-answer.json")
                let otp = try #require(harness.emulator.otp(for: "ana@example.com"))
                let wrong = try await send(.post, "/verify-otp", Data(#"{"email":"ana@example.com","otp":"x"}"#.utf8))
                try expect(wrong, like: "error-auth.json", status: 400)
                let verified = try await send(.post, "/verify-otp", Data(#"{"email":"ana@example.com","otp":"\#(otp)"}"#.utf8))
                try expect(verified, like: "verify-otp-answer.json")
                let userID = try #require((signup.1 as? [String: Any])?["userId"] as? String)
                let password = try #require((verified.1 as? [String: Any])?["generatedPassword"] as? String)
                let login = try await send(
                    .post, "/login", try JSONSerialization.data(withJSONObject: ["userId": userID, "password": password]))
                try expect(login, like: "login-answer.json")
                let token = try #require((login.1 as? [String: Any])?["access_token"] as? String)

                try expect(try await send(.get, "/brands/US", token: token), like: "brands.json")
                try expect(try await send(.get, "/giftcards/US?brandId=11", token: token), like: "giftcards.json")
                try expect(try await send(.get, "/exchange-rate?currency=USD", token: token), like: "exchange-rate.json")
                var request = try #require(try RecordedJSON.value("PiggyCards", "order-request.json") as? [String: Any])
                request["orders"] = [["productId": 1002, "quantity": 1, "denomination": 50, "currency": "USD"]]
                let order = try await send(.post, "/orders", try JSONSerialization.data(withJSONObject: request), token: token)
                try expect(order, like: "order-answer.json")
                let orderID = try #require((order.1 as? [String: Any])?["id"] as? String)
                try expect(try await send(.get, "/orders/\(orderID)", token: token), like: "order-status-pending.json")
                harness.emulator.markPaid(orderID: orderID)
                try expect(try await send(.get, "/orders/\(orderID)", token: token), like: "order-status-complete.json")
                request["orders"] = [["productId": 1002, "quantity": 1, "denomination": 75, "currency": "USD"]]
                try expect(
                    try await send(.post, "/orders", try JSONSerialization.data(withJSONObject: request), token: token),
                    like: "error-api.json",
                    status: 400)
                request["orders"] = [["productId": 2626, "quantity": 1, "denomination": 50, "currency": "USD"]]
                try expect(
                    try await send(.post, "/orders", try JSONSerialization.data(withJSONObject: request), token: token),
                    like: "error-out-of-stock.json", status: 500)
                // The client's own (pre-fix) spelling is refused: the emulator is not the client's mirror.
                let camel = try await send(
                    .post, "/signup", Data(#"{"firstName":"A","lastName":"B","email":"b@example.com","country":"US"}"#.utf8))
                #expect(camel.0 == 400)
                await harness.stop()
            }
        }
    }
#endif
