//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import Pace
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// A keyed pacer shared by every process of a fleet through PostgreSQL:
/// per key, exactly the policy of a `KeyedPacer`, whichever process
/// sends, on the database's clock.
///
/// ```swift
/// let namespace = try PaceNamespace("notifications")
/// let digests = FleetPacer(.debounce(for: .seconds(30), edges: .trailing(maxWait: .seconds(300))),
///                          name: "digest", namespace: namespace, client: client) {
///   (emission: FleetEmission<String, Digest>) in
///   try await mailer.send(emission.value, to: emission.key, idempotencyKey: "\(emission.id)")
/// }
/// // In the application's ServiceGroup, beside the client; the worker
/// // waits for the migration every process makes once the client runs
/// // (with `group.run()` running; the README shows it whole):
/// let group = ServiceGroup(services: [client, digests], logger: logger)
/// try await PaceSchema(namespace: namespace).migrate(on: client)
/// // Anywhere, in any process:
/// try await digests.send(digest, for: userID)
/// ```
///
/// - **Sends** are recorded with their database instant, one round trip
///   each; ``send(_:for:)`` returns once the send is committed: no process
///   crash loses it after that. A debounce's or a throttle's send that
///   emits nothing (it starts a burst or a window without a leading edge,
///   or goes on with one) is stepped by the database in that statement, and
///   needs no fold.
/// - **The worker** (``run()``, a swift-service-lifecycle `Service`) folds
///   sends into the keys' stored policies, fires due deadlines, and delivers
///   emissions. Due keys are claimed with `FOR UPDATE SKIP LOCKED` by
///   whichever process wakes first; a key that no send came to since its
///   last fold fires in one statement, on the step that fold worked out in
///   advance. Each process sleeps on a local timer for
///   the earliest deadline it knows; a process that makes a deadline earlier
///   than that tells the others with one `NOTIFY`; a slow safety poll covers
///   a lost notification.
/// - **Delivery** is at least once. An emission is committed with the state
///   change that made it, claimed with a lease that the worker renews while
///   the handler runs, and removed when the handler returns. Per key, one
///   emission is in a handler at a time across the fleet, in order. A
///   process that dies mid-handler has its lease expire, and another process
///   delivers the emission again, with the same ``FleetEmission/id``. A
///   handler that throws has its emission delivered again after
///   ``FleetConfiguration/retryDelay``.
/// - **Rows follow live keys**: a key's row goes once its policy holds
///   nothing a new one would not, as memory does in a keyed pacer.
///
/// Every process that sends should run the worker: it folds its own sends
/// at once, or, while they keep coming, together every
/// ``FleetConfiguration/foldInterval``. A process that only sends (or sends
/// before its worker starts) has its sends folded by a worker after
/// ``FleetConfiguration/foldGrace``; its stepped sends need no fold, and
/// another process's worker fires them on time.
///
/// The value is stored as JSON: use a non-optional `Value` (a pending `nil`
/// of an optional one reads back as no value).
public final class FleetPacer<Key: LosslessStringConvertible & Sendable, Machine: StorablePacingStateMachine & Sendable>:
  Service, Sendable
