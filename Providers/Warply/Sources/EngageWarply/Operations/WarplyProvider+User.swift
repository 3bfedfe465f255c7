@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

extension WarplyProvider {
    /// The user's profile. Needs a logged-in user.
    public func profile() async throws(EngageError) -> WarplyProfile {
        try await context.perform(WarplyOperation.profile) {
            guard
                let profile = try await client.context(
                    WarplyProfile.self,
                    WarplyContextRequest(
                        root: WarplyWire.Root.consumerData, action: WarplyWire.Action.userDetails, fields: ["process": .string("get")]),
                    section: WarplyWire.Section.user, credentials: .bearer
                )
            else {
                throw EngageError(.decoding, "Warply's profile answer is empty.", providerID: .warply)
            }
            return profile
        }
    }

    /// Changes the user's password. Needs a logged-in user.
    ///
    /// - Throws: `.invalidInput` when either password is empty or they are equal.
    public func changePassword(oldPassword: String, newPassword: String) async throws(EngageError) {
        try await context.perform(WarplyOperation.changePassword) {
            try WarplyInput.password(oldPassword, name: "oldPassword")
            try WarplyInput.password(newPassword, name: "newPassword")
            guard oldPassword != newPassword else {
                throw EngageError(.invalidInput, "The new password must differ from the old one.", providerID: .warply)
            }
            try await client.status(
                .post, WarplyWire.path(.changePassword, appUUID: configuration.appUUID),
                body: .json(WarplyAuthRequest.ChangePassword(oldPassword: oldPassword, newPassword: newPassword)),
                credentials: .bearer
            )
        }
    }

    /// Asks Warply to email a password reset link to `email`.
    public func resetPassword(email: String) async throws(EngageError) {
        try await context.perform(WarplyOperation.resetPassword) {
            try WarplyInput.email(email)
            try await client.status(
                .post, WarplyWire.path(.resetPassword, appUUID: configuration.appUUID),
                body: .json(WarplyAuthRequest.ResetPassword(email: email)), credentials: .signed
            )
        }
    }

    /// Asks Warply to send a one-time password by SMS to `phoneNumber` (spaces and dashes are ignored).
    public func requestOTP(phoneNumber: String) async throws(EngageError) {
        try await context.perform(WarplyOperation.requestOTP) {
            let normalized = try WarplyInput.phoneNumber(phoneNumber)
            try await client.status(
                .post, WarplyWire.path(.requestOTP, appUUID: configuration.appUUID),
                body: .json(WarplyAuthRequest.RequestOTP(phoneNumber: normalized)), credentials: .signed
            )
        }
    }
}
