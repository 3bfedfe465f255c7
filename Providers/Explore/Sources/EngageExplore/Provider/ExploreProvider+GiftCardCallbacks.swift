import EngageCore
import Foundation

/// The completion-handler twins of the gift-card operations (see ``ExploreProvider/Completion``).
extension ExploreProvider {
    /// The callback form of ``ctxRequestCode(email:)``.
    @discardableResult
    public func ctxRequestCode(email: String, completion: @escaping Completion<Void>) -> any Cancellable {
        context.callback(completion) { try await self.ctxRequestCode(email: email) }
    }

    /// The callback form of ``ctxVerify(email:code:)``.
    @discardableResult
    public func ctxVerify(email: String, code: String, completion: @escaping Completion<Void>) -> any Cancellable {
        context.callback(completion) { try await self.ctxVerify(email: email, code: code) }
    }

    /// The callback form of ``ctxSignOut()``.
    @discardableResult
    public func ctxSignOut(completion: @escaping Completion<Void>) -> any Cancellable {
        context.callback(completion) { try await self.ctxSignOut() }
    }

    /// The callback form of ``ctxIsSignedIn()``.
    @discardableResult
    public func ctxIsSignedIn(completion: @escaping Completion<Bool>) -> any Cancellable {
        context.callback(completion) { try await self.ctxIsSignedIn() }
    }

    /// The callback form of ``ctxMerchant(id:)``.
    @discardableResult
    public func ctxMerchant(id merchantID: String, completion: @escaping Completion<CTXMerchant>) -> any Cancellable {
        context.callback(completion) { try await self.ctxMerchant(id: merchantID) }
    }

    /// The callback form of ``buyCTXGiftCard(merchantID:fiatAmount:fiatCurrency:)``.
    @discardableResult
    public func buyCTXGiftCard(
        merchantID: String, fiatAmount: Decimal, fiatCurrency: String = "USD", completion: @escaping Completion<CTXGiftCard>
    ) -> any Cancellable {
        context.callback(completion) { try await self.buyCTXGiftCard(merchantID: merchantID, fiatAmount: fiatAmount, fiatCurrency: fiatCurrency) }
    }

    /// The callback form of ``ctxGiftCard(id:)``.
    @discardableResult
    public func ctxGiftCard(id: String, completion: @escaping Completion<CTXGiftCard>) -> any Cancellable {
        context.callback(completion) { try await self.ctxGiftCard(id: id) }
    }

    /// The callback form of ``waitForCTXGiftCard(id:polling:)``.
    @discardableResult
    public func waitForCTXGiftCard(id: String, polling: GiftCardPolling = GiftCardPolling(), completion: @escaping Completion<CTXGiftCard>) -> any Cancellable {
        context.callback(completion) { try await self.waitForCTXGiftCard(id: id, polling: polling) }
    }

    /// The callback form of ``storedGiftCards()``.
    @discardableResult
    public func storedGiftCards(completion: @escaping Completion<[StoredGiftCard]>) -> any Cancellable {
        context.callback(completion) { try await self.storedGiftCards() }
    }
}
