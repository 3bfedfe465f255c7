@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

/// Reports the provider's own failures to Sovendus' error telemetry (`POST /error`), as Sovendus'
/// Flutter component does: at most ``limit`` reports per provider instance, sent in the background one after another,
/// never retried, and never carrying personal data. A report holds only constant text: the operation's
/// name, the error's code and HTTP status, its kind (the official SDK's `notFound` for a 404,
/// `unknown` for the network and server errors, `exception` for the rest), the SDK's platform and
/// version, and the traffic numbers. Nothing is sent while the user has switched analytics off
/// (`ProviderContext.consent`).
final class SovendusTelemetry: Sendable {
    /// The most reports one provider instance sends.
    static let limit = 3

    private let client: APIClient?
    private let trafficSource: Int
    private let trafficMedium: Int
    private let sdkVersion: String
    private let implementationType: String
    private let sandbox: Bool
    private let logger: Logger
    private let consent: AnalyticsConsent
    private let state = Locked(State())

    private struct State {
        var sent = 0
        var tasks: [Task<Void, Never>] = []
    }

    init(
        client: APIClient?, trafficSource: Int, trafficMedium: Int, sdkVersion: String, implementationType: String, sandbox: Bool,
        consent: AnalyticsConsent, logger: Logger
    ) {
        self.consent = consent
        self.client = client
        self.trafficSource = trafficSource
        self.trafficMedium = trafficMedium
        self.sdkVersion = sdkVersion
        self.implementationType = implementationType
        self.sandbox = sandbox
        self.logger = logger
    }

    /// The platform the official SDKs name in `sdkPlatform`.
    static var platform: String { DevicePlatform.name }

    /// The official SDK's kind of `error`.
    static func kind(of error: EngageError) -> SovendusWire.ErrorReport.Kind {
        if error.httpStatus == 404 { return .notFound }
        if error.code == .network || error.code == .timeout || (error.httpStatus ?? 0) >= 500 { return .unknown }
        return .exception
    }

    /// Reports that `operation` failed with `error`, unless the limit is reached or reporting is off.
    func report(operation: SovendusOperation, error: EngageError) {
        guard let client, consent.isEnabled(for: .sovendus) else { return }
        var status = ""
        if let httpStatus = error.httpStatus { status = " (HTTP \(httpStatus))" }
        let logger = self.logger
        // A report waits for the one before it, so Sovendus receives them in their counter's order,
        // whatever the network does to the first one.
        state.withLock { state in
            guard state.sent < Self.limit else { return }
            state.sent += 1
            let report = SovendusWire.ErrorReport(
                sdkPlatform: Self.platform, sdkVersion: sdkVersion, trafficSourceNumber: trafficSource,
                trafficMediumNumber: trafficMedium, type: Self.kind(of: error),
                message: "\(operation.name) failed: \(error.code.rawValue)\(status)", actions: operation.name.rawValue,
                additionalData: "operation=\(operation.name);code=\(error.code.rawValue);"
                    + "httpStatus=\(error.httpStatus.map(String.init) ?? "");sandbox=\(sandbox)",
                source: "engagekit", counter: state.sent, implementationType: implementationType
            )
            let previous = state.tasks.last
            state.tasks.append(
                Task {
                    await previous?.value
                    do {
                        _ = try await client.data(
                            .post, "/error", body: .json(report),
                            options: RequestOptions(allowsRetry: false, operation: SovendusOperation.errorTelemetry)
                        )
                    } catch {
                        logger.debug(
                            "Sovendus error telemetry was not delivered",
                            metadata: ["code": "\(EngageError.wrapping(error).code.rawValue)"])
                    }
                })
        }
    }

    /// How many reports were sent (or are being sent).
    var sentCount: Int { state.withLock { $0.sent } }

    /// Waits until every report started so far has been delivered or has failed.
    func drain() async {
        for task in state.withLock({ $0.tasks }) {
            await task.value
        }
    }
}
