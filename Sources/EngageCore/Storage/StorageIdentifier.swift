/// Validation rules shared by storage names: namespaces, keys, secret names, queue destinations.
enum StorageIdentifier {
    /// Whether `name` follows the namespace rules (the `ProviderID` rules): lowercase ASCII letters,
    /// digits, `-` and `_`, starting with a letter, at most 64 characters.
    static func isValidNamespace(_ name: String) -> Bool {
        ProviderID(rawValue: name).isValid
    }

    /// Throws `.invalidInput` unless `name` is a valid namespace name.
    static func validateNamespace(_ name: String) throws {
        guard isValidNamespace(name) else {
            throw EngageError(
                .invalidInput,
                "Invalid storage namespace '\(name.prefix(80))': use 1 to 64 lowercase letters, digits, '-' or '_', "
                    + "starting with a letter.",
                recoverySuggestion: "Use the provider's id as its namespace."
            )
        }
    }

    /// Whether `name` is a safe file-system and keychain name: 1 to 128 ASCII letters, digits, `.`, `-`
    /// and `_`, starting with a letter or digit, without `..`.
    static func isValidSimpleName(_ name: String, maxLength: Int = 128) -> Bool {
        let scalars = name.unicodeScalars
        guard let first = scalars.first, scalars.count <= maxLength, isAlphanumeric(first), !name.contains("..")
        else { return false }
        return scalars.allSatisfy { isAlphanumeric($0) || $0 == "." || $0 == "-" || $0 == "_" }
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
