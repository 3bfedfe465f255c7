/// Word lists for merchant names: English, with accents, and Greek, so search and ordering meet real text.
enum ExploreGeneratorNames {
    static let first = [
        "Blue", "Golden", "Urban", "Corner", "Happy", "Green", "Royal", "Little", "Grand", "Sunny", "Silver", "Red",
        "Café", "Crème", "Bäckerei", "Άγιος", "Μεγάλη", "Χρυσή", "Old Town", "Harbor", "Metro", "Prime", "Fresh", "Smart",
    ]
    static let second = [
        "Bean", "Coffee", "Market", "Grill", "Books", "Garden", "Bakery", "Pharmacy", "Hardware", "Pizza", "Sushi", "Tacos", "Noodles",
        "Electronics", "Fitness", "Florist", "Barber", "Καφενείο", "Φούρνος", "Αγορά", "Boutique", "Outlet", "Deli", "Pets", "Games",
    ]
    static let chains = [
        "Home Depot", "GameStop", "Target", "Best Buy", "Chipotle", "Starbucks", "Walgreens", "Burger King", "Sephora", "Lowe's",
        "Petco", "Domino's", "Subway", "Ulta Beauty", "Barnes & Noble", "Nike", "Adidas", "IKEA", "Uber Eats", "Airbnb",
        "Hotels.com", "Amazon", "Xbox", "PlayStation", "Nintendo eShop", "Spotify", "Netflix", "Apple", "Google Play", "Steam",
    ]
    static let manufacturers = ["General Bytes", "Bitaccess", "Lamassu", "Coinsource", "Kurant", "ChainBytes"]
}
