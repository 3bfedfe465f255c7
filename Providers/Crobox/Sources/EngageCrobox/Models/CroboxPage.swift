@_spi(EngageProvider) import EngageCore
import Foundation

/// The kind of page a request comes from (`pt` on the wire).
public enum CroboxPageType: Int, Codable, Sendable, CaseIterable {
    case other = 0
    case index = 1
    case overview = 2
    case detail = 3
    case cart = 4
    case checkout = 5
    case complete = 6
    case search = 7
}

/// One page view: the parameters shared by every request made from it (`RequestQueryParams` in the
/// official SDK). Create a new one each time the page or view is shown.
///
/// Its event counter (`e`) starts at 0 and grows by one per request made with the page, exactly once
/// per request even under concurrent use.
public final class CroboxPage: Sendable {
    /// The view id (`vid`), new for every page view.
    public let viewID: UUID
    public let pageType: CroboxPageType
    /// The page name (`lh`).
    public let pageName: String?
    /// Custom properties (`cp.<key>`), overriding the configuration's.
    public let customProperties: [String: String]
    private let counter = Locked(0)

    public init(pageType: CroboxPageType, pageName: String? = nil, customProperties: [String: String] = [:], viewID: UUID = UUID()) {
        self.viewID = viewID
        self.pageType = pageType
        self.pageName = pageName
        self.customProperties = customProperties
    }

    /// Takes the next counter value.
    func nextEventIndex() -> Int {
        counter.withLock { value in
            defer { value += 1 }
            return value
        }
    }

    /// How many requests were made with this page so far.
    public var requestCount: Int { counter.value }
}
