@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox

extension CroboxEmulator {
    /// Verifies the Android SDK's `z` checksum when the query carries one.
    ///
    /// The Android SDK hashes the encoded query as it is about to send it, then appends `&z=<hash>`, so
    /// the checksum covers the raw query text as received minus the `z` item (wherever it stands; it
    /// is last in practice). Requests without `z` (the iOS SDK) pass.
    /// - Throws: 400 `checksum mismatch` when `z` is present more than once or does not match.
    static func verifyChecksum(rawQuery: String) throws(CroboxRejection) {
        let pieces = rawQuery.split(separator: "&", omittingEmptySubsequences: false)
        let isChecksum = { (piece: Substring) -> Bool in
            let name = piece.firstIndex(of: "=").map { piece[..<$0] } ?? piece
            return QueryString.percentDecode(name) == CroboxEmulatorWire.Key.checksum
        }
        let checksums = pieces.filter(isChecksum)
        guard let piece = checksums.first else { return }
        guard checksums.count == 1 else {
            throw checksumMismatch("The query carries more than one z parameter.")
        }
        let received =
            piece.firstIndex(of: "=").map {
                QueryString.percentDecode(piece[piece.index(after: $0)...])
            } ?? ""
        let covered = pieces.filter { !isChecksum($0) }.joined(separator: "&")
        let expected = CroboxEmulatorWire.checksum(ofEncodedQuery: covered)
        guard received.lowercased() == expected else {
            throw checksumMismatch(
                "z=\(received.prefix(16)) does not match the MurmurHash3 of the query without z (\(expected))."
            )
        }
    }

    private static func checksumMismatch(_ description: String) -> CroboxRejection {
        CroboxRejection(status: .badRequest, code: "checksum mismatch", description: description)
    }
}
