import Foundation

extension EngageError {
    /// Converts any error into an `EngageError`, keeping an existing one as it is (attributing it to
    /// `providerID` if it has no provider yet).
    ///
    /// Cancellation becomes `.cancelled`, `URLError` becomes `.network` or `.timeout`, decoding errors
    /// become `.decoding` with the failing coding path.
    public static func wrapping(_ error: any Error, providerID: ProviderID? = nil) -> EngageError {
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
    public init(urlError: URLError, providerID: ProviderID? = nil) {
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
    public init(decodingError: DecodingError, providerID: ProviderID? = nil, what: String = "response", code: Code = .decoding) {
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
            recoverySuggestion: "The server sent data in an unexpected shape; update the SDK or report it.",
            underlyingError: decodingError
        )
    }

    /// A response body larger than the accepted limit (announced by `Content-Length` or received); a
    /// `.responseTooLarge` error.
    public static func responseTooLarge(bytes: Int, limit: Int, httpStatus: Int? = nil, providerID: ProviderID? = nil) -> EngageError {
        EngageError(
            .responseTooLarge, "The response body is \(bytes) bytes, over the limit of \(limit).", providerID: providerID,
            httpStatus: httpStatus, recoverySuggestion: "Raise network.maxResponseBytes if answers this large are expected."
        )
    }

    /// Whether a request that failed with `status` may succeed when sent again later: 408 Request
    /// Timeout, 425 Too Early, 429 Too Many Requests and every 5xx. Providers mapping their own error
    /// answers use it so that one rule decides what ``isRetryable`` means.
    public static func isRetryable(httpStatus status: Int) -> Bool {
        status == 408 || status == 425 || status == 429 || (500...599).contains(status)
    }

    /// An HTTP response with a status the caller did not expect.
    ///
    /// 408, 425, 429 and 5xx are retryable; 401 maps to `.unauthorized`.
    public static func http(status: Int, providerID: ProviderID? = nil, message: String? = nil) -> EngageError {
        let retryable = isRetryable(httpStatus: status)
        let code: Code = status == 401 ? .unauthorized : .httpStatus
        return EngageError(
            code, message ?? "The server answered with HTTP \(status).", providerID: providerID,
            httpStatus: status, isRetryable: retryable,
            recoverySuggestion: retryable ? "Try again later." : nil
        )
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
