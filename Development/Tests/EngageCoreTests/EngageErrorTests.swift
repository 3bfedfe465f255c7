@_spi(EngageProvider) @testable import EngageCore
import Foundation
import EngageTestTraits
import Testing

@Suite("EngageError values", .bounded)
struct EngageErrorValueTests {
    @Test("errors are equal when their codes are, whatever the occurrence's details")
    func equalityByCode() {
        let first = EngageError(.unauthorized, "no session", providerID: "warply", httpStatus: 401)
        let second = EngageError(.unauthorized, "another message", isRetryable: true)
        #expect(first == second)
        #expect(first != EngageError(.sessionExpired, "no session", providerID: "warply", httpStatus: 401))
        #expect(first == EngageError(.unauthorized, ""))
    }

    @Test("attributed(to:) sets a missing provider and keeps every other field; an attributed error stays as it was")
    func attribution() {
        struct Cause: Error {}
        let error = EngageError(.network, "lost", httpStatus: nil, isRetryable: true, recoverySuggestion: "retry", underlyingError: Cause())
        let attributed = error.attributed(to: "crobox")
        #expect(attributed.providerID == "crobox")
        #expect(attributed.message == "lost" && attributed.isRetryable && attributed.recoverySuggestion == "retry")
        #expect(attributed.underlyingError is Cause)
        #expect(attributed.attributed(to: "warply").providerID == "crobox")
        #expect(EngageError.wrapping(attributed, providerID: "warply").providerID == "crobox")
    }

    @Test("a body over the limit is .responseTooLarge, not retryable, with the sizes in the message")
    func responseTooLarge() {
        let error = EngageError.responseTooLarge(bytes: 2_048, limit: 1_024, httpStatus: 200, providerID: "explore")
        #expect(error.code == EngageError.Code.responseTooLarge)
        #expect(error.code != EngageError.Code.decoding)
        #expect(!error.isRetryable)
        #expect(error.message.contains("2048 bytes, over the limit of 1024"))
        #expect(error.recoverySuggestion?.contains("network.maxResponseBytes") == true)
    }

    @Test("a configuration decoding failure names its own code and the coding path")
    func decodingWithCode() throws {
        struct Shape: Decodable { var count: Int }
        do {
            _ = try JSONDecoder().decode(Shape.self, from: Data(#"{"count":"x"}"#.utf8))
            Issue.record("decoded a string as Int")
        } catch let decodingError as DecodingError {
            let error = EngageError(decodingError: decodingError, what: "configuration", code: .invalidConfiguration)
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains("count"))
            #expect(EngageError(decodingError: decodingError).code == .decoding)
        }
    }
}
