internal import CZWaveShim
internal import FoundationEssentials
internal import Logging
internal import SystemSupport

extension OpenZWave {
    /// Consumes the callbacks' events in order: updates the driver's state, then publishes them.
    func pump() async {
        for await event in sink.supervisedEvents {
            handle(event)
        }
    }

    /// The watchdog. It runs when something happens, never on a period: when the port's path changes (appears,
    /// disappears, is replaced: inotify through `PathWatcher`; OpenZWave 1.6 reports no failure when the stick is
    /// unplugged, its reads and writes just fail, so the device node or udev link vanishing is the signal), when
    /// the driver's phase changes, and at the one deadline the phase has (the ready deadline, the restart backoff,
    /// the removal of a failed driver, the end of the cache-write deferral). While no stick is plugged in, the port
    /// appearing adds the driver.
    func supervise() async {
        let wakeups = Wakeups()
        supervision.wakeups = wakeups
        let watcher = PathWatcher(path: configuration.port) { wakeups.wake() }
        if watcher == nil {
            logger.warning(
                "inotify is not available: a stick unplugged or plugged in is noticed only at the next restart",
                metadata: ["port": "\(configuration.port)"])
        }
        defer {
            watcher?.cancel()
            wakeups.finish()
            supervision.wakeups = nil
        }
        for await _ in wakeups.stream {
            tick(now: .now)
            wakeups.wake(at: supervision.nextDeadline)
        }
    }

    /// Updates the driver's state from one event and publishes it; a failure of the supervised driver
    /// then restarts it (so `driverFailed` precedes `adapterLost`, and `driverReady` precedes
    /// `adapterRecovered`).
    func handle(_ event: ZWaveEvent) {
        var recovered = false
        var failure: String?
        var failedDriver: String?
        network.note(event)
        switch event {
        case .driverReady(let home, let controller):
            supervision.phase = .ready
            supervision.restartAttempt = 0
            if supervision.outage != nil {
                supervision.outage = nil
                recovered = true
            }
            logger.info("Z-Wave driver ready", metadata: ["home": "\(home)", "controller": "\(controller)"])
        case .driverFailed:
            // OpenZWave raises DriverFailed from its driver thread, which then goes on using the Driver (it
            // stops itself and queues another message). Removing the driver at once deletes it under that
            // thread (seen as an abort on a freed mutex in OZW-poll): report the outage now, remove it a
            // moment later.
            if supervision.isSupervising {
                let reason = "the driver failed on \(configuration.port)"
                failedDriver = reason
                supervision.phase = .failing(until: .now + Self.failedDriverGrace, reason: reason)
            }
        case .driverRemoved:
            if supervision.pendingRemovals > 0 {
                supervision.pendingRemovals -= 1
            } else if supervision.isSupervising {
                failure = "the driver on \(configuration.port) was removed by OpenZWave"
            }
        case .nodeReady:
            releaseNodeCacheCopies()
        case .awakeNodesQueried, .allNodesQueried:
            releaseNodeCacheCopies()
            finishCacheDeferral(reason: "network queried")
        default:
            break
        }
        sink.publish(event)
        if recovered {
            logger.notice("Z-Wave adapter recovered")
            sink.publish(.adapterRecovered)
        }
        if let failedDriver { reportOutage(failedDriver) }
        if let failure { restart(reason: failure) }
    }

    /// How long a driver that reported DriverFailed is left alone before it is removed.
    static let failedDriverGrace = Duration.milliseconds(500)

    func tick(now: ContinuousClock.Instant) {
        if let deadline = supervision.cacheDeferralDeadline, now >= deadline, case .ready = supervision.phase {
            finishCacheDeferral(reason: "deferral limit reached")
        }
        switch supervision.phase {
        case .waitingForReady(let deadline) where now >= deadline:
            restart(reason: "no DriverReady within \(configuration.readyTimeout) on \(configuration.port)")
        case .waitingForReady where !portExists:
            restart(reason: portMissingReason)
        case .failing(let until, let reason) where now >= until:
            restart(reason: reason)
        case .ready where !portExists:
            restart(reason: "the port \(configuration.port) disappeared (stick unplugged?)")
        case .backingOff(let until) where now >= until:
            // Unplugged: no point in starting OpenZWave's open-retry loop; re-add as soon as the port is back.
            guard portExists else { return }
            do {
                try addDriver()
            } catch {
                logger.warning("could not re-add the Z-Wave driver", metadata: ["error": "\(error)"])
                let wait = supervision.backoff(configuration)
                supervision.phase = .backingOff(until: now + wait)
            }
        default:
            break
        }
    }