where Machine.Instant == DriverInstant, Machine.Value: Codable & Sendable {
  public typealias Value = Machine.Value
  public typealias Handler = @Sendable (FleetEmission<Key, Value>) async throws -> Void

  /// The pacer's name in the namespace: processes that give the same name
  /// share its keys.
  public let name: String
  /// The namespace whose tables hold the keys.
  public let namespace: PaceNamespace
  /// How the worker claims, delivers and waits.
  public let configuration: FleetConfiguration

  let client: PostgresClient
  let logger: Logger
  let handler: Handler
  let fold: FleetFold<Machine>
  /// The built-in policy whose sends the database steps itself
  /// (`pace_send_step`), when the policy is one.
  let step: FleetStep?
  /// The frequent calls, prepared on each connection.
  let prepared: FleetCalls
  /// This worker's name on the leases it takes: its host, its process and
  /// 64 random bits, so that two pacers of one process differ. Short: it is
  /// in every outbox row (with a UUID's 36 characters, the row's record in
  /// the write-ahead log took 155 bytes; with these 13 at most, 131).
  let owner = [
    ProcessInfo.processInfo.hostName, String(ProcessInfo.processInfo.processIdentifier),
    String(UInt64.random(in: .min ... .max), radix: 36),
  ].joined(separator: ":")
  /// What the fold loop sleeps on.
  let wake = FleetWake()
  /// What the delivery loop sleeps on.
  let deliveryWake = FleetWake()
  let clock = DatabaseClock()
  let work = Mutex(FleetWorkState())
  /// The worker's database calls that may still run: its end waits for them.
  let calls = CallsInFlight()
  package let counters = Mutex(FleetCounters())

  /// Creates a fleet pacer; run ``run()`` (or add it to a `ServiceGroup`)
  /// in every process that sends or should deliver.
  ///
  ///     let alerts = FleetPacer(.throttle(for: .seconds(3600), edges: .leading), name: "cron",
  ///                             namespace: namespace, client: client) { (emission: FleetEmission<String, String>) in
  ///       try await runJob(emission.key)
  ///     }
  ///
  /// - Parameters:
  ///   - machine: Each key's policy, as for a keyed pacer; its state must
  ///     be storable: debounce and throttle with any options are, and
  ///     so are stages (`.stages(.distinct(), .debounce(for: .seconds(1)))`).
  ///   - name: The pacer's name in the namespace.
  ///   - namespace: The namespace whose tables (see ``PaceSchema``) hold the keys.
  ///   - client: The application's client; the worker leases connections
  ///     from it and holds one for `LISTEN`.
  ///   - configuration: Leases, batches and polling.
  ///   - logger: Where the worker says what it does and what went wrong.
  ///   - handler: Called with each emission, at least once.
  public init(
    _ machine: Machine,
    name: String,
    namespace: PaceNamespace,
    client: PostgresClient,
    configuration: FleetConfiguration = FleetConfiguration(),
    logger: Logger = PaceSchema.silentLogger,
    handler: @escaping Handler
  ) {
    self.name = name
    self.namespace = namespace
    self.client = client
    var configuration = configuration
    configuration.lease = max(configuration.lease, .seconds(1))
    configuration.safetyPollInterval = max(configuration.safetyPollInterval, .milliseconds(100))
    configuration.answerTimeout = max(configuration.answerTimeout, .milliseconds(100))
    configuration.roundTimeout = max(configuration.roundTimeout, .seconds(1))
    configuration.foldGrace = max(configuration.foldGrace, .zero)
    configuration.retryDelay = max(configuration.retryDelay, .zero)
    configuration.maximumConcurrentDeliveries = max(configuration.maximumConcurrentDeliveries, 1)
    configuration.foldBatchSize = max(configuration.foldBatchSize, 1)
    if configuration.pollsOnly { configuration.foldGrace = .zero }
    configuration.foldInterval = min(max(configuration.foldInterval, .zero), configuration.foldGrace / 2)
    self.configuration = configuration
    var logger = logger
    logger[metadataKey: "pace.pacer"] = "\(namespace.name).\(name)"
    self.logger = logger
    self.handler = handler
    self.fold = FleetFold(prototype: machine)
    self.step = FleetStep(machine)
    self.prepared = FleetCalls(namespace: namespace)
  }

  /// Hands `value` to `key`'s policy, on the database's clock.
  ///
  /// Returns once the send is committed, with its instant. The policy takes
  /// it in at that instant, whichever process folds it and when.
  ///
  /// - Throws: ``FleetPacerError`` for an error of the database or the
  ///   connection, and when the database does not answer within
  ///   ``FleetConfiguration/answerTimeout`` (the first send checks the
  ///   namespace's schema first, within as long again); the send was then
  ///   not recorded (or, when the connection broke after the commit or the
  ///   answer came late, may have been: a send is not idempotent).
  ///   ``PaceSchemaError`` when the namespace is not migrated to this
  ///   library's version; `CancellationError` when the calling task is
  ///   cancelled.
  @discardableResult
  public func send(_ value: Value, for key: Key) async throws -> Date {
    let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    let keyText = key.description
    try await checkSchema()
    // The earliest deadline this process knows the fleet to have, for the
    // statement to compare a stepped send's with; and whether that may have
    // lapsed unseen: a worker reads it again at every alarm, a process whose
    // worker does not run (or stops) knows only the deadlines it told.
    let known = work.withLock { state in (read: state.knownEarliest, lapses: !state.workerRuns || state.stopping) }
    let instant: Int64
    let due: Int64?
    let told: Bool
    do {
      // Bounded: a pool that lost its server may never answer (seen after
      // a restart of PostgreSQL), and a send must fail, not hang.
      let (client, logger) = (client, logger)
      let grace = configuration.foldGrace.microseconds
      var bindings = PostgresBindings(capacity: 13)
      bindings.append(name)
      bindings.append(keyText)
      bindings.append(json)
      bindings.append(grace)
      let call: PreparedCall
      if let step {
        bindings.append(step.policy.rawValue)
        bindings.append(step.interval)
        bindings.append(step.maxWait)
        bindings.append(step.leading)
        bindings.append(step.trailing)
        bindings.append(configuration.keepsSendLog)
        bindings.append(known.read)
        bindings.append(known.lapses)
        bindings.append(!configuration.pollsOnly)
        call = PreparedCall(prepared.sendStep, bindings)
      } else {
        call = PreparedCall(prepared.send, bindings)
      }
      (instant, due, told) = try await withAnswerTimeout(configuration.answerTimeout) {
        var answer: (Int64, Int64?, Bool) = (0, nil, false)
        for try await row in try await call.rows(on: client, logger: logger) {
          answer = try row.decode((Int64, Int64?, Bool).self)
        }
        return answer
      }
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw FleetPacerError(namespace: namespace, pacer: name, doing: "send", error: error)
    }
    counters.withLock { $0.sends += 1; $0.statements += 1 }
    clock.observe(instant)
    guard !configuration.pollsOnly else { return Date(micros: instant) }
    if let due {
      // Stepped by the database: nothing to fold. The worker fires the
      // deadline (with `pace_fire`); the statement told the fleet of it if
      // it was earlier than this process knew.
      let runs = work.withLock { state -> Bool in
        // What it told is now the earliest it knows, unless an earlier one
        // came meanwhile.
        if told, state.knownEarliest == known.read || state.knownEarliest.map({ due < $0 }) ?? true {
          state.knownEarliest = due
        }
        return state.workerRuns && !state.stopping
      }
      if told { counters.withLock { $0.notifications += 1 } }
      if runs, let local = clock.localInstant(of: due) { wake.wake(at: local) }
      return Date(micros: instant)
    }
    // The worker folds this process's sends at once (or when the fold
    // interval after its last fold ends); without a worker they
    // are due to the fleet after the fold grace, and nothing is kept here.
    if work.withLock({ state in state.workerRuns && state.sentKeys.insert(keyText).inserted }) { wake.sent() }
    return Date(micros: instant)
  }

  /// The worker: folds, fires and delivers until the task is cancelled or
  /// the service group shuts down gracefully.
  ///
  /// It first checks the namespace's schema. A namespace not migrated yet,
  /// or migrated to an older version, is read again every 100 ms for about
  /// ``FleetConfiguration/answerTimeout``: a worker that a service group
  /// starts beside the client waits for the migration that the process
  /// runs once the client runs. Then it throws that ``PaceSchemaError``; it
  /// throws a newer version's at once, and ``FleetPacerError`` when the
  /// database does not answer, rather than wait; stopped or cancelled
  /// meanwhile, it returns. A ``shutDownGracefully()`` asked for before it
  /// began ends it at once. Once started, it rides out a database that
  /// goes away: each round that fails is tried again, less and less often
  /// (at most every ``FleetConfiguration/safetyPollInterval``), and what was
  /// committed is taken up where it was left.
  ///
  /// On a graceful shutdown it stops claiming, lets the handlers that run
  /// finish (for at most a ``FleetConfiguration/lease``), and returns. When
  /// cancelled, it cancels the handlers that run and releases their leases,
  /// so that another process delivers their emissions at once. (It releases
  /// them through the client, which must still run then: a `ServiceGroup`
  /// that is cancelled stops its client at the same moment, and what could
  /// not be given back is delivered elsewhere once its lease expires.)
  /// Either way it last waits for its calls that are still under way (a
  /// statement already sent may still lease here), for at most
  /// ``FleetConfiguration/answerTimeout``, and gives back every lease it
  /// still holds; a lease that such a call takes after that is delivered by
  /// another process once it expires.
  public func run() async throws {
    // Set before the schema is checked: a send meanwhile is this worker's to
    // fold. `stopping` is not cleared here but when it ends: a shutdown
    // asked for before it began (`shutDownGracefully()`) ends it at once.
    work.withLock { state in
      state.claimsNothing = false
      state.foldEnded = false
      state.workerRuns = true
      state.lookAround(by: .now)  // What a worker before this one left.
    }
    defer {
      work.withLock { state in
        state.workerRuns = false
        state.stopping = false
      }
    }
    // A graceful shutdown (or a cancellation) while it waits for a
    // migration ends it quietly.
    try await withGracefulShutdownHandler {
      try await checkSchema(waitingForMigration: configuration.answerTimeout)
    } onGracefulShutdown: {
      self.shutDownGracefully()
    }
    // Stopped before the schema was found: nothing ran, nothing was leased.
    // (Found, it stops as usual: the fold loop folds the sends it holds.)
    guard !work.withLock({ $0.stopping && !$0.schemaChecked }), !Task.isCancelled else { return }
    logger.debug("Fleet worker starts", metadata: ["owner": "\(owner)"])
    await withGracefulShutdownHandler {
      await withDiscardingTaskGroup { group in
        if !self.configuration.pollsOnly { group.addTask { await self.listen() } }
        group.addTask { await self.renewLeases() }
        group.addTask { await self.foldLoop() }
        await self.deliveryLoop()
        group.cancelAll()
      }
    } onGracefulShutdown: {
      self.shutDownGracefully()
    }
    await giveBackWhatIsLeft()
    logger.debug("Fleet worker stops", metadata: ["owner": "\(owner)"])
  }

  /// Checks that the namespace is at this library's schema version, once
  /// per pacer: after a check that passed, it returns at once.
  ///
  /// Given `wait`, a namespace not migrated yet or migrated to an older
  /// version is read again every 100 ms until `wait` has passed (the last
  /// read may end up to a read's time limit later), then its error is
  /// thrown: a migration may be under way. A worker that is stopped or
  /// cancelled meanwhile returns without having found the schema.
  func checkSchema(waitingForMigration wait: Duration? = nil) async throws {
    let giveUp = wait.map { ContinuousClock.now + $0 }
    var told = false
    while true {
      do {
        return try await checkSchemaOnce()
      } catch let error as PaceSchemaError {
        guard let giveUp else { throw error }
        switch error {
        case .notMigrated, .olderVersion:
          guard ContinuousClock.now < giveUp else { throw error }
          if !told {
            told = true
            logger.notice("Fleet worker waits for its namespace's migration", metadata: ["schema": "\(error)"])
          }
          try? await Task.sleep(for: .milliseconds(100))
          // Checked after the sleep: the next read would throw a
          // cancellation rather than return.
          if work.withLock({ $0.stopping }) || Task.isCancelled { return }
        default: throw error
        }
      }
    }
  }

  private func checkSchemaOnce() async throws {
    guard !work.withLock({ $0.schemaChecked }) else { return }
    let version: Int?
    do {
      let (schema, client, logger) = (PaceSchema(namespace: namespace), client, logger)
      version = try await withAnswerTimeout(configuration.answerTimeout) {
        try await schema.installedVersion(on: client, logger: logger)
      }
    } catch let error as PaceSchemaError {
      throw error
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw FleetPacerError(namespace: namespace, pacer: name, doing: "read the schema version", error: error)
    }
    counters.withLock { $0.schemaReads += 1 }
    switch version {
    case nil: throw PaceSchemaError.notMigrated(namespace: namespace.name)
    case let version? where version > PaceSchema.version:
      throw PaceSchemaError.newerVersion(namespace: namespace.name, found: version, supported: PaceSchema.version)
    case let version? where version < PaceSchema.version:
      throw PaceSchemaError.olderVersion(namespace: namespace.name, found: version, supported: PaceSchema.version)
    default: work.withLock { $0.schemaChecked = true }
    }
  }

  /// Waits until what was sent to `keys` so far has run its course across
  /// the fleet: every send is folded, no policy holds a value it may still
  /// emit, and every emission is delivered, by whichever process.
  ///
  /// A process that sends and then exits calls it first, so that it does
  /// not stop while its sends still lead somewhere: its own worker (which
  /// must run meanwhile) or another process's delivers them. A key that
  /// other processes keep sending to is waited for until it is quiet.
  ///
  ///     try await tick.send("tick", for: "nightly-report")
  ///     try await tick.waitUntilSettled(["nightly-report"])
  ///
  /// - Parameters:
  ///   - keys: The keys to wait for.
  ///   - interval: How often to look; each look is one statement.
  /// - Throws: ``FleetPacerError`` when the database does not answer within
  ///   ``FleetConfiguration/answerTimeout``; `CancellationError` when the
  ///   task is cancelled.
  public func waitUntilSettled(_ keys: some Sequence<Key>, checkingEvery interval: Duration = .milliseconds(100))
    async throws
  {
    let texts = Array(Set(keys.map(\.description)))
    guard !texts.isEmpty else { return }
    let (ns, name, client, logger) = (namespace.quoted, name, client, logger)
    while true {
      try Task.checkCancellation()
      let left: Int
      do {
        left = try await withAnswerTimeout(configuration.answerTimeout) {
          let rows = try await client.query(
            """
            SELECT count(*) FROM unnest(\(texts)::text[]) AS k(key)
            WHERE EXISTS (SELECT FROM \(unescaped: ns).sends s WHERE s.pacer = \(name) AND s.key = k.key)
               OR EXISTS (SELECT FROM \(unescaped: ns).keys x WHERE x.pacer = \(name) AND x.key = k.key AND x.pending)
               OR EXISTS (SELECT FROM \(unescaped: ns).outbox o WHERE o.pacer = \(name) AND o.key = k.key)
            """,
            logger: logger)
          for try await count in rows.decode(Int.self) { return count }
          return 0
        }
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        throw FleetPacerError(namespace: namespace, pacer: name, doing: "see what is left to deliver", error: error)
      }
      if left == 0 { return }
      try await Task.sleep(for: interval)
    }
  }

  /// Stops claiming, lets running handlers finish, and ends ``run()``: what
  /// a service group's graceful shutdown does.
  public func shutDownGracefully() {
    work.withLock { $0.stopping = true }
    wake.poke()
    deliveryWake.poke()
  }
}

