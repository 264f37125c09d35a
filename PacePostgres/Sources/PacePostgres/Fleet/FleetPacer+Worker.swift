//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import Pace
import PostgresNIO
import Synchronization

extension FleetPacer {
  /// Fold rounds until stopped: wait, fold what is due and what this
  /// process sent, and, when the alarm rang, learn the earliest instant to
  /// wake at. Deliveries have a loop of their own (`deliveryLoop`), so that
  /// a fold never waits for a delivery round, nor a delivery for a fold.
  func foldLoop() async {
    var failures = 0
    var lookAround = true
    wake.poke()  // the first round at once: there may be work from before this process
    while !Task.isCancelled {
      // A poke (this process's sends, held for the fold interval) needs a
      // fold; the alarm (a deadline, a lease, the safety poll, a
      // notification, a failure) also a reading of the earliest instants,
      // and, when one is due, a look around the outbox.
      if await wake.wait() { lookAround = true }
      if work.withLock({ $0.stopping }) {
        // Sends held for the interval are this process's to fold: folded
        // now, they need not wait for another process's fold grace.
        // Batch by batch, as many as were held, until a round fails: a
        // sender that keeps sending cannot hold the stop.
        let batch = configuration.foldBatchSize
        let held = work.withLock { $0.sentKeys.count }
        var rounds = held / batch + (held % batch == 0 ? 0 : 1)
        while rounds > 0, (try? await foldOnce()) != nil { rounds -= 1 }
        break
      }
      guard !Task.isCancelled else { break }
      do {
        let roundStart = ContinuousClock.now
        // Sends from now on wait for the next round until the interval ends.
        wake.holdSends(until: roundStart + configuration.foldInterval)
        var leasedHere = 0
        // Due keys whose next step a fold worked out fire in one statement;
        // a fold claims only what that leaves, and this process's sends.
        var foldsDue = true
        // The fire's reading of the earliest instants: good for the alarm
        // while no fold follows it.
        var reading: AlarmReading?
        if lookAround {
          let fired = try await foldOnce(firing: true)
          leasedHere += fired.leased.count
          foldsDue = fired.dueLeft
          reading = fired.alarm
        }
        while foldsDue || work.withLock({ !$0.sentKeys.isEmpty }) {
          reading = nil
          let outcome = try await foldOnce()
          leasedHere += outcome.leased.count
          if outcome.claimed < configuration.foldBatchSize { break }
        }
        if lookAround {
          // Leases that expired, emissions given back or left waiting: the
          // delivery loop looks around too, when one is due, or every safety
          // poll. (Under load, alarms for deadlines ring every few
          // milliseconds; a look around at each took 1.4 of the server's
          // 10.4 busy seconds in a run of fleet-compare's load.)
          let safetyPoll = configuration.safetyPollInterval
          if work.withLock({ $0.startsLookAround(at: .now, safetyPoll: safetyPoll) }) { deliveryWake.poke() }
          if let reading {
            setAlarm(reading)
          } else {
            try await withAnswerTimeout(configuration.roundTimeout, counting: calls) { try await self.setAlarm() }
          }
          lookAround = false
        }
        logger.trace("Fleet fold round", metadata: ["leased": "\(leasedHere)", "took": "\(ContinuousClock.now - roundStart)"])
        failures = 0
      } catch {
        lookAround = true
        let retry = ContinuousClock.now + retryDelay(after: error, failures: &failures, in: "fold")
        work.withLock { $0.lookAround(by: retry) }
        wake.wake(at: retry)
      }
    }
    work.withLock { $0.foldEnded = true }
    deliveryWake.poke()
  }

