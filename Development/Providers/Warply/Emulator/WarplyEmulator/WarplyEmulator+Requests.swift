@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension WarplyEmulator {
    /// The largest request body the emulator reads (1 MiB); a larger one is answered 413.
    public static let maxBodySize = 1 << 20

    /// Runs a route body, answering a thrown ``WarplyEmulatorRejection`` with its response.
    func respond(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let rejection as WarplyEmulatorRejection {
            return rejection.response
        }
    }

    /// The request body, at most ``maxBodySize`` bytes (else a 413 rejection).
    func readBody(_ request: Request, context: SandboxRequestContext) async throws -> Data {
        var request = request
        let buffer = try await request.collectBody(upTo: max(context.maxUploadSize, Self.maxBodySize))
        guard buffer.readableBytes <= Self.maxBodySize else { throw WarplyEmulatorRejection.tooLarge(limit: Self.maxBodySize) }
        return Data(buffer.readableBytesView)
    }

    /// `data` decoded as `type`, or a 400 rejection naming the `expected` shape.
    func decode<T: Decodable>(_ type: T.Type, from data: Data, expected: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw WarplyEmulatorRejection.malformed("Malformed JSON body: expected \(expected).")
        }
    }

    /// The value of the header `name`, if sent.
    static func header(_ name: String, of request: Request) -> String? {
        HTTPField.Name(name).flatMap { request.headers[$0] }
    }

    /// The catalogue (built when the routes were added).
    func catalogue() throws -> WarplyCatalogue {
        guard let catalogue = state.withLock({ $0.catalogue }) else {
            throw WarplyEmulatorRejection(
                status: .internalServerError, body: ["status": "-1", "msg": "The emulator has no catalogue yet."])
        }
        return catalogue
    }

    // MARK: Signed headers

    /// Checks the signed headers of `request`.
    ///
    /// A request is signed either as the official SDK signs (`loyalty-web-id` one of
    /// ``Configuration/merchantIDs``, an empty API key) or with a registration this emulator issued.
    /// Status 9 (HTTP 200) when ``Configuration/answersStatus9Always`` is on or `loyalty-web-id` is
    /// neither; 403 when `loyalty-signature` is not `ServedSignature.expected(apiKey:date:)`
    /// over the `loyalty-date` header exactly as sent, or that date is not Unix seconds within the
    /// tolerance of the host's clock (both counted in ``signatureFailureCount``).
    func verifySigned(_ request: Request, environment: EmulatorEnvironment) throws {
        let webID = Self.header("loyalty-web-id", of: request)
        let dateText = Self.header("loyalty-date", of: request)
        let signature = Self.header("loyalty-signature", of: request)
        let tolerance = Double(configuration.signatureDateTolerance.components.seconds)
        let now = environment.now().timeIntervalSince1970
        let failure: WarplyEmulatorRejection? = state.withLock { state in
            if state.answersStatus9Always {
                return .registrationInvalid("The registration is not valid: register the device again.")
            }
            guard let webID, let apiKey = state.registrations[webID] ?? (self.configuration.merchantIDs.contains(webID) ? "" : nil) else {
                return .registrationInvalid("Unknown loyalty-web-id: register the device again.")
            }
            guard let dateText, let signature, signature == ServedSignature.expected(apiKey: apiKey, date: dateText) else {
                state.signatureFailureCount += 1
                return .forbidden("invalid signature")
            }
            guard let seconds = Int64(dateText), abs(Double(seconds) - now) <= tolerance else {
                state.signatureFailureCount += 1
                return .forbidden("invalid signature: loyalty-date must be Unix seconds within \(Int(tolerance)) s of the server's clock")
            }
            return nil
        }
        if let failure {
            environment.logger.debug("Rejected a signed Warply request", metadata: ["status": "\(failure.status.code)"])
            throw failure
        }
    }

    // MARK: Bearer tokens

    /// The live session of the request's `Authorization: Bearer <access token>`, or a 401 rejection
    /// (missing, malformed, wrongly signed, expired, not an access token, or its session ended).
    func authenticate(_ request: Request, environment: EmulatorEnvironment) throws -> WarplyEmulatorSession {
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") else {
            throw WarplyEmulatorRejection.unauthorized("A bearer token is required.")
        }
        let token = authorization.dropFirst("Bearer ".count).trimmingCharacters(in: .whitespaces)
        let claims: VerifiedClaims
        do {
            claims = try environment.jwt.verify(token)
        } catch {
            throw WarplyEmulatorRejection.unauthorized(error == .expired ? "The access token expired." : "The access token is invalid.")
        }
        guard claims.extraClaims[WarplyEmulatorState.tokenTypeClaim] == WarplyEmulatorState.accessTokenType,
            let sessionID = claims.extraClaims[WarplyEmulatorState.sessionClaim]
        else {
            throw WarplyEmulatorRejection.unauthorized("The token is not an access token.")
        }
        let session = state.withLock { state -> WarplyEmulatorSession? in
            guard let session = state.sessions[sessionID], session.email == claims.subject, state.users[session.email] != nil else {
                return nil
            }
            return session
        }
        guard let session else { throw WarplyEmulatorRejection.unauthorized("The session has ended: log in again.") }
        return session
    }

    // MARK: Answers

    /// A context answer carrying `result` in `section` (section status 1).
    static func contextAnswer<Payload: Encodable & Sendable>(_ section: String, _ result: Payload) throws -> Response {
        SandboxResponse.raw(try ServedAnswer.context(section: section, result: result))
    }

    /// A refused context action: body status 1, `<section>-status` `sectionStatus`, and the section's `msg`.
    static func sectionFailure(_ section: String, _ message: String, sectionStatus: Int = 2) throws -> Response {
        SandboxResponse.raw(
            try ServedAnswer.context(section: section, result: JSONValue.null, sectionStatus: sectionStatus, message: message))
    }

    /// A status-form answer: `{"status":1}` or `{"status":0,"msg":…}`.
    static func statusAnswer(_ status: Int, message: String? = nil) throws -> Response {
        SandboxResponse.raw(try ServedAnswer.status(status, message: message))
    }
}