/// What a worker knows between its rounds.
struct FleetWorkState: Sendable {
  /// Keys this process sent to since its last fold.
  var sentKeys: Set<String> = []
  /// The emissions leased here: handlers running, or finished and not yet
  /// removed from the outbox.
  var delivering: Set<Int64> = []
  /// The emissions whose handlers returned, to remove at the next round.
  var finished: Set<Int64> = []
  /// Emissions that folds leased here, for the delivery loop to start.
  var ready: [LeasedEmission] = []
  /// Whether the next delivery round claims emissions of any key (leases
  /// expired, emissions given back or left waiting), not only the next of
  /// the keys it finished.
  var deliveryLooks = true
  /// When the delivery loop must next look around the outbox: a lease
  /// that expires, an emission given back or told of by a notification, the
  /// safety poll. An alarm for a deadline alone needs no look: the fold that
  /// fires it leases what it emits, or tells the fleet of what it has no
  /// room for.
  var looksAroundBy = ContinuousClock.now
  /// The earliest deadline the fleet is known to have, microseconds.
  var knownEarliest: Int64?
  /// Fold rounds that left a first emission waiting for want of room here
  /// without telling the fleet (this process's delivery loop was to take
  /// it), counted; and how many of them a delivery round has handled since.
  /// While one is not, the next delivery round (it makes its call even
  /// with no room) has `pace_settle` tell the fleet if its room runs out
  /// before its look reaches every free first emission (the next emission
  /// of a key it finished took the room, or there was none): once per such
  /// fold, not at every round, as a backlog would have it.
  var untoldWaits: UInt64 = 0
  var handledWaits: UInt64 = 0
  var stopping = false
  /// Whether `run()` runs: only then are this process's sends remembered.
  var workerRuns = false
  /// Set once the delivery loop stops: its rounds only remove what finished.
  var claimsNothing = false
  /// Room that a fold or a delivery round in progress may lease into.
  var reserved = 0
  /// The fold round in progress, and the room it reserved (part of
  /// `reserved`), until the fold loop ends it.
  var foldRound: (number: UInt64, reserved: Int)?
  /// How many fold rounds began: tells a round from a later one.
  var foldRounds: UInt64 = 0
  /// Set when a delivery round looks around while a fold round holds room
  /// (a fire round reserves all that is free, for its one statement): the
  /// look may find too little, and is put off (`deliveryLooks`) until a
  /// poke that nothing else would send. The fold round's end sends it.
  var lookAwaitsFoldRoom = false
  /// Set once the fold loop has ended: no fold leases here any more.
  var foldEnded = false
  var schemaChecked = false