  /// One fold round, or, `firing`, one fire round, bounded: a call the
  /// database never answers (a connection cut mid-transaction) fails the
  /// round, and the next one runs on a new connection. What it leased goes
  /// to the delivery loop.
  ///
  /// The room a fold leases into is reserved only once it knows its
  /// emissions; a fire, which learns them in its one statement, reserves
  /// the free room for that statement. Either holds it until its outcome is
  /// handed over, or the round failed or ran out of time (a round that
  /// answers later cannot hold it for ever, nor reserve any more). A
  /// delivery round that looked around meanwhile may have found too little
  /// room, and put its look off: the delivery loop is woken to look again.
  private func foldOnce(firing: Bool = false) async throws -> FoldOutcome {
    let round = work.withLock { $0.beginFoldRound() }
    let outcome: FoldOutcome
    do {
      outcome = try await withAnswerTimeout(configuration.roundTimeout, counting: calls) {
        try await firing ? self.fireRound(round) : self.foldRound(round)
      }
    } catch {
      if work.withLock({ $0.endFoldRound(round) }) { deliveryWake.poke() }
      throw error
    }
    let lookAwaits = work.withLock { state in
      state.ready += outcome.leased
      state.deliveryLooks = state.deliveryLooks || outcome.waiting
      if outcome.untold { state.untoldWaits += 1 }
      return state.endFoldRound(round)
    }
    if !outcome.leased.isEmpty || outcome.waiting || lookAwaits { deliveryWake.poke() }
    return outcome
  }

  /// After a failed round (the database is away or refused): counts it,
  /// says it, and returns how long to wait before the next, longer each
  /// time, up to the safety poll.
  private func retryDelay(after error: any Error, failures: inout Int, in loop: String) -> Duration {
    failures += 1
    counters.withLock { $0.failedRounds += 1 }
    let delay = min(Duration.milliseconds(100) * (1 << min(failures, 6)), configuration.safetyPollInterval)
    logger.warning(
      "Fleet \(loop) round failed; retrying", metadata: ["error": "\(String(reflecting: error))", "in": "\(delay)"])
    return delay
  }

  /// Delivery rounds until stopped: start the handlers of what folds leased
  /// here; remove what finished and lease the next emission of those keys;
  /// and, when the fold loop looked around, claim the first emission of
  /// other keys, as many as this process may still deliver.
  ///
  /// Then, on a graceful shutdown, it claims nothing more and lets the
  /// handlers that run finish, for at most a lease (a database that is away
  /// meanwhile is tried again, less and less often). When cancelled, the
  /// handlers are cancelled and give their leases back as they end. The
  /// worker then ends with ``giveBackWhatIsLeft()``.
  func deliveryLoop() async {
    await withDiscardingTaskGroup { handlers in
      var failures = 0
      while !Task.isCancelled, !work.withLock({ $0.stopping }) {
        do {
          let leased = try await deliverRound(&handlers)
          logger.trace("Fleet delivery round", metadata: ["leased": "\(leased)"])
          failures = 0
        } catch {
          deliveryWake.wake(at: .now + retryDelay(after: error, failures: &failures, in: "delivery"))
        }
        await deliveryWake.wait()
        // The handlers this round started get a turn before the next round
        // takes what finished. Handlers of the round before, which ended
        // while this round's call was out, have already woken the loop:
        // without the turn, the next round would begin before this round's
        // handlers ran, and each round would remove and refill only the
        // places of the round before, about half of the room per round
        // trip. Under the benchmark's load (instant handlers) the turn made
        // rounds whole: 7 to 34 % more sends a second in three interleaved
        // rounds, lateness lower.
        await Task.yield()
      }
      work.withLock { $0.claimsNothing = true }
      let giveUp = ContinuousClock.now + configuration.lease
      failures = 0
      while !Task.isCancelled, ContinuousClock.now < giveUp {
        do {
          // Claims nothing more (no room is left), but starts what a last
          // fold leased here. Bounded: a database that does not answer
          // cannot hold the shutdown.
          try await deliverRound(&handlers)
          failures = 0
        } catch {
          deliveryWake.wake(at: .now + retryDelay(after: error, failures: &failures, in: "delivery"))
        }
        // Done once no handler runs and no fold can lease here any more.
        if work.withLock({ $0.delivering.isEmpty && $0.ready.isEmpty && $0.foldEnded }) { break }
        deliveryWake.wake(at: giveUp)
        await deliveryWake.wait()
      }
      // Cancelled or out of time: the group waits for the handlers, which
      // are cancelled if the task is.
    }
  }

