@_spi(EngageProvider) import EngageCore
import Foundation

/// A Dash ATM from the directory.
public struct ExploreATM: Codable, Sendable, Hashable, Identifiable {
    /// The row's id in the directory file.
    public var id: Int64
    /// The name.
    public var name: String
    /// The machine's manufacturer.
    public var manufacturer: String?
    /// What it does.
    public var type: ExploreATMType?
    /// Where it is, with the distance from the query's centre when there is one.
    public var location: ExploreLocation

    /// An ATM.
    public init(id: Int64, name: String, manufacturer: String?, type: ExploreATMType?, location: ExploreLocation) {
        self.id = id
        self.name = name
        self.manufacturer = manufacturer
        self.type = type
        self.location = location
    }
}

/// Which ATMs to list: around a point (or everywhere), of some types, matching some text.
public struct ExploreATMQuery: Codable, Sendable, Hashable {
    /// The centre; ATMs are sorted by distance from it.
    public var center: GeoPoint?
    /// With a centre: only ATMs within this radius.
    public var radius: ExploreRadius?
    /// Types to keep (empty: any).
    public var types: Set<ExploreATMType>
    /// Words to find in names or manufacturers.
    public var text: String?
    /// The page.
    public var page: PageRequest

    /// A query; with no arguments, every ATM by name.
    public init(
        center: GeoPoint? = nil, radius: ExploreRadius? = nil, types: Set<ExploreATMType> = [], text: String? = nil,
        page: PageRequest = PageRequest()
    ) {
        self.center = center
        self.radius = radius
        self.types = types
        self.text = text
        self.page = page
    }
}
