import Foundation
import HTTPTypes

/// A small GraphQL client over `APIClient`: POSTs `{"query","variables","operationName"}` as JSON and
/// decodes `data`.
///
/// Errors returned with HTTP 200 are errors: the client's response policy gets a rule
/// (`errorRule`) that fails an answer with a non-empty `errors` array as `.graphQL` (with every
/// message and code), even when partial `data` came along, so a mutation is never reported as
/// successful if the server listed errors. The provider's own rules (Hasura's `invalid-jwt`) run first.
@_spi(EngageProvider) public struct GraphQLClient: Sendable {
    /// The HTTP client the operations are posted with.
    public let client: APIClient
    /// The endpoint path relative to the client's base URL (Hasura's is `/v1/graphql`).
    public let path: String
    /// Extra header fields for every GraphQL request (e.g. `x-hasura-role`).
    public var headers: @Sendable () async -> HTTPFields

    /// A client posting to `path` (relative to `client`'s base URL, default `/v1/graphql`) with the
    /// extra `headers` computed for each request.
    public init(client: APIClient, path: String = "/v1/graphql", headers: @escaping @Sendable () async -> HTTPFields = { [:] }) {
        var client = client
        client.policy = client.policy.adding(Self.errorRule)
        self.client = client
        self.path = path
        self.headers = headers
    }

    /// Performs `operation` and returns its decoded data.
    public func perform<Operation: GraphQLOperation>(
        _ operation: Operation,
        authorization: RequestOptions.Authorization = .ifAvailable,
        timeout: Duration? = nil
    ) async throws -> Operation.ResponseData {
        let data = try await responseBody(
            document: Operation.document, variables: operation.variables, operationName: Operation.operationName,
            isMutation: Operation.isMutation, authorization: authorization, timeout: timeout
        )
        return try decodeData(Operation.ResponseData.self, from: data)
    }

    /// Posts a document given as values (for a provider that builds its operations at run time, or
    /// caches answers as they came) and returns the whole response body, once it is known to list no
    /// errors. Decode it with ``decodeData(_:from:decoder:)``. `headers` are added to the client's for
    /// this request (and win over them): for headers that must match what the caller read once, such
    /// as the user an answer is cached for.
    public func responseBody(
        document: String,
        variables: some Encodable & Sendable,
        operationName: String?,
        isMutation: Bool,
        authorization: RequestOptions.Authorization = .ifAvailable,
        timeout: Duration? = nil,
        headers extraHeaders: HTTPFields = [:]
    ) async throws -> Data {
        let payload = GraphQLRequestBody(query: document, variables: variables, operationName: operationName)
        let options = RequestOptions(
            timeout: timeout,
            isRepeatable: !isMutation,
            authorization: authorization,
            // Outside a provider operation the request is named after the GraphQL operation.
            operation: CurrentOperation.value == nil ? operationName.map { GraphQLNamedOperation(name: OperationName(rawValue: $0)) } : nil
        )
        var fields = await headers()
        for field in extraHeaders { fields[field.name] = field.value }
        return try await client.data(.post, path, headers: fields, body: .json(payload), options: options)
    }

    /// The rule every GraphQL client's policy gets: an answer listing `errors` has failed, even with
    /// partial `data`, or `data` of an unexpected shape.
    static let errorRule: ResponsePolicy.Rule = { answer in
        guard answer.response.isSuccess, let errors = errors(in: answer.response.body) else { return .accept }
        return .fail(
            error(
                for: errors, providerID: nil, operationName: answer.request.options.operationName?.rawValue, redactor: answer.redactor))
    }

    /// Decodes the `data` member of a response body as `type`; a body without `data` is a `.decoding`
    /// error.
    public func decodeData<ResponseData: Decodable>(
        _ type: ResponseData.Type, from body: Data, decoder: JSONDecoder = JSONDecoder()
    ) throws -> ResponseData {
        try Self.decodeData(type, from: body, decoder: decoder, providerID: client.providerID)
    }

    /// Decodes the `data` member of a response body as `type`, errors attributed to `providerID`: for
    /// a body read back from a cache, where no client is at hand. A body without `data` is a
    /// `.decoding` error; a `DecodingError` becomes `.decoding` naming the field's path.
    public static func decodeData<ResponseData: Decodable>(
        _ type: ResponseData.Type, from body: Data, decoder: JSONDecoder = JSONDecoder(), providerID: ProviderID?
    ) throws(EngageError) -> ResponseData {
        let envelope: GraphQLResponseEnvelope<ResponseData>
        do {
            envelope = try decoder.decode(GraphQLResponseEnvelope<ResponseData>.self, from: body)
        } catch let error as DecodingError {
            throw EngageError(decodingError: error, providerID: providerID)
        } catch {
            throw EngageError(.decoding, "The GraphQL response could not be decoded.", providerID: providerID, underlyingError: error)
        }
        guard let value = envelope.data else {
            throw EngageError(.decoding, "The GraphQL response has neither data nor errors.", providerID: providerID)
        }
        return value
    }

    /// The non-empty `errors` array of a response body, if it has one.
    ///
    /// A body without the bytes `"errors"` has none, and is not parsed: a successful answer is then
    /// parsed once (by the data decoder), not twice. (A string value cannot hold those bytes: its
    /// quotes are escaped.)
    public static func errors(in body: Data) -> [GraphQLErrorEntry]? {
        guard body.containsBytes(errorsKey),
            let errors = (try? JSONDecoder().decode(GraphQLErrorsEnvelope.self, from: body))?.errors, !errors.isEmpty
        else { return nil }
        return errors
    }

    private static let errorsKey = Data(#""errors""#.utf8)

    /// The `.graphQL` error for `errors`: the first five entries, each message redacted and cut to 300
    /// characters (a server may echo what it was sent), with its code and path; the entries themselves,
    /// as sent, are the underlying error for the provider to read.
    static func error(for errors: [GraphQLErrorEntry], providerID: ProviderID?, operationName: String?, redactor: Redactor) -> EngageError {
        let summary = errors.prefix(5).map { entry -> String in
            var text = redactor.redact(text: String(entry.message.prefix(300)))
            if let code = entry.code { text += " [\(redactor.redact(text: String(code.prefix(100))))]" }
            if let path = entry.path, !path.isEmpty {
                text += " at \(redactor.redact(text: String(path.prefix(20).map(\.description).joined(separator: ".").prefix(200))))"
            }
            return text
        }.joined(separator: "; ")
        let name = operationName.map { " \($0)" } ?? ""
        return EngageError(
            .graphQL, "GraphQL operation\(name) failed: \(summary)", providerID: providerID, underlyingError: GraphQLErrors(entries: errors)
        )
    }
}

/// A GraphQL request sent outside a provider operation, named after its GraphQL operation.
private struct GraphQLNamedOperation: ProviderOperation {
    let name: OperationName
}

/// The `errors` of a failed GraphQL response, kept as `EngageError.underlyingError`.
@_spi(EngageProvider) public struct GraphQLErrors: Error, Sendable, Equatable {
    /// Every entry of the response's `errors` array, in order.
    public var entries: [GraphQLErrorEntry]
}

private struct GraphQLRequestBody<Variables: Encodable & Sendable>: Encodable, Sendable {
    var query: String
    var variables: Variables
    var operationName: String?
}

private struct GraphQLResponseEnvelope<ResponseData: Decodable>: Decodable {
    var data: ResponseData?
}

private struct GraphQLErrorsEnvelope: Decodable {
    var errors: [GraphQLErrorEntry]?
}