  /// The worker's last step, once its loops have ended, outside the
  /// cancellation: calls left behind (by the cancellation, or a time limit)
  /// may still commit, and lease here, so it first waits for them, at most
  /// `answerTimeout`. Then what finished is removed, and every lease this
  /// worker still holds (a fold's that no handler started, a left-behind
  /// round's) is given back, uncounted, for the fleet to take at once.
  func giveBackWhatIsLeft() async {
    work.withLock { $0.ready = [] }
    let limit = configuration.answerTimeout
    await Task { [self] in
      await calls.waitUntilNone(within: limit)
      // A wait a fold left untold is told now: this process takes it no more.
      let untold = work.withLock { $0.hasUntoldWait ? $0.untoldWaits : nil }
      _ = try? await withAnswerTimeout(limit) {
        try await self.settle(claiming: 0, lookingAround: false, tellingUpTo: untold)
      }
    }.value
    await releaseUnstartedLeases()
  }

  /// At the worker's end, when no handler runs here: the leases this worker
  /// still holds unexpired reached no handler (a handler that ended gave its
  /// lease back, or its emission was removed). They are given back and
  /// their lease is not counted as a delivery.
  private func releaseUnstartedLeases() async {
    let ns = namespace.quoted
    await runOutsideCancellation(
      """
      WITH released AS (
        UPDATE \(unescaped: ns).outbox
        SET lease_expires_at = \(unescaped: ns).pace_now(), deliveries = greatest(deliveries - 1, 0)
        WHERE pacer = \(name) AND lease_owner = \(owner) AND lease_expires_at > \(unescaped: ns).pace_now()
        RETURNING lease_expires_at)
      SELECT \(unescaped: ns).pace_notify(\(name), \(unescaped: ns).pace_micros(min(lease_expires_at)))
      FROM released HAVING count(*) > 0
      """)
  }

  /// Gives leases back, to be taken up `delay` from now by any process,
  /// which a notification tells.
  private func giveBack(_ ids: [Int64], after delay: Duration) async {
    let ns = namespace.quoted
    await runOutsideCancellation(
      """
      WITH given AS (
        UPDATE \(unescaped: ns).outbox
        SET lease_expires_at = \(unescaped: ns).pace_now() + \(delay.microseconds) * interval '1 microsecond'
        WHERE pacer = \(name) AND lease_owner = \(owner) AND id = ANY(\(ids))
        RETURNING lease_expires_at)
      SELECT \(unescaped: ns).pace_notify(\(name), \(unescaped: ns).pace_micros(min(lease_expires_at)))
      FROM given HAVING count(*) > 0
      """)
  }

  /// Runs `statement` in a task of its own, outside the caller's
  /// cancellation (which would fail it before it is sent), bounded by the
  /// answer timeout; a failure is dropped (the leases then expire).
  private func runOutsideCancellation(_ statement: PostgresQuery) async {
    let (client, logger, limit) = (client, logger, configuration.answerTimeout)
    await Task {
      _ = try? await withAnswerTimeout(limit) { try await client.query(statement, logger: logger) }
    }.value
  }

  /// What one fold round did.
  struct FoldOutcome: Sendable {
    /// How many keys it claimed.
    var claimed: Int
    /// The emissions it committed first in their key's line, leased to this
    /// process: the delivery loop starts them without a claim of its own.
    var leased: [LeasedEmission]
    /// Whether it committed an emission first in its key's line that it
    /// could not lease for want of room here: a delivery round that looks
    /// around claims it.
    var waiting: Bool
    /// Whether it left a first emission waiting for room here without
    /// telling the fleet (see `FleetWorkState.untoldWaits`).
    var untold = false
    /// Whether due keys were left for a fold to claim (a fire round's).
    var dueLeft = false
    /// The alarm's reading that a fire round returns after its emissions.
    var alarm: AlarmReading?
  }