  /// Whether a fold left a first emission waiting that no delivery round
  /// has yet told the fleet of, or found taken.
  var hasUntoldWait: Bool { untoldWaits > handledWaits }

  /// A delivery round handled the waits left untold up to `count` (see
  /// `untoldWaits`): it told the fleet, or found none still waiting.
  mutating func untoldWaitsHandled(upTo count: UInt64) {
    handledWaits = max(handledWaits, count)
  }

  /// The delivery loop must look around by `instant` at the latest.
  mutating func lookAround(by instant: ContinuousClock.Instant) {
    looksAroundBy = min(looksAroundBy, instant)
  }

  /// Whether a round of the fold loop that an alarm woke has the delivery
  /// loop look around: when one is due by `now`. The next is then due a
  /// `safetyPoll` later, unless a lease, an emission given back or a
  /// notification makes it due sooner.
  mutating func startsLookAround(at now: ContinuousClock.Instant, safetyPoll: Duration) -> Bool {
    guard now >= looksAroundBy else { return false }
    looksAroundBy = now + safetyPoll
    deliveryLooks = true
    return true
  }

  /// Room no handler, leased emission or reservation takes; below zero
  /// while finished handlers still count.
  private func freeRoom(_ maximum: Int) -> Int {
    maximum - delivering.count - ready.count - reserved
  }

