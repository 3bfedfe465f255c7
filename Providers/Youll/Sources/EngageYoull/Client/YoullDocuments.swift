/// The selection sets the operations share (Hasura-style fragments, spelled out so that every
/// document stands alone).
enum YoullDocuments {
    static let translation = "translations { lang title body }"
    static let content = """
        id title body kind category_id duration_seconds image_url media_url is_locked is_liked like_count tags published_at \
        \(translation)
        """
    static let category = "id title image_url \(translation) subcategories { id category_id title \(translation) }"
    static let section = "id kind title \(translation) dismissible items { \(content) } categories { \(category) }"
    static let journey = "id title description is_linear is_active \(translation) steps { id position completed content { \(content) } }"
    static let workout = "id title day completed content_id feedback_rating"
    static let event = "id title description starts_at ends_at location capacity attendee_count my_response \(translation)"
    static let playlist = "id name created_at items { \(content) }"
    static let paywall =
        "id placement title subtitle features products { product_id period trial_days highlighted badge } dismissible is_super image_url"
    static let meal = "id title day kind calories checked image_url \(translation)"
    static let quiz = "id title completed questions { id text saved_option_id options { id text } }"
    static let facilitator = "id name bio image_url"
}