  /// The database's instant, the pacer's earliest deadline and its earliest
  /// lease end, microseconds (`pace_alarm`).
  struct AlarmReading: Sendable {
    var now: Int64
    var due: Int64?
    var leaseEnd: Int64?
  }

  /// Claims up to a batch of keys (this process's sends first, then due
  /// ones), folds them and writes the result back in one transaction.
  func foldRound(_ round: UInt64) async throws -> FoldOutcome {
    let mine = work.withLock { state -> [String] in
      let keys = Array(state.sentKeys.prefix(configuration.foldBatchSize))
      state.sentKeys.subtract(keys)
      return keys
    }
    do {
      return try await client.withTransaction(logger: logger) { connection in
        try await self.fold(mine, round: round, on: connection)
      }
    } catch {
      // Not folded: this process still owes those keys a fold.
      work.withLock { $0.sentKeys.formUnion(mine) }
      throw error
    }
  }

  private func fold(_ mine: [String], round: UInt64, on connection: PostgresConnection) async throws -> FoldOutcome {
    let ns = namespace.quoted
    let rows = try await connection.query(
      "SELECT c_key, c_state, c_ids, c_values, c_sent, c_now FROM \(unescaped: ns).pace_claim(\(name), \(mine), \(configuration.foldBatchSize))",
      logger: logger)
    var claimed: [ClaimedKey] = []
    var now: Int64 = 0
    for try await (key, state, ids, values, sent, instant) in rows.decode(
      (String, String?, [Int64]?, [String]?, [Int64]?, Int64).self)
    {
      let ids = ids ?? [], values = values ?? [], sent = sent ?? []
      let sends = ids.indices.map { ClaimedKey.Send(id: ids[$0], value: values[$0], micros: sent[$0]) }
      claimed.append(ClaimedKey(key: key, state: state, sends: sends))
      now = instant
    }
    counters.withLock { $0.statements += 3 }  // BEGIN, the claim, COMMIT
    guard !claimed.isEmpty else { return FoldOutcome(claimed: 0, leased: [], waiting: false) }
    clock.observe(now)

    let result = fold.fold(claimed, now: now)
    for problem in result.problems {
      logger.error("Fleet pacer could not read a key", metadata: ["problem": "\(problem)"])
    }
    // Tell the fleet only of a deadline earlier than any it knows of.
    let notifyAt = work.withLock { state -> Int64? in
      guard !configuration.pollsOnly, let due = result.earliestDue, state.knownEarliest.map({ due < $0 }) ?? true else { return nil }
      state.knownEarliest = due
      return due
    }
    // Emissions first in their key's line are leased here at once, as many
    // as the delivery loop has room for; they need no claim of their own.
    // At most one a key can lead its line.
    let leaders = Set(result.emissions.map(\.key)).count
    let (room, tellsFleet) = work.withLock { state in
      let room = state.reserveFoldRoom(configuration.maximumConcurrentDeliveries, wanted: leaders, round: round)
      return (room, !configuration.pollsOnly && state.tellsFleet(configuration.maximumConcurrentDeliveries))
    }
    let applied = try await connection.query(
      """
      SELECT o_id, o_key, o_value, o_emitted, o_leased, o_behind, NULL::bigint, NULL::bigint, NULL::bigint
      FROM \(unescaped: ns).pace_apply(\(name),
        \(result.kept.map(\.key)), \(result.kept.map(\.state)), \(result.kept.map { $0.due ?? -1 }), \(result.kept.map(\.pending)), \(result.kept.map { $0.fire ?? "" }),
        \(result.gone), \(result.folded),
        \(result.emissions.map(\.key)), \(result.emissions.map(\.value)), \(result.emissions.map(\.micros)),
        \(configuration.keepsSendLog), \(notifyAt),
        \(owner), \(configuration.lease.microseconds) * interval '1 microsecond', \(room), \(tellsFleet))
      """,
      logger: logger)
    let (leased, waiting, _, _) = try await readEmitted(applied)
    counters.withLock {
      $0.statements += 1
      $0.folds += 1
      if notifyAt != nil || (waiting && tellsFleet) { $0.notifications += 1 }  // one at most: see `pace_apply`
    }
    if !configuration.pollsOnly, let due = result.earliestDue, let local = clock.localInstant(of: due) {
      wake.wake(at: local)
    }
    return FoldOutcome(
      claimed: claimed.count, leased: leased, waiting: waiting, untold: waiting && !tellsFleet && !configuration.pollsOnly)
  }

