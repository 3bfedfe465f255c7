#if PiggyCards
    @_spi(EngageProvider) import EngageExplore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import Hummingbird
    @_spi(EngageProvider) import EngageCore

    extension PiggyCardsEmulator {
        func addAccountRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
            group.post("signup") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    let body = try await GiftCardEmulatorRoutes.decode(
                        PiggyCardsWire.SignupRequest.self, from: request, context: context,
                        invalid: .piggy(.badRequest, "Invalid signup body")
                    )
                    let email = body.email.lowercased()
                    let userID = try self.state.withLock { state -> String in
                        guard state.users[email] == nil else { throw GiftCardEmulatorRejection.piggy(.badRequest, "User already exists") }
                        let user = PiggyCardsEmulatorUser(
                            userID: state.generator.nextUUID(), email: email, otp: state.generator.nextDigits(6))
                        state.users[email] = user
                        return user.userID
                    }
                    return try SandboxResponse.json(PiggyCardsWire.SignupAnswer(userId: userID))
                }
            }
            group.post("verify-otp") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    let body = try await GiftCardEmulatorRoutes.decode(
                        PiggyCardsWire.VerifyOTPRequest.self, from: request, context: context, invalid: .piggy(.badRequest, "Invalid body")
                    )
                    let password = try self.state.withLock { state -> String in
                        guard var user = state.users[body.email.lowercased()], user.otp == body.otp else {
                            throw GiftCardEmulatorRejection.piggy(.badRequest, "Invalid OTP")
                        }
                        let password = state.generator.nextHex(byteCount: 12)
                        user.password = password
                        state.users[user.email] = user
                        return password
                    }
                    return try SandboxResponse.json(PiggyCardsWire.VerifyOTPAnswer(generatedPassword: password))
                }
            }
            group.post("login") { request, context in
                try await GiftCardEmulatorRoutes.respond {
                    let body = try await GiftCardEmulatorRoutes.decode(
                        PiggyCardsWire.LoginRequest.self, from: request, context: context, invalid: .piggy(.badRequest, "Invalid body")
                    )
                    let known = self.state.withLock { state -> Bool in
                        let match = state.users.values.contains {
                            $0.userID == body.userId && $0.password == body.password && $0.password != nil
                        }
                        if match { state.loginCount += 1 }
                        return match
                    }
                    guard known else { throw GiftCardEmulatorRejection.piggy(.unauthorized, "Invalid credentials") }
                    // Under the sandbox UI's token limit, the answer announces the shortened lifetime.
                    let lifetime = Int(environment.jwt.effectiveLifetime(.seconds(PiggyCardsWire.tokenLifetimeSeconds)).components.seconds)
                    let token = environment.jwt.issue(
                        subject: body.userId, lifetime: .seconds(lifetime),
                        extraClaims: [GiftCardEmulatorRoutes.tokenKindClaim: Self.accessKind]
                    )
                    return try SandboxResponse.json(
                        PiggyCardsWire.LoginAnswer(accessToken: token, expiresIn: lifetime), headers: [.cacheControl: "no-store"])
                }
            }
        }
    }
#endif
