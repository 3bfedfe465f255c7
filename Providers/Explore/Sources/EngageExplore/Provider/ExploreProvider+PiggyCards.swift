#if PiggyCards
    import EngageCore
    import Foundation

    /// PiggyCards gift cards through the provider (builds with the `PiggyCards` trait only): each call
    /// publishes its operation event (`custom_<outcome>_piggycards_<operation>_explore`) and has a
    /// callback twin. The underlying client is ``piggyCards``.
    ///
    /// ```swift
    /// try await explore.piggyCardsSignUp(firstName: "Ana", lastName: "Silva", email: "ana@example.com", country: "US")
    /// try await explore.piggyCardsVerify(otp: otpFromEmail)
    /// let product = try await explore.piggyCardsGiftCards(country: "US", brandID: brand.id).first!
    /// let order = try await explore.buyPiggyCardsGiftCard(product: product, denomination: 25, recipientEmail: "ana@example.com")
    /// // … the wallet pays order.payTo (order.quote has the 1.5 % fee) …
    /// let delivered = try await explore.waitForPiggyCardsOrder(id: order.id)   // cards sealed in explore.giftCards
    /// ```
    extension ExploreProvider {
        /// The PiggyCards client, or `.notConfigured`.
        func requirePiggyCards() throws -> PiggyCardsClient {
            guard let piggyCards else {
                throw EngageError(.notConfigured, "PiggyCards gift cards are off: set ExploreConfiguration.piggyCards.", providerID: .explore)
            }
            return piggyCards
        }

        /// Creates a PiggyCards account; a one-time password is e-mailed. Returns the user id.
        @discardableResult
        public func piggyCardsSignUp(firstName: String, lastName: String, email: String, country: String, state: String? = nil) async throws(EngageError) -> String {
            try await context.perform("piggycards_sign_up") {
                try await requirePiggyCards().signUp(firstName: firstName, lastName: lastName, email: email, country: country, state: state)
            }
        }

        /// Confirms the e-mailed one-time password (the generated password is kept sealed) and signs in.
        public func piggyCardsVerify(otp: String) async throws(EngageError) {
            try await context.perform("piggycards_verify") { try await requirePiggyCards().verify(otp: otp) }
        }

        /// The brands PiggyCards sells in `country`.
        public func piggyCardsBrands(country: String) async throws(EngageError) -> [PiggyCardsBrand] {
            try await context.perform("piggycards_brands") { try await requirePiggyCards().brands(country: country) }
        }

        /// The gift cards of one brand in `country`, with their denominations and discounts.
        public func piggyCardsGiftCards(country: String, brandID: String) async throws(EngageError) -> [PiggyCardsProduct] {
            try await context.perform("piggycards_gift_cards") { try await requirePiggyCards().giftCards(country: country, brandID: brandID) }
        }

        /// The price of one DASH in `currency`.
        public func piggyCardsExchangeRate(currency: String = "USD") async throws(EngageError) -> Decimal {
            try await context.perform("piggycards_exchange_rate") { try await requirePiggyCards().exchangeRate(currency: currency) }
        }

        /// Orders `quantity` cards of `denomination` (checked against the product and the 2 500 limit
        /// before sending); the returned order's quote includes the 1.5 % service fee.
        public func buyPiggyCardsGiftCard(
            product: PiggyCardsProduct, denomination: Decimal, quantity: Int = 1, recipientEmail: String
        ) async throws(EngageError) -> PiggyCardsOrder {
            try await context.perform("piggycards_order") {
                try await requirePiggyCards().createOrder(product: product, denomination: denomination, quantity: quantity, recipientEmail: recipientEmail)
            }
        }

        /// The current state of an order.
        public func piggyCardsOrder(id: String) async throws(EngageError) -> PiggyCardsOrderDetails {
            try await context.perform("piggycards_order_status") { try await requirePiggyCards().order(id: id) }
        }

        /// Polls an order until it is complete (its cards are then sealed in ``giftCards``) or cancelled.
        public func waitForPiggyCardsOrder(id: String, polling: GiftCardPolling = GiftCardPolling()) async throws(EngageError) -> PiggyCardsOrderDetails {
            try await context.perform("piggycards_wait_for_order") { try await requirePiggyCards().waitForOrder(id: id, polling: polling) }
        }

        // MARK: Callback twins

        /// The callback form of ``piggyCardsSignUp(firstName:lastName:email:country:state:)``.
        @discardableResult
        public func piggyCardsSignUp(
            firstName: String, lastName: String, email: String, country: String, state: String? = nil, completion: @escaping Completion<String>
        ) -> any Cancellable {
            context.callback(completion) {
                try await self.piggyCardsSignUp(firstName: firstName, lastName: lastName, email: email, country: country, state: state)
            }
        }

        /// The callback form of ``piggyCardsVerify(otp:)``.
        @discardableResult
        public func piggyCardsVerify(otp: String, completion: @escaping Completion<Void>) -> any Cancellable {
            context.callback(completion) { try await self.piggyCardsVerify(otp: otp) }
        }

        /// The callback form of ``piggyCardsBrands(country:)``.
        @discardableResult
        public func piggyCardsBrands(country: String, completion: @escaping Completion<[PiggyCardsBrand]>) -> any Cancellable {
            context.callback(completion) { try await self.piggyCardsBrands(country: country) }
        }

        /// The callback form of ``piggyCardsGiftCards(country:brandID:)``.
        @discardableResult
        public func piggyCardsGiftCards(country: String, brandID: String, completion: @escaping Completion<[PiggyCardsProduct]>) -> any Cancellable {
            context.callback(completion) { try await self.piggyCardsGiftCards(country: country, brandID: brandID) }
        }

        /// The callback form of ``piggyCardsExchangeRate(currency:)``.
        @discardableResult
        public func piggyCardsExchangeRate(currency: String = "USD", completion: @escaping Completion<Decimal>) -> any Cancellable {
            context.callback(completion) { try await self.piggyCardsExchangeRate(currency: currency) }
        }

        /// The callback form of ``buyPiggyCardsGiftCard(product:denomination:quantity:recipientEmail:)``.
        @discardableResult
        public func buyPiggyCardsGiftCard(
            product: PiggyCardsProduct, denomination: Decimal, quantity: Int = 1, recipientEmail: String, completion: @escaping Completion<PiggyCardsOrder>
        ) -> any Cancellable {
            context.callback(completion) {
                try await self.buyPiggyCardsGiftCard(product: product, denomination: denomination, quantity: quantity, recipientEmail: recipientEmail)
            }
        }

        /// The callback form of ``piggyCardsOrder(id:)``.
        @discardableResult
        public func piggyCardsOrder(id: String, completion: @escaping Completion<PiggyCardsOrderDetails>) -> any Cancellable {
            context.callback(completion) { try await self.piggyCardsOrder(id: id) }
        }

        /// The callback form of ``waitForPiggyCardsOrder(id:polling:)``.
        @discardableResult
        public func waitForPiggyCardsOrder(
            id: String, polling: GiftCardPolling = GiftCardPolling(), completion: @escaping Completion<PiggyCardsOrderDetails>
        ) -> any Cancellable {
            context.callback(completion) { try await self.waitForPiggyCardsOrder(id: id, polling: polling) }
        }
    }
#endif
