/// Cities the generator places merchants in: real centres, weights roughly by size, and a few picked
/// for their geometry (next to the antimeridian, far north and south).
struct ExploreGeneratorCity: Sendable {
    var name: String
    var territory: String
    var latitude: Double
    var longitude: Double
    var weight: Double
}

extension ExploreGeneratorCity {
    /// The densest city: the benchmark's centre.
    static let newYork = ExploreGeneratorCity(name: "New York", territory: "NY", latitude: 40.7128, longitude: -74.0060, weight: 30)

    static let all: [ExploreGeneratorCity] = [
        newYork,
        .init(name: "Los Angeles", territory: "CA", latitude: 34.0522, longitude: -118.2437, weight: 22),
        .init(name: "Chicago", territory: "IL", latitude: 41.8781, longitude: -87.6298, weight: 16),
        .init(name: "Houston", territory: "TX", latitude: 29.7604, longitude: -95.3698, weight: 12),
        .init(name: "Phoenix", territory: "AZ", latitude: 33.4484, longitude: -112.0740, weight: 9),
        .init(name: "Miami", territory: "FL", latitude: 25.7617, longitude: -80.1918, weight: 10),
        .init(name: "Denver", territory: "CO", latitude: 39.7392, longitude: -104.9903, weight: 7),
        .init(name: "Seattle", territory: "WA", latitude: 47.6062, longitude: -122.3321, weight: 8),
        .init(name: "Toronto", territory: "ON", latitude: 43.6532, longitude: -79.3832, weight: 10),
        .init(name: "Ciudad de México", territory: "CDMX", latitude: 19.4326, longitude: -99.1332, weight: 14),
        .init(name: "Bogotá", territory: "DC", latitude: 4.7110, longitude: -74.0721, weight: 9),
        .init(name: "Caracas", territory: "Distrito Capital", latitude: 10.4806, longitude: -66.9036, weight: 10),
        .init(name: "São Paulo", territory: "SP", latitude: -23.5505, longitude: -46.6333, weight: 14),
        .init(name: "Buenos Aires", territory: "CABA", latitude: -34.6037, longitude: -58.3816, weight: 10),
        .init(name: "Ushuaia", territory: "Tierra del Fuego", latitude: -54.8019, longitude: -68.3030, weight: 1),
        .init(name: "London", territory: "England", latitude: 51.5074, longitude: -0.1278, weight: 16),
        .init(name: "Paris", territory: "Île-de-France", latitude: 48.8566, longitude: 2.3522, weight: 12),
        .init(name: "Berlin", territory: "Berlin", latitude: 52.5200, longitude: 13.4050, weight: 9),
        .init(name: "Madrid", territory: "Comunidad de Madrid", latitude: 40.4168, longitude: -3.7038, weight: 9),
        .init(name: "Αθήνα", territory: "Αττική", latitude: 37.9838, longitude: 23.7275, weight: 8),
        .init(name: "İstanbul", territory: "İstanbul", latitude: 41.0082, longitude: 28.9784, weight: 10),
        .init(name: "Kyiv", territory: "Kyiv", latitude: 50.4501, longitude: 30.5234, weight: 6),
        .init(name: "Lagos", territory: "Lagos", latitude: 6.5244, longitude: 3.3792, weight: 8),
        .init(name: "Johannesburg", territory: "Gauteng", latitude: -26.2041, longitude: 28.0473, weight: 6),
        .init(name: "Dubai", territory: "Dubai", latitude: 25.2048, longitude: 55.2708, weight: 7),
        .init(name: "Mumbai", territory: "Maharashtra", latitude: 19.0760, longitude: 72.8777, weight: 12),
        .init(name: "Singapore", territory: "Singapore", latitude: 1.3521, longitude: 103.8198, weight: 8),
        .init(name: "Tokyo", territory: "Tokyo", latitude: 35.6762, longitude: 139.6503, weight: 14),
        .init(name: "Seoul", territory: "Seoul", latitude: 37.5665, longitude: 126.9780, weight: 10),
        .init(name: "Sydney", territory: "NSW", latitude: -33.8688, longitude: 151.2093, weight: 8),
        .init(name: "Auckland", territory: "Auckland", latitude: -36.8485, longitude: 174.7633, weight: 4),
        // Either side of the antimeridian.
        .init(name: "Suva", territory: "Central", latitude: -18.1248, longitude: 178.4501, weight: 2),
        .init(name: "Taveuni", territory: "Northern", latitude: -16.8500, longitude: 179.9700, weight: 1),
        .init(name: "Nukuʻalofa", territory: "Tongatapu", latitude: -21.1394, longitude: -175.2049, weight: 1),
        .init(name: "Anadyr", territory: "Chukotka", latitude: 64.7337, longitude: 177.4968, weight: 1),
        // Far north and south.
        .init(name: "Longyearbyen", territory: "Svalbard", latitude: 78.2232, longitude: 15.6267, weight: 1),
        .init(name: "McMurdo Station", territory: "Ross Dependency", latitude: -77.8419, longitude: 166.6863, weight: 0.5),
    ]
}