  /// A fold round begins: it has reserved nothing yet.
  mutating func beginFoldRound() -> UInt64 {
    foldRounds += 1
    foldRound = (foldRounds, 0)
    return foldRounds
  }

  /// Reserves, and returns, the room fold round `number` may lease into:
  /// at most `wanted` (as many emissions as may lead their keys' lines), as
  /// late as it knows them, so that a fold that emits nothing (most folds of
  /// a process's own sends) never holds room a delivery round needs. (A
  /// fire round asks for all the free room, for the one statement in which
  /// it learns its emissions.) None once the round was ended (it ran out of
  /// time and answered late).
  mutating func reserveFoldRoom(_ maximum: Int, wanted: Int, round number: UInt64) -> Int {
    guard foldRound?.number == number, !claimsNothing else { return 0 }
    let room = max(0, min(wanted, freeRoom(maximum)))
    reserved += room
    foldRound?.reserved += room
    return room
  }

  /// Whether a fold tells the fleet of a first emission it leaves waiting
  /// for want of room: when each of this process's `maximum` places is
  /// held by a handler that runs or is about to start (this fold's own
  /// leases included), or it stops. Else the room it lacked was held only
  /// by handlers that finished and wait for their removal, or by a claim in
  /// flight, and its own delivery loop, which the fold has look around,
  /// takes the emission.
  func tellsFleet(_ maximum: Int) -> Bool {
    let held = delivering.count - finished.count + ready.count + (foldRound?.reserved ?? 0)
    return stopping || claimsNothing || held >= maximum
  }