  /// One fire round (`pace_fire`): the due keys whose next step the fold
  /// that stored them worked out, and that no send has come to since, fire
  /// in one statement, without a fold's four round trips. What they emit
  /// first in its key's line is leased here, as a fold's is: room is
  /// reserved for as many as this process may still deliver.
  func fireRound(_ round: UInt64) async throws -> FoldOutcome {
    let maximum = configuration.maximumConcurrentDeliveries
    let (room, tellsFleet) = work.withLock { state in
      let room = state.reserveFoldRoom(maximum, wanted: maximum, round: round)
      return (room, !configuration.pollsOnly && state.tellsFleet(maximum))
    }
    var bindings = PostgresBindings(capacity: 6)
    bindings.append(name)
    bindings.append(Int64(configuration.foldBatchSize))
    bindings.append(owner)
    bindings.append(configuration.lease.microseconds)
    bindings.append(Int64(room))
    bindings.append(tellsFleet)
    let rows = try await PreparedCall(prepared.fire, bindings).rows(on: client, logger: logger)
    let (leased, waiting, left, alarm) = try await readEmitted(rows)
    let dueLeft = (left ?? 0) > 0
    counters.withLock {
      $0.statements += 1
      if waiting && tellsFleet { $0.notifications += 1 }
    }
    return FoldOutcome(
      claimed: 0, leased: leased, waiting: waiting, untold: waiting && !tellsFleet && !configuration.pollsOnly,
      dueLeft: dueLeft, alarm: alarm)
  }

  /// Reads what `pace_emit` returned, through `pace_apply` or `pace_fire`:
  /// the emissions leased here, whether one first in its key's line was
  /// left for want of room (a look around claims it), and the count of
  /// `pace_fire`'s last row (a row with no emission), if any.
  private func readEmitted(
    _ rows: some AsyncSequence<PostgresRow, any Error>
  ) async throws -> (leased: [LeasedEmission], waiting: Bool, left: Int64?, alarm: AlarmReading?) {
    var leased: [LeasedEmission] = []
    var waiting = false
    var left: Int64?
    var alarm: AlarmReading?
    for try await row in rows {
      let (id, key, value, emitted, isLeased, isBehind, now, due, leaseEnd) = try row.decode(
        (Int64?, String?, String?, Int64, Bool?, Bool?, Int64?, Int64?, Int64?).self)
      guard let id, let key, let value else {
        left = emitted
        if let now { alarm = AlarmReading(now: now, due: due, leaseEnd: leaseEnd) }
        continue
      }
      if isLeased == true {
        leased.append(LeasedEmission(id: id, key: key, value: value, emittedMicros: emitted, delivery: 1))
      } else if isBehind != true {
        waiting = true
      }
    }
    return (leased, waiting, left, alarm)
  }

