#if PiggyCards
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    @_spi(EngageProvider) import EngageCore

    extension PiggyCardsEmulator {
        /// The one-time password e-mailed to `email` (any case) at sign-up.
        public func otp(for email: String) -> String? {
            state.withLock { $0.users[email.lowercased()]?.otp }
        }

        /// Marks the order paid now; it shows `Processing`, then `Complete`, on the host's clock.
        public func markPaid(orderID: String) {
            let now = environmentSlot.withLock { $0?.now() } ?? Date()
            state.withLock { state in
                guard var order = state.orders[orderID], order.status == .paymentPending else { return }
                order.status = .paid
                order.paidAt = now
                state.orders[orderID] = order
            }
        }

        /// Cancels the order.
        public func cancel(orderID: String) {
            state.withLock { $0.orders[orderID]?.status = .cancelled }
        }

        /// The order as the backend holds it, with the amounts it computed.
        public func order(id: String) -> PiggyCardsEmulatorOrder? {
            state.withLock { $0.orders[id] }
        }

        /// Sets the stock of a product (0 makes orders fail with "out of stock").
        public func setStock(_ quantity: Int, forProduct productID: Int) {
            state.withLock { $0.stock[productID] = quantity }
        }

        /// How many logins succeeded.
        public var loginCount: Int { state.withLock { $0.loginCount } }
    }
#endif
