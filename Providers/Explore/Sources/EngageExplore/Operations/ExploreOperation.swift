@_spi(EngageProvider) import EngageCore

/// Every operation of the merchant explorer itself (the gift-card sources declare their own), once.
enum ExploreOperation: String, ProviderOperation {
    case merchants
    case merchant
    case merchantDetails = "merchant_details"
    case locations
    case atms
    case territories
    case sync
    case recoverGiftCards = "recover_gift_cards"
    case reset
    /// The release manifest read by a sync.
    case manifest = "explore_manifest"
    /// The release object's metadata read by a sync.
    case objectMetadata = "explore_object_metadata"
    /// The release download.
    case download = "explore_download"
}