  /// One delivery round: starts the handlers of the emissions that folds
  /// leased here, then, when something finished, the fold loop asked to
  /// look around, or a fold left a wait untold, runs one statement
  /// (`pace_settle`) that removes what finished, leases the next emission
  /// of those keys, and, looking around, claims the first emission of other
  /// keys, as many as this process may still deliver (and tells the fleet
  /// of one it leaves waiting, when a wait is untold). Returns how many
  /// handlers it started.
  @discardableResult
  func deliverRound(_ group: inout DiscardingTaskGroup) async throws -> Int {
    let (ready, looks, untold) = work.withLock { state in
      defer {
        state.ready = []
        state.deliveryLooks = false
      }
      // Out of `ready` and not yet in `delivering` until `startable` is
      // done: their room stays reserved meanwhile, so that a fold cannot
      // lease into it.
      state.reserved += state.ready.count
      // The waits left untold so far: this round tells the fleet of them if
      // its room runs out first.
      let untold = state.hasUntoldWait ? state.untoldWaits : nil
      return (state.ready, state.deliveryLooks, untold)
    }
    // Cancelled, it starts nothing: what is leased here goes back, uncounted,
    // when the worker ends (`releaseUnstartedLeases`).
    guard !Task.isCancelled else {
      work.withLock { $0.reserved -= ready.count }
      return 0
    }
    let handedOver = startable(ready)
    work.withLock { $0.reserved -= ready.count }
    for emission in handedOver {
      group.addTask { await self.deliver(emission) }
    }
    let room = work.withLock { state in
      // Only what this round can lease: the next emission of each key it
      // finished, or, looking around, any; nothing if it makes no call.
      state.reserveClaimRoom(configuration.maximumConcurrentDeliveries, lookingAround: looks)
    }
    // Released once what this round claimed is started (in `delivering`),
    // or it failed or was cancelled.
    defer { work.withLock { $0.reserved -= room } }
    let leased: [LeasedEmission]
    do {
      // Started here, once the answer came: a lease that came after the time
      // limit is given back when the worker stops, or expires.
      leased = try await withAnswerTimeout(configuration.roundTimeout, counting: calls) {
        try await self.settle(claiming: room, lookingAround: looks, tellingUpTo: untold)
      }
    } catch {
      // Still to look around: the next round does.
      if looks { work.withLock { $0.deliveryLooks = true } }
      throw error
    }
    guard !Task.isCancelled else { return handedOver.count }
    let claimed = startable(leased)
    // A look that had no room, or filled it, may have left emissions that
    // wait: the next round (when a handler ends) looks again. Filled as the
    // database leased, whether or not each lease could start here (one
    // already running here, or unreadable, takes room too).
    if looks, leased.count >= room { work.withLock { $0.deliveryLooks = true } }
    for emission in claimed {
      group.addTask { await self.deliver(emission) }
    }
    return handedOver.count + claimed.count
  }

  /// Removes the emissions whose handlers returned and claims up to
  /// `capacity` more, in one statement (`pace_settle`): the next emission of
  /// each key removed and, when `lookingAround`, the first of any key whose
  /// lease is free or expired. Returns the claimed ones, now this process's
  /// to deliver (see ``startable(_:)``). Makes no call when there is nothing
  /// to do. Given `untold` (see `FleetWorkState.untoldWaits`), it makes the
  /// call even with no room, and tells the fleet of a first emission left
  /// waiting if it does not lease every free one; those waits are then
  /// handled (told, or found taken).
  func settle(
    claiming capacity: Int, lookingAround: Bool, tellingUpTo untold: UInt64? = nil
  ) async throws -> [LeasedEmission] {
    let finished = work.withLock { Array($0.finished) }
    // A wait left untold needs the call even with no room: it tells the fleet.
    guard !finished.isEmpty || (capacity > 0 && lookingAround) || untold != nil else { return [] }
    var bindings = PostgresBindings(capacity: 7)
    bindings.append(name)
    bindings.append(owner)
    bindings.append(finished)
    bindings.append(configuration.lease.microseconds)
    bindings.append(Int64(max(capacity, 0)))
    bindings.append(lookingAround)
    bindings.append(untold != nil)
    let rows = try await PreparedCall(prepared.settle, bindings).rows(on: client, logger: logger)
    var removed: Set<Int64> = []
    var leased: [LeasedEmission] = []
    for try await row in rows {
      let (isRemoval, id, key, value, emitted, delivery) = try row.decode(
        (Bool, Int64, String?, String?, Int64?, Int32?).self)
      if isRemoval {
        removed.insert(id)
      } else if let key, let value, let emitted, let delivery {
        leased.append(LeasedEmission(id: id, key: key, value: value, emittedMicros: emitted, delivery: Int(delivery)))
      }
    }
    settle(finished, removed: removed)
    if let untold { work.withLock { $0.untoldWaitsHandled(upTo: untold) } }
    counters.withLock { $0.statements += 1 }
    return leased
  }

