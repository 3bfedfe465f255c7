@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

// An app's own operations: a content platform's schema grows faster than an SDK, so an app can send
// its own GraphQL document or REST call through the same session, headers, language, cache and error
// rules as the built-in operations.

extension YoullQuery where Value: Decodable {
    /// Your own GraphQL query: `data.<field>` of the answer decodes as `Value` (`JSONValue` takes
    /// anything). It runs like the built-in queries: the session's token and headers, `extraLang`
    /// added when the document declares `$extraLang`, the cache policies, the GraphQL error rules and
    /// the event `custom_{success,error}_<name>_youll`.
    ///
    /// ```swift
    /// let config = try await youll.fetch(YoullQuery<JSONValue>.graphQL(
    ///     named: "paywall_config", field: "paywall_config",
    ///     document: "query PaywallConfig($extraLang: String) { paywall_config(lang: $extraLang) { id title } }"))
    /// ```
    ///
    /// - Parameters:
    ///   - name: lower-case letters, digits and `_`, starting with a letter (64 at most): the event
    ///     name part, the cache key and the name token rules use; the GraphQL operation name is its
    ///     camel-cased form (`paywall_config` → `PaywallConfig`).
    ///   - userScoped: whether it reads the user's own data (a token is then required, and the cached
    ///     answer belongs to the user).
    ///   - field: the field of the answer's `data` that decodes as `Value` (a GraphQL name).
    ///   - document: a GraphQL `query` (a `mutation` is refused here: use ``YoullMutation``).
    ///   - variables: the document's variables (`extraLang` is added when the document declares it).
    /// - Returns: a query; invalid arguments make it fail with `.invalidInput` when run, before
    ///   anything is sent.
    public static func graphQL(
        named name: String, field: String, document: String, variables: [String: JSONValue] = [:], userScoped: Bool = false
    ) -> YoullQuery<Value> {
        if let problem = YoullCustomOperation.problem(name: name, document: document, field: field, allowsMutation: false) {
            return .refused(problem, name: name, userScoped: userScoped)
        }
        return .graphQL(name, userScoped: userScoped, field: field, document: document, variables: variables, as: Value.self) { value, _ in
            value
        }
    }

    /// Your own REST `GET` under the REST base URL (`path` relative to it, `query` encoded), its body
    /// decoded as `Value`, with the same session, cache policies, error rules and events as the
    /// built-in REST reads.
    public static func rest(
        named name: String, path: String, query: [(String, String?)] = [], userScoped: Bool = false
    ) -> YoullQuery<Value> {
        if let problem = YoullCustomOperation.problem(name: name) {
            return .refused(problem, name: name, userScoped: userScoped)
        }
        return .rest(name, userScoped: userScoped, path: path, query: query, as: Value.self) { value, _ in value }
    }
}

extension YoullMutation where Value: Decodable {
    /// Your own GraphQL mutation: `data.<field>` decodes as `Value`. Never cached, never retried
    /// automatically; an answer that lists errors has failed. The rules of
    /// ``YoullQuery/graphQL(named:field:document:variables:userScoped:)`` apply to `name`.
    public static func graphQL(
        named name: String, field: String, document: String, variables: [String: JSONValue] = [:], userScoped: Bool = true
    ) -> YoullMutation<Value> {
        if let problem = YoullCustomOperation.problem(name: name, document: document, field: field, allowsMutation: true) {
            return .refused(problem, name: name, userScoped: userScoped)
        }
        return .graphQL(name, userScoped: userScoped, field: field, document: document, variables: variables, as: Value.self) { value, _ in
            value
        }
    }

    /// Your own REST call (`POST`, `PUT`, `PATCH`, `DELETE`…) under the REST base URL with an optional
    /// JSON body; the answer's body decodes as `Value` (`JSONValue` takes any JSON; an answer
    /// without a body is a decoding error).
    public static func rest(
        named name: String, method: HTTPRequest.Method, path: String, body: JSONValue? = nil, userScoped: Bool = true
    ) -> YoullMutation<Value> {
        if let problem = YoullCustomOperation.problem(name: name) {
            return .refused(problem, name: name, userScoped: userScoped)
        }
        return .rest(name, userScoped: userScoped, method: method, path: path, body: body.map { .json($0) } ?? .none, as: Value.self) {
            value, _ in value
        }
    }
}

extension YoullQuery {
    /// A query that fails with `problem` when run, before anything is sent.
    static func refused(_ problem: EngageError, name: String, userScoped: Bool) -> Self {
        Self(
            name: YoullCustomOperation.eventName(name), isUserScoped: userScoped, request: .invalid(problem),
            decode: { _, _ in throw problem })
    }
}

extension YoullMutation {
    /// A mutation that fails with `problem` when run, before anything is sent.
    static func refused(_ problem: EngageError, name: String, userScoped: Bool) -> Self {
        Self(
            name: YoullCustomOperation.eventName(name), isUserScoped: userScoped, request: .invalid(problem),
            decode: { _, _ in throw problem })
    }
}

/// The checks of an app's own operations.
enum YoullCustomOperation {
    /// The longest GraphQL document accepted (100 KB).
    static let maximumDocumentBytes = 100_000

    /// A name safe for events and cache keys: the name itself when valid, else a fixed one.
    static func eventName(_ name: String) -> String {
        problem(name: name) == nil ? name : "custom_operation"
    }

    /// What is wrong with an operation's arguments, if anything.
    static func problem(name: String, document: String? = nil, field: String? = nil, allowsMutation: Bool = true) -> EngageError? {
        func refuse(_ message: String) -> EngageError { EngageError(.invalidInput, message, providerID: .youll) }
        let nameBytes = Array(name.utf8)
        let nameIsValid =
            (1...64).contains(nameBytes.count) && (97...122).contains(nameBytes[0])
            && nameBytes.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
        guard nameIsValid else {
            return refuse("An operation's name must be 1 to 64 lower-case letters, digits or '_', starting with a letter.")
        }
        if let field {
            let fieldBytes = Array(field.utf8)
            let fieldIsValid =
                (1...128).contains(fieldBytes.count) && !(48...57).contains(fieldBytes[0])
                && fieldBytes.allSatisfy { (97...122).contains($0) || (65...90).contains($0) || (48...57).contains($0) || $0 == 95 }
            guard fieldIsValid else { return refuse("The GraphQL field '\(field.prefix(40))' is not a field name.") }
        }
        if let document {
            let trimmed = document.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, document.utf8.count <= maximumDocumentBytes else {
                return refuse("A GraphQL document must be 1 to \(maximumDocumentBytes) bytes.")
            }
            // The document's own definitions decide, past comments, whitespace and fragments (a
            // leading comment once let a mutation through as a query, cached and retried).
            if !allowsMutation, GraphQLDocument.containsMutation(document) {
                return refuse("A mutation is not a query (queries are cached and retried): use YoullMutation.graphQL(named:…).")
            }
        }
        return nil
    }
}
