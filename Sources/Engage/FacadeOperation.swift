@_spi(EngageProvider) import EngageCore

/// The facade's fan-outs, declared once: the name each one gives its errors.
enum FacadeOperation: String, ProviderOperation {
    case offers
    case track
    case merchants
    case content
    case setPushToken = "set_push_token"
    case logIn = "log_in"
    case logOut = "log_out"
}