  /// The leased emissions this process may start: decoded, and not already
  /// in a handler here.
  private func startable(_ leased: [LeasedEmission]) -> [FleetEmission<Key, Value>] {
    var emissions: [FleetEmission<Key, Value>] = []
    for row in leased {
      guard let key = Key(row.key) else {
        logger.error("Fleet emission's key is not a key of this pacer; left to expire", metadata: ["id": "\(row.id)", "key": "\(row.key)"])
        continue
      }
      let value: Value
      do {
        value = try JSONDecoder().decode(Value.self, from: Data(row.value.utf8))
      } catch {
        logger.error("Fleet emission's value is not a value of this pacer; left to expire", metadata: ["id": "\(row.id)", "error": "\(error)"])
        continue
      }
      // A handler that outlived its lease and still runs here keeps its
      // emission: the lease is this process's again, and the running
      // handler's end removes the emission. Never two at once.
      guard work.withLock({ $0.delivering.insert(row.id).inserted }) else { continue }
      emissions.append(
        FleetEmission(key: key, value: value, id: row.id, emittedAt: Date(micros: row.emittedMicros), delivery: row.delivery))
    }
    return emissions
  }

  /// Takes note that the finished emissions are out of the outbox; one whose
  /// lease expired meanwhile (which another process may deliver again) is
  /// counted and said.
  private func settle(_ finished: [Int64], removed: Set<Int64>) {
    guard !finished.isEmpty else { return }
    let lost = finished.filter { !removed.contains($0) }
    work.withLock { state in
      state.finished.subtract(finished)
      state.delivering.subtract(finished)
    }
    counters.withLock {
      $0.deliveries += finished.count
      $0.lostLeases += lost.count
    }
    if !lost.isEmpty {
      logger.warning(
        "Fleet leases expired while handlers ran: these emissions may be delivered again", metadata: ["ids": "\(lost)"])
    }
  }

  /// Runs the handler, then removes the emission, or gives it back.
  private func deliver(_ emission: FleetEmission<Key, Value>) async {
    defer { deliveryWake.poke() }
    do {
      try await handler(emission)
    } catch {
      let cancelled = Task.isCancelled
      if !cancelled {
        counters.withLock { $0.handlerFailures += 1 }
        logger.error(
          "Fleet handler threw; the emission will be delivered again",
          metadata: ["id": "\(emission.id)", "key": "\(emission.key)", "error": "\(error)"])
      }
      // Given back: at once when shutting down, after the retry delay
      // otherwise. Outside this task's cancellation, which would fail the
      // statement before it is sent.
      let delay = cancelled ? Duration.zero : configuration.retryDelay
      await giveBack([emission.id], after: delay)
      work.withLock { _ = $0.delivering.remove(emission.id) }
      // This process may take it up again then: its alarm says when.
      if !cancelled {
        let retry = ContinuousClock.now + delay
        work.withLock { $0.lookAround(by: retry) }
        wake.wake(at: retry)
      }
      return
    }
    // Done: removed from the outbox with the others that finished, in one
    // statement at the next round (`settle(claiming:lookingAround:)`).
    work.withLock { _ = $0.finished.insert(emission.id) }
  }

  /// Reads the earliest due key and lease expiry of the pacer, and sets the
  /// local timer for the earlier, or for the safety poll.
  func setAlarm() async throws {
    var bindings = PostgresBindings(capacity: 1)
    bindings.append(name)
    let rows = try await PreparedCall(prepared.alarm, bindings).rows(on: client, logger: logger)
    var reading = AlarmReading(now: 0)
    for try await row in rows {
      let (now, due, leaseEnd) = try row.decode((Int64, Int64?, Int64?).self)
      reading = AlarmReading(now: now, due: due, leaseEnd: leaseEnd)
    }
    counters.withLock { $0.statements += 1 }
    setAlarm(reading)
  }

