@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The page's files, read once from this module's resources.
struct SandboxUIAssets: Sendable {
    struct Asset: Sendable {
        var bytes: Data
        var contentType: String
    }

    /// Files by name (`index.html`, `app.js`, `style.css`).
    var files: [String: Asset]

    /// The files bundled with the module; a missing file is answered 404 (and its absence is a test failure).
    static let bundled: SandboxUIAssets = {
        let types = [
            "index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8",
        ]
        var files: [String: Asset] = [:]
        for (name, contentType) in types {
            let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Assets")
            if let url, let bytes = try? Data(contentsOf: url) {
                files[name] = Asset(bytes: bytes, contentType: contentType)
            }
        }
        return SandboxUIAssets(files: files)
    }()
}

/// `GET /_sandbox/` (the page) and `GET /_sandbox/assets/<name>`.
struct SandboxUIPages: Sendable {
    let assets: SandboxUIAssets

    func addRoutes(to group: RouterGroup<SandboxRequestContext>) {
        let assets = assets
        group.get("") { _, _ in Self.serve(assets.files["index.html"], name: "index.html") }
        group.get("assets/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            return Self.serve(assets.files[name], name: name)
        }
    }

    static func serve(_ asset: SandboxUIAssets.Asset?, name: String) -> Response {
        guard let asset else {
            return SandboxResponse.error(.notFound, code: "not_found", description: "The sandbox UI has no file named \(name).")
        }
        var headers = HTTPFields()
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }
}
