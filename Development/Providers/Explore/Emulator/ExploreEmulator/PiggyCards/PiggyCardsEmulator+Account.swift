#if PiggyCards
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import Hummingbird
    @_spi(EngageProvider) import EngageCore

    /// `POST signup` as the Dash wallet sends it (`PiggyCardsSignupRequest`): snake-case names, `state`
    /// optional. The emulator's own type, like the two below.
    private struct PiggyCardsSignupBody: Decodable {
        var firstName: String
        var lastName: String
        var email: String
        var country: String
        var state: String?
        enum CodingKeys: String, CodingKey {
            case firstName = "first_name", lastName = "last_name", email, country, state
        }
    }

    /// `POST verify-otp`.
    private struct PiggyCardsVerifyBody: Decodable {
        var email: String
        var otp: String
    }

    /// `POST login`.
    private struct PiggyCardsLoginBody: Decodable {
        var userId: String
        var password: String
    }

    extension PiggyCardsEmulator {
        func addAccountRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
            group.post("signup") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    let body = try await GiftCardEmulatorRoutes.decode(
                        PiggyCardsSignupBody.self, from: request, context: context,
                        invalid: .piggyAccount(.badRequest, "Expected {first_name, last_name, email, country, state?}")
                    )
                    let email = body.email.lowercased()
                    guard email.contains("@"), !body.country.isEmpty else {
                        throw GiftCardEmulatorRejection.piggyAccount(.badRequest, "Invalid email or country")
                    }
                    let userID = try self.state.withLock { state -> String in
                        guard state.users[email] == nil else {
                            throw GiftCardEmulatorRejection.piggyAccount(.badRequest, "User already exists")
                        }
                        let user = PiggyCardsEmulatorUser(
                            userID: state.generator.nextUUID(), email: email, otp: state.generator.nextDigits(6))
                        state.users[email] = user
                        return user.userID
                    }
                    return GiftCardEmulatorRoutes.jsonResponse(["userId": userID])
                }
            }
            group.post("verify-otp") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    let body = try await GiftCardEmulatorRoutes.decode(
                        PiggyCardsVerifyBody.self, from: request, context: context,
                        invalid: .piggyAccount(.badRequest, "Expected {email, otp}")
                    )
                    let password = try self.state.withLock { state -> String in
                        guard var user = state.users[body.email.lowercased()], user.otp == body.otp else {
                            throw GiftCardEmulatorRejection.piggyAccount(.badRequest, "Invalid verification code")
                        }
                        let password = state.generator.nextHex(byteCount: 12)
                        user.password = password
                        state.users[user.email] = user
                        return password
                    }
                    return GiftCardEmulatorRoutes.jsonResponse(["generatedPassword": password])
                }
            }
            group.post("login") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    let body = try await GiftCardEmulatorRoutes.decode(
                        PiggyCardsLoginBody.self, from: request, context: context,
                        invalid: .piggyAccount(.badRequest, "Expected {userId, password}")
                    )
                    let known = self.state.withLock { state -> Bool in
                        let match = state.users.values.contains {
                            $0.userID == body.userId && $0.password == body.password && $0.password != nil
                        }
                        if match { state.loginCount += 1 }
                        return match
                    }
                    guard known else { throw GiftCardEmulatorRejection.piggyAccount(.unauthorized, "Invalid credentials") }
                    // Under the sandbox UI's token limit, the answer announces the shortened lifetime.
                    let lifetime = Int(environment.jwt.effectiveLifetime(.seconds(Self.tokenLifetimeSeconds)).components.seconds)
                    let token = environment.jwt.issue(
                        subject: body.userId, lifetime: .seconds(lifetime),
                        extraClaims: [GiftCardEmulatorRoutes.tokenKindClaim: Self.accessKind]
                    )
                    return GiftCardEmulatorRoutes.jsonResponse(
                        ["access_token": token, "token_type": "Bearer", "expires_in": lifetime], headers: [.cacheControl: "no-store"])
                }
            }
        }
    }
#endif
