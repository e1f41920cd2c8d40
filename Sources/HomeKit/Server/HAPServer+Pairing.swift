internal import Logging

/// `/pair-setup`, `/pair-verify` and `/pairings`.
extension HAPServer {
    /// Pair Setup: one at a time (`busy` for the others, for at most `pairSetupLimit`), refused once paired, after 100 failed attempts
    /// (`maxTries`) and during the back-off after a failed attempt; a wrong setup code counts in the store.
    func pairSetup(_ request: HTTPRequest, connection id: Int) -> Reply {
        guard let decoded = decode(request, connection: id, route: "Pair Setup") else {
            return Self.malformed
        }
        var (message, connection) = decoded
        if message.byte(.state) == 1 {
            if let owner = pairSetupOwner, owner != id, connections[owner] != nil {
                return Self.tlv(TLV8([(.state, [2]), (.error, [PairingError.busy.rawValue])]))
            }
            if !store.isPaired, store.failedAttempts < PairSetupAttempts.maximum, let until = backoffUntil {
                let remaining = until - ContinuousClock.now
                if remaining > .zero {
                    let seconds = max(1, Int(remaining.components.seconds) + 1)
                    return Self.tlv(
                        TLV8([
                            (.state, [2]), (.error, [PairingError.backoff.rawValue]),
                            (.retryDelay, [UInt8(seconds & 0xFF), UInt8(seconds >> 8 & 0xFF)]),
                        ]))
                }
            }
        }
        let outcome = connection.setup.handle(message, isPaired: store.isPaired, failedAttempts: store.failedAttempts)
        connections[id] = connection
        if outcome.response[.error] != nil || outcome.paired != nil {
            if pairSetupOwner == id { pairSetupOwner = nil }
        } else if message.byte(.state) == 1 {
            holdPairSetup(id)
        }
        if outcome.failedAttempt {
            do {
                let failures = try store.noteFailedAttempt()
                backoffUntil = ContinuousClock.now + configuration.backoff(failures)
                logger.warning("HomeKit: Pair Setup with a wrong setup code (\(failures) failed attempts)")
            } catch {
                logger.error("HomeKit: \(error)")
            }
        }
        if let paired = outcome.paired {
            do {
                try store.add(paired)
            } catch {
                logger.error("HomeKit: the new pairing cannot be kept: \(error)")
                return Self.tlv(TLV8([(.state, [6]), (.error, [PairingError.unknown.rawValue])]))
            }
            logger.notice("HomeKit: paired with controller \(paired.identifier)")
            advertiseNow()
        }
        return Self.tlv(outcome.response)
    }

    /// The back-off deadline of the store's last failed attempt, when it is still ahead (after a restart): the
    /// remaining wall-clock time from now, at most the whole back-off (a clock set back does not lengthen it).
    static func restoredBackoff(
        store: HomeKitStore, backoff: (Int) -> Duration
    ) -> ContinuousClock.Instant? {
        let failures = store.failedAttempts
        guard failures > 0, let last = store.lastFailedAttempt else { return nil }
        let whole = backoff(failures)
        let elapsed = Duration.milliseconds(max(0, HomeKitStore.wallClockMilliseconds() - last))
        guard elapsed < whole else { return nil }
        return ContinuousClock.now + (whole - elapsed)
    }

