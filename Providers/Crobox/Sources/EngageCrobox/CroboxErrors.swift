@_spi(EngageProvider) import EngageCore

extension EngageError.Code {
    /// Crobox answered 405: it does not know the container id.
    public static let croboxUnknownContainer: Self = "crobox.unknownContainer"
}

extension ProviderID {
    /// The Crobox provider's id.
    public static let crobox: ProviderID = "crobox"
}