    /// Removes the driver, reports the outage once, and schedules the re-add with capped backoff.
    func restart(reason: String) {
        reportOutage(reason)
        removeDriver()
        cacheCopy.keepComplete()
        network.forget()
        let wait = supervision.backoff(configuration)
        logger.info(
            "re-adding the Z-Wave driver", metadata: ["in": "\(wait)", "attempt": "\(supervision.restartAttempt)"])
        supervision.phase = .backingOff(until: .now + wait)
    }

    /// Reports the outage (`adapterLost`) unless one is already reported.
    func reportOutage(_ reason: String) {
        guard supervision.outage == nil else { return }
        supervision.outage = reason
        logger.warning("Z-Wave adapter lost", metadata: ["reason": "\(reason)"])
        sink.publish(.adapterLost(reason: reason))
    }

}

extension OpenZWave {
    /// While the library patches are applied (``LibraryPatches/Patch/deferredCacheWrites``): skips the cache
    /// writes OpenZWave starts itself until the network is queried, or `cacheWriteDeferralLimit` has passed.
    func deferCacheWrites() {
        guard patches.active.contains(.deferredCacheWrites) else { return }
        zw_set_cache_writes_deferred(true)
        supervision.cacheDeferralDeadline = .now + configuration.cacheWriteDeferralLimit
    }

    /// Ends the deferral and writes the cache once.
    func finishCacheDeferral(reason: String) {
        guard supervision.cacheDeferralDeadline != nil else { return }
        // The flag is cleared only after the write: a write OpenZWave started meanwhile on its own thread would
        // otherwise run at the same time as this one, on the same file.
        defer { endCacheDeferral() }
        guard let manager, let home else { return }
        let started = ContinuousClock.now
        do {
            try ZWaveError.check(zw_write_config(manager, home.rawValue), call: "zw_write_config")
        } catch {
            logger.warning("could not write the network cache", metadata: ["error": "\(error)"])
            return
        }
        cacheCopy.keepComplete()
        var written: UInt64 = 0
        var skipped: UInt64 = 0
        zw_cache_write_counts(&written, &skipped)
        logger.info(
            "network cache written",
            metadata: [
                "reason": "\(reason)", "took": "\(ContinuousClock.now - started)", "skipped_so_far": "\(skipped)",
            ])
    }

    /// Lets OpenZWave's own cache writes through again, without writing. Called before a driver is removed, so
    /// that the write OpenZWave makes as it removes the driver (a restart, a stop before the network was
    /// queried) keeps what the interview has learned so far.
    func endCacheDeferral() {
        supervision.cacheDeferralDeadline = nil
        zw_set_cache_writes_deferred(false)
    }

    /// While the library patches are applied (``LibraryPatches/Patch/nodeCacheRelease``): frees OpenZWave's copies
    /// of the network cache held by nodes that no longer need them.
    func releaseNodeCacheCopies() {
        guard patches.active.contains(.nodeCacheRelease), !nodeCacheCopiesKept, let manager, let home else { return }
        var released: UInt32 = 0
        let status = zw_release_node_cache_copies(manager, home.rawValue, &released)
        do {
            try ZWaveError.check(status, call: "zw_release_node_cache_copies")
        } catch {
            // A layout the shim does not trust stays so for this process; anything else is tried again later.
            if status == ZW_ERR_FAILED { nodeCacheCopiesKept = true }
            logger.notice("OpenZWave's copies of the network cache are kept", metadata: ["error": "\(error)"])
            return
        }
        if released > 0 { logger.debug("freed OpenZWave's node cache copies", metadata: ["nodes": "\(released)"]) }
    }
}
