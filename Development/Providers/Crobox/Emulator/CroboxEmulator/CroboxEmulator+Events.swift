@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@_spi(EngageProvider) import EngageCore

extension CroboxEmulator {
    /// A 1x1 transparent GIF (43 bytes), the answer of the event pixel.
    public static let transparentGIF: [UInt8] = [
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61,  // "GIF89a"
        0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00,  // 1x1, global colour table of 2 entries
        0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF,  // black, white
        0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00,  // graphic control: colour 0 is transparent
        0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,  // image descriptor
        0x02, 0x02, 0x44, 0x01, 0x00,  // LZW data
        0x3B,  // trailer
    ]

    func addEventRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.get("socket.gif") { request, _ in
            self.receiveEvent(rawQuery: request.uri.query ?? "", environment: environment)
        }
    }

    /// Verifies and records one event; answers the GIF or the rejection.
    func receiveEvent(rawQuery: String, environment: EmulatorEnvironment) -> Response {
        do {
            try Self.verifyChecksum(rawQuery: rawQuery)
            let event = try CroboxReceivedEvent(rawQuery: rawQuery, receivedAt: environment.now())
            state.withLock { $0.events.append(event) }
        } catch {
            environment.logger.debug("Rejected event: \(error.description)")
            return error.response
        }
        return Response(
            status: .ok,
            headers: [.contentType: "image/gif", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: Self.transparentGIF))
        )
    }
}
