import Foundation

/// A cell of the index's location grid: 1/64 of a degree of latitude by 1/64 of a degree of longitude
/// (about 1.7 km north–south). The index stores a directory's located rows tile by tile and gives its
/// R*Tree one box per tile, so a nearby query reads a few hundred boxes from SQLite and then scans
/// contiguous rows in memory, instead of stepping an SQLite cursor once per location.
struct ExploreTile: Sendable, Hashable, Comparable {
    /// Tiles per degree (a power of two, so `degrees * cellsPerDegree` is exact).
    static let cellsPerDegree = 64.0

    var latitudeCell: Int32
    var longitudeCell: Int32

    init(latitude: Double, longitude: Double) {
        latitudeCell = Int32((latitude * Self.cellsPerDegree).rounded(.down))
        longitudeCell = Int32((longitude * Self.cellsPerDegree).rounded(.down))
    }

    static func < (lhs: ExploreTile, rhs: ExploreTile) -> Bool {
        (lhs.latitudeCell, lhs.longitudeCell) < (rhs.latitudeCell, rhs.longitudeCell)
    }
}
