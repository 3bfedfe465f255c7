@_spi(EngageProvider) import EngageCore

extension EngageError.Code {
    /// Crobox answered 405: it does not know the container id.
    public static let croboxUnknownContainer: Self = "crobox.unknownContainer"
}

extension ProviderID {
    /// The Crobox provider's id.
    public static let crobox: ProviderID = "crobox"
}

extension CroboxProvider {
    /// Crobox's error codes (1101–1199), registered with the core as the provider is registered.
    @_spi(EngageProvider) public static let errorCodes: [EngageError.Code.Entry] = [
        EngageError.Code.Entry(.croboxUnknownContainer, number: 1101, summary: "Crobox does not know the container id.")
    ]
}