    /// Makes connection `id` the one whose Pair Setup is in progress, until `pairSetupLimit` from now unless it
    /// already holds it (another M1 does not extend the hold).
    private func holdPairSetup(_ id: Int) {
        guard pairSetupOwner != id else { return }
        pairSetupOwner = id
        pairSetupRelease?.cancel()
        let limit = configuration.pairSetupLimit
        pairSetupRelease = Task { [weak self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            await self?.releasePairSetup(id)
        }
    }

    /// `pairSetupLimit` after connection `id` took Pair Setup: if it still holds it, the hold ends and the
    /// connection is closed.
    private func releasePairSetup(_ id: Int) {
        guard pairSetupOwner == id else { return }
        pairSetupOwner = nil
        logger.warning(
            "HomeKit: connection \(id) did not finish Pair Setup within \(configuration.pairSetupLimit): released and closed"
        )
        connections[id]?.output.yield(.close)
    }

    /// Pair Verify: on M4 the connection's session is encrypted, with the controller it verified.
    func pairVerify(_ request: HTTPRequest, connection id: Int) -> Reply {
        guard let decoded = decode(request, connection: id, route: "Pair Verify") else {
            return Self.malformed
        }
        var (message, connection) = decoded
        let pairings = store.pairings
        let outcome = connection.verify.handle(message) { identifier in
            pairings.first { $0.identifier == identifier }
        }
        var reply = Self.tlv(outcome.response)
        if let keys = outcome.session {
            connection.controller = keys.controller
            reply.encrypt = keys
            logger.info("HomeKit: controller \(keys.controller.identifier) connected")
        } else if message.byte(.state) == 3 {
            logger.warning("HomeKit: Pair Verify refused (unknown controller or bad signature)")
        }
        connections[id] = connection
        return reply
    }

    /// The answer to a pairing request whose body is not TLV8.
    static var malformed: Reply { tlv(TLV8([(.error, [PairingError.unknown.rawValue])]), status: 400) }

    /// The request's TLV8 and the connection's state; nil (logged) for a body that is not TLV8.
    private func decode(_ request: HTTPRequest, connection id: Int, route: String) -> (TLV8, Connection)? {
        guard let connection = connections[id] else { return nil }
        do {
            return (try TLV8(decoding: request.body), connection)
        } catch {
            logger.warning("HomeKit: \(route): \(error)")
            return nil
        }
    }

    /// Add, remove and list pairings: admins only. Removing the last admin removes every pairing; the sessions
    /// of removed controllers are closed (this connection's after its response).
    func pairings(_ request: HTTPRequest, connection id: Int, controller: Pairing) -> Reply {
        let message: TLV8
        do {
            message = try TLV8(decoding: request.body)
        } catch {
            logger.warning("HomeKit: /pairings: \(error)")
            return Self.tlv(TLV8([(.state, [2]), (.error, [PairingError.unknown.rawValue])]), status: 400)
        }
        func refuse(_ error: PairingError) -> Reply { Self.tlv(TLV8([(.state, [2]), (.error, [error.rawValue])])) }
        guard message.byte(.state) == 1 else { return refuse(.unknown) }
        guard store.pairings.first(where: { $0.identifier == controller.identifier })?.isAdmin == true else {
            logger.warning("HomeKit: controller \(controller.identifier) is not an admin: /pairings refused")
            return refuse(.authentication)
        }
        do {
            switch message.byte(.method) {
            case 3:
                guard let identifier = message[.identifier], let key = message[.publicKey], key.count == 32,
                    let permissions = message.byte(.permissions)
                else { return refuse(.unknown) }
                let name = String(decoding: identifier, as: UTF8.self)
                let existing = store.pairings.first { $0.identifier == name }
                if let existing, existing.publicKey != key { return refuse(.unknown) }
                if existing == nil, store.pairings.count >= HomeKitStore.maximumPairings { return refuse(.maxPeers) }
                try store.add(Pairing(identifier: name, publicKey: key, isAdmin: permissions & 1 == 1))
                logger.notice("HomeKit: controller \(controller.identifier) added pairing \(name)")
                return Self.tlv(TLV8([(.state, [2])]))
            case 4:
                guard let identifier = message[.identifier] else { return refuse(.unknown) }
                let removed = try Set(store.remove(identifier: String(decoding: identifier, as: UTF8.self)))
                logger.notice("HomeKit: controller \(controller.identifier) removed pairings \(removed.sorted())")
                for (other, connection) in connections where other != id {
                    if let paired = connection.controller, removed.contains(paired.identifier) {
                        connection.output.yield(.close)
                    }
                }
                if !store.isPaired { advertiseNow() }
                var reply = Self.tlv(TLV8([(.state, [2])]))
                reply.close = removed.contains(controller.identifier)
                return reply
            case 5:
                var list = TLV8([(.state, [2])])
                for (index, pairing) in store.pairings.enumerated() {
                    if index > 0 { list.append(.separator, []) }
                    list.append(.identifier, Array(pairing.identifier.utf8))
                    list.append(.publicKey, pairing.publicKey)
                    list.append(.permissions, [pairing.isAdmin ? 1 : 0])
                }
                return Self.tlv(list)
            default:
                return refuse(.unknown)
            }
        } catch {
            logger.error("HomeKit: \(error)")
            return refuse(.unknown)
        }
    }
}
