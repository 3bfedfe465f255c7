@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB

extension ExploreDirectory {
    /// One page of ATMs: within `radius` of the centre (sorted by distance), or everywhere (by name).
    public func atms(_ query: ExploreATMQuery) throws -> Page<ExploreATM> {
        guard schema.hasATMs else { return Page(items: [], offset: query.page.offset, totalCount: 0) }
        let textMatches: Set<Int64>?
        if ExploreTextSearch.isSearch(query.text) {
            guard let expression = ExploreTextSearch.matchExpression(query.text) else {
                return Page(items: [], offset: query.page.offset, totalCount: 0)
            }
            textMatches = try database.read { db in
                Set(try Int64.fetchAll(db, sql: "SELECT rowid FROM atm_fts WHERE atm_fts MATCH ?", arguments: [expression]))
            }
        } else {
            textMatches = nil
        }
        func column(_ name: String) -> String { schema.atmColumns.contains(name.lowercased()) ? "a.\"\(name)\"" : "NULL" }
        let sql = """
            SELECT a.rowid, \(column("name")), \(column("manufacturer")), \(column("type")), a."latitude", a."longitude",
                   \(column("address1")), \(column("address2")), \(column("address3")), \(column("address4")), \(column("city")),
                   \(column("territory")), \(column("phone"))
            FROM dir.atm a JOIN atm_rtree r ON r.id = a.rowid
            WHERE r.maxLat >= ? AND r.minLat <= ? AND r.maxLon >= ? AND r.minLon <= ?
            """
        let boxes =
            query.center.flatMap { center in query.radius.map { ExploreGeo.boundingBoxes(around: center, radiusMeters: $0.meters) } }
            ?? [ExploreGeo.Box(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)]
        var atms: [ExploreATM] = []
        try database.read { db in
            for box in boxes {
                let rows = try Row.fetchCursor(
                    db, sql: sql, arguments: [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude])
                while let row = try rows.next() {
                    let id: Int64 = try row.decode(atIndex: 0)
                    if let textMatches, !textMatches.contains(id) { continue }
                    let type = ExploreATMType(directoryValue: ExploreDirectoryContents.text(row, 3))
                    if !query.types.isEmpty, !(type.map(query.types.contains) ?? false) { continue }
                    guard let latitude = ExploreDirectoryContents.real(row, 4), let longitude = ExploreDirectoryContents.real(row, 5) else {
                        continue
                    }
                    let distance = query.center.map {
                        ExploreGeo.distance(latitude: $0.latitude, longitude: $0.longitude, latitude: latitude, longitude: longitude)
                    }
                    if let radius = query.radius?.meters, let distance, !(distance <= radius) { continue }
                    let location = ExploreLocation(
                        id: id, latitude: latitude, longitude: longitude, distanceMeters: distance,
                        addressLines: (6...9).compactMap { Self.nonEmpty(ExploreDirectoryContents.text(row, $0)) },
                        city: Self.nonEmpty(ExploreDirectoryContents.text(row, 10)),
                        territory: Self.nonEmpty(ExploreDirectoryContents.text(row, 11)),
                        phone: Self.nonEmpty(ExploreDirectoryContents.text(row, 12))
                    )
                    atms.append(
                        ExploreATM(
                            id: id, name: ExploreDirectoryContents.text(row, 1) ?? "",
                            manufacturer: Self.nonEmpty(ExploreDirectoryContents.text(row, 2)),
                            type: type, location: location
                        ))
                }
            }
        }
        if query.center != nil {
            atms.sort { ($0.location.distanceMeters ?? .infinity, $0.id) < ($1.location.distanceMeters ?? .infinity, $1.id) }
        } else {
            atms.sort { (ExploreNameOrder.key($0.name), $0.id) < (ExploreNameOrder.key($1.name), $1.id) }
        }
        return Page(items: Array(Self.pageSlice(atms, page: query.page)), offset: query.page.offset, totalCount: atms.count)
    }
}
