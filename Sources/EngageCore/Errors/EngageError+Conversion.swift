import Foundation

extension EngageError {
    /// Converts any error into an `EngageError`, keeping an existing one as it is (attributing it to
    /// `providerID` if it has no provider yet).
    ///
    /// Cancellation becomes `.cancelled`, `URLError` becomes `.network` or `.timeout`, decoding errors
    /// become `.decoding` with the failing coding path.
    @_spi(EngageProvider) public static func wrapping(_ error: any Error, providerID: ProviderID? = nil) -> EngageError {
        if let engageError = error as? EngageError {
            return providerID.map { engageError.attributed(to: $0) } ?? engageError
        }
        if error is CancellationError {
            return EngageError(.cancelled, "The operation was cancelled.", providerID: providerID, underlyingError: error)
        }
        if let urlError = error as? URLError {
            return EngageError(urlError: urlError, providerID: providerID)
        }
        if let decodingError = error as? DecodingError {
            return EngageError(decodingError: decodingError, providerID: providerID)
        }
        if error is EncodingError {
            return EngageError(.encoding, "A request body could not be encoded.", providerID: providerID, underlyingError: error)
        }
        return EngageError(
            .internal, "Unexpected error: \(String(describing: type(of: error)))",
            providerID: providerID, underlyingError: error
        )
    }

    /// A network failure described by a `URLError`.
    @_spi(EngageProvider) public init(urlError: URLError, providerID: ProviderID? = nil) {
        switch urlError.code {
        case .timedOut:
            self.init(
                .timeout, "The request timed out.", providerID: providerID, isRetryable: true,
                recoverySuggestion: "Check the connection and try again.", underlyingError: urlError
            )
        case .cancelled:
            self.init(.cancelled, "The request was cancelled.", providerID: providerID, underlyingError: urlError)
        default:
            self.init(
                .network, "The request failed: \(urlError.localizedDescription)", providerID: providerID,
                isRetryable: true, recoverySuggestion: "Check the connection and try again.", underlyingError: urlError
            )
        }
    }

    /// A decoding failure, with the coding path where it happened; `code` is `.decoding` unless the
    /// caller names another (e.g. `.invalidConfiguration` for a configuration file).
    @_spi(EngageProvider) public init(
        decodingError: DecodingError, providerID: ProviderID? = nil, what: String = "response", code: Code = .decoding
    ) {
        let detail: String
        switch decodingError {
        case let .typeMismatch(type, context):
            detail = "expected \(type) at \(context.codingPath.dottedPath)"
        case let .valueNotFound(type, context):
            detail = "missing \(type) value at \(context.codingPath.dottedPath)"
        case let .keyNotFound(key, context):
            detail = "missing key '\(key.stringValue)' at \(context.codingPath.dottedPath)"
        case let .dataCorrupted(context):
            detail = "\(context.debugDescription) at \(context.codingPath.dottedPath)"
        @unknown default:
            detail = "unreadable data"
        }
        self.init(
            code, "The \(what) could not be decoded: \(detail).", providerID: providerID,
            recoverySuggestion: Self.suggestion(decoding: what, code: code),
            underlyingError: decodingError
        )
    }

    /// A response body larger than the accepted limit (announced by `Content-Length` or received); a
    /// `.responseTooLarge` error.
    @_spi(EngageProvider) public static func responseTooLarge(
        bytes: Int, limit: Int, httpStatus: Int? = nil, providerID: ProviderID? = nil
    ) -> EngageError {
        EngageError(
            .responseTooLarge, "The response body is \(bytes) bytes, over the limit of \(limit).", providerID: providerID,
            httpStatus: httpStatus, recoverySuggestion: "Raise network.maxResponseBytes if answers this large are expected."
        )
    }

    /// Whether a request that failed with `status` may succeed when sent again later: 408 Request
    /// Timeout, 425 Too Early, 429 Too Many Requests and every 5xx. Providers mapping their own error
    /// answers use it so that one rule decides what ``isRetryable`` means.
    @_spi(EngageProvider) public static func isRetryable(httpStatus status: Int) -> Bool {
        status == 408 || status == 425 || status == 429 || (500...599).contains(status)
    }

    /// An HTTP response with a status the caller did not expect.
    ///
    /// 408, 425, 429 and 5xx are retryable; 401 maps to `.unauthorized`.
    @_spi(EngageProvider) public static func http(status: Int, providerID: ProviderID? = nil, message: String? = nil) -> EngageError {
        let retryable = isRetryable(httpStatus: status)
        let code: Code = status == 401 ? .unauthorized : .httpStatus
        return EngageError(
            code, message ?? "The server answered with HTTP \(status).", providerID: providerID,
            httpStatus: status, isRetryable: retryable,
            recoverySuggestion: suggestion(forHTTPStatus: status)
        )
    }

    /// What a developer can do about a `what` that did not decode.
    static func suggestion(decoding what: String, code: Code) -> String {
        if code == .invalidConfiguration {
            return "Correct the setting at the path named above: the provider's configuration reference lists each setting and its type."
        }
        if what == "response" {
            return
                "The answer does not have the shape this version of EngageKit reads: check that the provider's base URL points at its API; if it does, report the answer's shape."
        }
        return "The \(what) is not in the shape this version of EngageKit reads."
    }

    /// What a developer can do about an answer with `status`.
    static func suggestion(forHTTPStatus status: Int) -> String {
        switch status {
        case 400, 422:
            "The server refused the request's input: check the values passed to the call (the message names what the server said)."
        case 401:
            "The credentials were refused: check the provider's keys in the configuration, or log the user in again."
        case 403:
            "The credentials are valid but not allowed to do this: check that the provider's keys belong to this environment and have the permission, and that the user may use this feature."
        case 404, 410:
            "The server does not know this resource: check the id passed to the call and the provider's base URL."
        case 408, 425, 429:
            "The server asked to slow down or try again: retry after retryAfter (when set) or a short wait."
        case 500...599:
            "The provider's server failed: try again later; the call is retryable."
        default:
            "The server answered with a status the call does not expect: check the provider's base URL and configuration."
        }
    }
}

extension [any CodingKey] {
    /// The coding path as `a.b[2].c`, or `the top level` when empty.
    var dottedPath: String {
        guard !isEmpty else { return "the top level" }
        var text = ""
        for key in self {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
