import Hummingbird

extension Request {
    /// The request's query, percent-decoded, for an emulator's route: `request.queryLookup["size"]`
    /// is the first value of `size` (`+` stays a plus; items with invalid escapes are kept verbatim).
    public var queryLookup: QueryLookup {
        QueryLookup(items: uri.query.map(QueryString.decode) ?? [])
    }
}