  /// Sets the local timer from `reading`: for the earlier of the pacer's
  /// earliest deadline and lease end, or for the safety poll.
  func setAlarm(_ reading: AlarmReading) {
    let (now, due, leaseEnd) = (reading.now, reading.due, reading.leaseEnd)
    clock.observe(now)
    // Something due now that this round did not take is another process's
    // (locked, or this one's delivery capacity is full): look again soon,
    // not at once. One rule for the deadline, the lease end and the look.
    let soon = ContinuousClock.now + .milliseconds(10)
    func notBeforeSoon(_ micros: Int64) -> ContinuousClock.Instant? { clock.localInstant(of: micros).map { max($0, soon) } }
    let leaseEndsAt = leaseEnd.flatMap(notBeforeSoon)
    let looksAroundBy = work.withLock { state in
      state.knownEarliest = due
      if let leaseEndsAt, !configuration.pollsOnly { state.lookAround(by: leaseEndsAt) }
      return state.looksAroundBy
    }
    var alarm = min(ContinuousClock.now + configuration.safetyPollInterval, max(looksAroundBy, soon))
    if !configuration.pollsOnly, let local = due.flatMap(notBeforeSoon), local < alarm { alarm = local }
    wake.wake(at: alarm)
  }

  /// Listens for other processes' earlier deadlines, on a connection of its
  /// own, reconnecting when it breaks.
  func listen() async {
    while !Task.isCancelled {
      do {
        // Left behind when cancelled, never waited for: after a restart of
        // the database, waiting for a connection may not heed cancellation,
        // and the worker must still stop.
        try await withAnswerTimeout(nil) { [client, namespace] in
          try await client.withConnection { connection in
            try await connection.listen(on: namespace.name) { notifications in
              // Whatever was said while not listening is found by a round
              // now, which looks around and reads the earliest instants.
              self.work.withLock { $0.lookAround(by: .now) }
              self.wake.wake(at: .now)
              for try await notification in notifications {
                self.heard(notification.payload)
              }
            }
          }
        }
      } catch {
        if Task.isCancelled { return }
        logger.warning("Fleet listener lost its connection; reconnecting", metadata: ["error": "\(String(reflecting: error))"])
        try? await Task.sleep(for: .seconds(1))
      }
    }
  }

  private func heard(_ payload: String) {
    // "<pacer> <µs>", as `pace_notify` writes it; a pacer's name may hold spaces.
    guard let space = payload.lastIndex(of: " "), payload[..<space] == name,
      let due = Int64(payload[payload.index(after: space)...])
    else { return }
    // An emission given back, or waiting for room, or an earlier deadline:
    // which, the payload does not say, so the delivery loop looks around too.
    let local = clock.localInstant(of: due)
    work.withLock { state in
      if state.knownEarliest.map({ due < $0 }) ?? true { state.knownEarliest = due }
      state.lookAround(by: local ?? .now)
    }
    if let local { wake.wake(at: local) } else { wake.poke() }
  }

  /// Renews the leases of the emissions whose handlers run here, every third
  /// of a lease.
  func renewLeases() async {
    let ns = namespace.quoted
    while !Task.isCancelled {
      // Cancelled, the worker is stopping: it gives its leases back itself.
      do { try await Task.sleep(for: configuration.lease / 3) } catch { return }
      let ids = work.withLock { Array($0.delivering) }
      guard !ids.isEmpty else { continue }
      do {
        // Bounded, as every round is: a renewal that never answers must not
        // hold the worker's stop.
        let (client, logger, owner, lease) = (client, logger, owner, configuration.lease)
        _ = try await withAnswerTimeout(configuration.roundTimeout, counting: calls) {
          try await client.query(
            """
            UPDATE \(unescaped: ns).outbox
            SET lease_expires_at = \(unescaped: ns).pace_now() + \(lease.microseconds) * interval '1 microsecond'
            WHERE id = ANY(\(ids)) AND lease_owner = \(owner)
            """,
            logger: logger)
        }
        counters.withLock { $0.statements += 1 }
      } catch where !Task.isCancelled {
        logger.warning("Fleet leases not renewed", metadata: ["error": "\(String(reflecting: error))"])
      } catch {
        return  // Stopping: not a failure to report.
      }
    }
  }
}