  /// Fold round `number` ended, however it ended: its room is released.
  /// Called with what it leased added to `ready` in the same lock, so that
  /// the room is never free and taken at once. Returns whether a delivery
  /// round looked around while this round held room (see
  /// `lookAwaitsFoldRoom`): the delivery loop must be woken to look again.
  @discardableResult
  mutating func endFoldRound(_ number: UInt64) -> Bool {
    guard let round = foldRound, round.number == number else { return false }
    reserved -= round.reserved
    foldRound = nil
    defer { lookAwaitsFoldRoom = false }
    return lookAwaitsFoldRoom
  }

  /// Reserves, and returns, how many emissions a delivery round may claim:
  /// its room, counting the finished ones it removes first, and not what a
  /// fold reserved; when not `lookingAround`, no more than one for each
  /// finished emission (the next of its key). Reserved until the round's
  /// claims are in `delivering`: a fold meanwhile cannot lease into the
  /// same room. A look made while a fold round holds room may find too
  /// little: it sets `lookAwaitsFoldRoom`, so that the round's end wakes
  /// the delivery loop to look again.
  mutating func reserveClaimRoom(_ maximum: Int, lookingAround: Bool) -> Int {
    var room = claimsNothing ? 0 : max(0, freeRoom(maximum) + finished.count)
    if !lookingAround { room = min(room, finished.count) }
    if lookingAround, !claimsNothing, (foldRound?.reserved ?? 0) > 0 { lookAwaitsFoldRoom = true }
    reserved += room
    return room
  }
}

/// An emission leased to this process, as the database returned it.
struct LeasedEmission: Sendable {
  var id: Int64
  var key: String
  var value: String
  var emittedMicros: Int64
  var delivery: Int
}

/// What a worker did, counted: for tests and the benchmark.
package struct FleetCounters: Sendable {
  package var sends = 0
  package var statements = 0
  package var folds = 0
  package var notifications = 0
  package var deliveries = 0
  package var lostLeases = 0
  /// How many times the schema's version was read (a worker waiting for a
  /// migration reads it again and again).
  package var schemaReads = 0
  package var handlerFailures = 0
  package var failedRounds = 0

  package init() {}
}

extension Date {
  init(micros: Int64) {
    self.init(timeIntervalSince1970: Double(micros) / 1_000_000)
  }
}

extension Duration {
  var microseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
  }
}
