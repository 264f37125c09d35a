//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import Pace
import PacePostgres
import PostgresNIO
import Synchronization
import Testing

/// Fleet pacers against a real PostgreSQL 15, in one process: sends, folds,
/// deadlines and deliveries.
@Suite(
  .postgresServer,
  .enabled(if: TestPostgresServer.binaries != nil, Comment(rawValue: TestPostgresServer.skipMessage)),
  .timeLimit(.minutes(3))
)
struct FleetPacerTests {
  let namespace = try! PaceNamespace("fleet")

  @Test func debounce_burstPerKey_emitsEachKeysLatestAtItsQuietDeadline() async throws {
    try await withFleet { client in
      let log = EmissionLog<String>()
      // Intervals are wide: a loaded machine (CI) may take a second or more
      // between sends (each a round trip), which must stay one burst.
      let pacer = FleetPacer(.debounce(for: .seconds(5)), name: "saves", namespace: namespace, client: client, logger: testLogger) {
        (emission: FleetEmission<String, String>) in log.record(emission)
      }
      try await running(pacer) {
        var last: Date?
        for draft in ["a", "b", "c"] { last = try await pacer.send(draft, for: "doc-1") }
        let other = try await pacer.send("x", for: "doc-2")
        let entries = try await log.wait { $0.count == 2 }
        // Not `uniqueKeysWithValues`: a key emitted twice fails the test, not the process.
        let byKey = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byKey.count == 2, "\(entries.map { "\($0.key) \($0.value)" })")
        #expect(byKey["doc-1"]?.value == "c")
        #expect(byKey["doc-2"]?.value == "x")
        #expect(byKey["doc-1"].map { micros($0.emittedAt) } == last.map { micros($0) + 5_000_000 })
        #expect(byKey["doc-2"].map { micros($0.emittedAt) } == micros(other) + 5_000_000)
        #expect(entries.allSatisfy { $0.delivery == 1 })
      }
      // Both keys' bursts ended and were delivered: no rows are left.
      #expect(try await count("keys", on: client) == 0)
      #expect(try await count("outbox", on: client) == 0)
      #expect(try await count("sends", on: client) == 0)
    }
  }

  @Test func twoNamespacesOnOneClient_namesAlikeButTheLast_eachPacerSendsToItsOwn() async throws {
    // The calls are prepared per connection, by name: two namespaces whose
    // names are alike for 62 characters, on one client (one pool), must
    // never run each other's statements.
    let prefix = "n" + String(repeating: "a", count: 61)
    let first = try PaceNamespace(prefix + "1")
    let second = try PaceNamespace(prefix + "2")
    try await withMigratedNamespace(first) { client in
      try await PaceSchema(namespace: second).migrate(on: client)
      let logs = [EmissionLog<String>(), EmissionLog<String>()]
      let pacers = [first, second].enumerated().map { index, namespace in
        FleetPacer(.debounce(for: .milliseconds(300)), name: "saves", namespace: namespace, client: client, logger: testLogger) {
          (emission: FleetEmission<String, String>) in logs[index].record(emission)
        }
      }
      try await running(pacers[0]) {
        try await running(pacers[1]) {
          for round in 0..<5 {
            try await pacers[0].send("first \(round)", for: "doc")
            try await pacers[1].send("second \(round)", for: "doc")
          }
          #expect(try await logs[0].wait { !$0.isEmpty }.map(\.value) == ["first 4"])
          #expect(try await logs[1].wait { !$0.isEmpty }.map(\.value) == ["second 4"])
        }
      }
    }
  }

  @Test func throttle_leadingAndTrailing_emitsFirstAtOnceAndLatestAtWindowEnd() async throws {
    try await withFleet { client in
      let log = EmissionLog<Int>()
      // A window wide enough that the three sends (round trips) fall in it on a loaded machine.
      let pacer = FleetPacer(.throttle(for: .seconds(5)), name: "progress", namespace: namespace, client: client) {
        (emission: FleetEmission<String, Int>) in log.record(emission)
      }
      try await running(pacer) {
        let first = try await pacer.send(1, for: "job")
        try await pacer.send(2, for: "job")
        try await pacer.send(3, for: "job")
        let entries = try await log.wait { $0.count == 2 }
        #expect(entries.map(\.value) == [1, 3])
        #expect(entries.first.map { micros($0.emittedAt) } == micros(first))
        #expect(entries.last.map { micros($0.emittedAt) } == micros(first) + 5_000_000)
        #expect(entries[0].id < entries[1].id)
      }
    }
  }

  @Test func stages_filterDistinctDebounce_storedPerKey_emitWhatThePipelineEmits() async throws {
    try await withFleet { client in
      let log = EmissionLog<String>()
      let stages: PacingPipeline<String, DriverInstant> = .stages(
        .filter { !$0.isEmpty }, .distinct(), .debounce(for: .milliseconds(300)))
      let pacer = FleetPacer(stages, name: "search", namespace: namespace, client: client) {
        (emission: FleetEmission<String, String>) in log.record(emission)
      }
      // The oracle: each key's sends, at the instants the database recorded,
      // through one in-memory runner of the same stages.
      var sent: [String: [(value: String, micros: Int64)]] = [:]
      func send(_ value: String, for key: String) async throws {
        sent[key, default: []].append((value, micros(try await pacer.send(value, for: key))))
      }
      try await running(pacer) {
        // "" is filtered; a repeated "sw" is dropped by distinct.
        for query in ["s", "", "sw", "sw", "swift"] { try await send(query, for: "field-1") }
        try await send("pace", for: "field-2")
        _ = try await log.wait { entries in entries.contains { $0.key == "field-1" } }
        // distinct's memory is stored between folds: "swift" again is dropped.
        try await send("swift", for: "field-1")
        try await send("done", for: "field-2")
        var expected: [String] = []
        for (key, sends) in sent {
          var runner = PacingRunner(stages)
          let emit: (PacingEvent<String>, DriverInstant) -> Void = { event, instant in
            if case .value(let value) = event { expected.append("\(key) \(value) @\(instant.nanoseconds / 1000)") }
          }
          runner.start(at: DriverInstant(nanoseconds: sends[0].micros * 1000), emit)
          for send in sends { runner.send(send.value, at: DriverInstant(nanoseconds: send.micros * 1000), emit) }
          runner.fireAllTimers(emit)
        }
        _ = try await log.wait { $0.count == expected.count }
        try await Task.sleep(for: .milliseconds(500))  // nothing more comes
        let delivered = log.all.map { "\($0.key) \($0.value) @\(micros($0.emittedAt))" }
        #expect(delivered.sorted() == expected.sorted())
        #expect(expected.filter { $0.hasPrefix("field-1 swift") }.count == 1, "distinct dropped the second swift")
      }
    }
  }

  @Test func waitUntilSettled_returnsOnceSendsAreFoldedNothingIsPendingAndAllIsDelivered() async throws {
    try await withFleet { client in
      let log = EmissionLog<String>()
      let entered = EmissionLog<String>()
      let release = AsyncGate()
      // A window long enough that the three sends fall in it even on a
      // loaded machine (each send is a round trip).
      let pacer = FleetPacer(.throttle(for: .seconds(5)), name: "jobs", namespace: namespace, client: client) {
        (emission: FleetEmission<String, String>) in
        if emission.value == "c" {
          entered.record(emission)
          await release.wait()
        }
        log.record(emission)
      }
      try await running(pacer) {
        // Leading "a" at once; "c" pending for the window's end; its
        // handler then waits at the gate.
        for value in ["a", "b", "c"] { try await pacer.send(value, for: "k") }
        try await pacer.send("x", for: "other")
        let returned = Mutex(false)
        let settled = Task {
          try await pacer.waitUntilSettled(["k"], checkingEvery: .milliseconds(20))
          returned.withLock { $0 = true }
        }
        _ = try await log.wait { $0.contains { $0.value == "a" } }
        _ = try await entered.wait { !$0.isEmpty }  // the window ended: "c" is in its handler
        try await Task.sleep(for: .milliseconds(100))  // a wrong early return has its chance
        #expect(log.all.map(\.value).filter { $0 != "x" } == ["a"], "c's handler still waits")
        #expect(!returned.withLock { $0 }, "not settled while c waits to be delivered")
        await release.open()
        try await settled.value
        #expect(log.all.map(\.value).filter { $0 != "x" } == ["a", "c"], "settled only once c was delivered")
        try await pacer.waitUntilSettled(["k", "other"])
        try await pacer.waitUntilSettled([String]())
      }
    }
  }

  @Test func triggerDuringSlowHandler_oneMoreDeliveryAfterIt_withTheLatestValue_neverConcurrent() async throws {
    try await withFleet { client in
      let log = EmissionLog<String>()
      let spans = Mutex<[(value: String, start: ContinuousClock.Instant, end: ContinuousClock.Instant)]>([])
      let release = AsyncGate()
      let handler: @Sendable (FleetEmission<String, String>) async throws -> Void = { emission in
        let start = ContinuousClock.now
        log.record(emission)
        if emission.value == "first" { await release.wait() }
        spans.withLock { $0.append((emission.value, start, .now)) }
      }
      // Two workers share the pacer, as two processes would.
      // Five quiet seconds: the burst's two sends, from two workers, stay one
      // burst on a loaded machine.
      let a = FleetPacer(.debounce(for: .seconds(5)), name: "builds", namespace: namespace, client: client, handler: handler)
      let b = FleetPacer(.debounce(for: .seconds(5)), name: "builds", namespace: namespace, client: client, handler: handler)
      // Whatever happens, the gate opens at the end: a handler left waiting
      // would hold the workers' shutdown.
      defer { Task { await release.open() } }
      try await running(a) {
        try await running(b) {
          try await a.send("first", for: "repo")
          _ = try await log.wait { $0.count == 1 }
          // The handler of "first" runs; a burst arrives, from both workers.
          try await b.send("second", for: "repo")
          try await a.send("third", for: "repo")
          // Its emission is committed, and waits behind the running one.
          try await waitForOutbox(count: 2, client)
          try await Task.sleep(for: .milliseconds(200))
          #expect(log.all.map(\.value) == ["first"])
          await release.open()
          let entries = try await log.wait { $0.count == 2 }
          #expect(entries.map(\.value) == ["first", "third"])
        }
      }
      let done = spans.withLock { $0 }
      #expect(done.map(\.value) == ["first", "third"])
      if done.count == 2 { #expect(done[0].end <= done[1].start, "the second delivery began after the first ended") }
    }
  }

  @Test func workerCancelledMidHandler_returnsAndGivesTheLeaseBackForAnotherAtOnce() async throws {
    try await withFleet { client in
      let started = EmissionLog<String>()
      let delivered = EmissionLog<String>()
      let stuck = FleetPacer(.debounce(for: .milliseconds(50)), name: "jobs", namespace: namespace, client: client) {
        (emission: FleetEmission<String, String>) in
        started.record(emission)
        try await Task.sleep(for: .seconds(3600))  // until cancelled
      }
      let other = FleetPacer(.debounce(for: .milliseconds(50)), name: "jobs", namespace: namespace, client: client) {
        (emission: FleetEmission<String, String>) in delivered.record(emission)
      }
      let worker = Task { try await stuck.run() }
      try await stuck.send("build", for: "repo")
      _ = try await started.wait { $0.count == 1 }
      let cancelledAt = ContinuousClock.now
      worker.cancel()
      try await worker.value
      #expect(ContinuousClock.now - cancelledAt < .seconds(10), "run() returned promptly once cancelled")
      // The lease (30 s by default) was given back: another worker delivers it now.
      try await running(other) {
        let entries = try await delivered.wait(for: .seconds(20)) { $0.count == 1 }
        #expect(entries.first?.value == "build")
        #expect(entries.first?.delivery == 2)
        #expect(entries.first?.id == started.all.first?.id)
      }
    }
  }

  @Test func moreEmissionsThanRoom_allDelivered_neverMoreHandlersAtOnceThanAllowed() async throws {
    try await withFleet { client in
      let log = EmissionLog<Int>()
      let busy = Mutex((now: 0, most: 0))
      var configuration = FleetConfiguration()
      configuration.maximumConcurrentDeliveries = 2
      // A leading throttle emits at the fold: 12 keys' emissions, one fold,
      // room for two. The rest wait, and are claimed as handlers end (not
      // at the safety poll, which this test would outlast).
      configuration.safetyPollInterval = .seconds(60)
      let pacer = FleetPacer(
        .throttle(for: .seconds(60), edges: .leading), name: "jobs", namespace: namespace, client: client,
        configuration: configuration
      ) { (emission: FleetEmission<String, Int>) in
        busy.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
        try await Task.sleep(for: .milliseconds(20))
        busy.withLock { $0.now -= 1 }
        log.record(emission)
      }
      try await running(pacer) {
        for key in 0..<12 { try await pacer.send(key, for: "key-\(key)") }
        let entries = try await log.wait(for: .seconds(20)) { $0.count == 12 }
        #expect(Set(entries.map(\.value)) == Set(0..<12))
        #expect(entries.allSatisfy { $0.delivery == 1 })
      }
      #expect(busy.withLock { $0.most } <= 2)
      #expect(try await count("outbox", on: client) == 0)
    }
  }

  @Test func stoppingWorker_foldsEverySendItHolds_batchByBatch() async throws {
    try await withFleet { client in
      var configuration = FleetConfiguration()
      // Sends are held for the whole test, and no alarm rings meanwhile.
      configuration.foldGrace = .seconds(120)
      configuration.foldInterval = .seconds(60)
      configuration.safetyPollInterval = .seconds(60)
      configuration.foldBatchSize = 2
      let pacer = FleetPacer(
        .debounce(for: .seconds(60)), name: "saves", namespace: namespace, client: client, configuration: configuration
      ) { (_: FleetEmission<String, Int>) in }
      try await running(pacer) {
        // Sends are held once the worker's first round began, until a wake
        // that is not a send's: its listener's, once it listens. Both have
        // come and gone once it listens and its rounds have stopped. (A wake
        // later still, on a loaded machine, would fold the sends before the
        // stop: the test would then pass without showing anything, never fail.)
        let deadline = ContinuousClock.now + .seconds(20)
        while try await !listens(on: client), ContinuousClock.now < deadline {
          try await Task.sleep(for: .milliseconds(10))
        }
        try await untilQuiet(pacer, before: deadline)
        for key in 1...5 { try await pacer.send(key, for: "key-\(key)") }
      }
      // Batches of two, two and one, folded as the worker stopped: none
      // waits for another process's fold grace.
      #expect(try await count("sends", on: client) == 0)
    }
  }

  @Test func emissionLeftForWantOfRoom_anotherProcessTold_deliversItBeforeItsSafetyPoll() async throws {
    try await withFleet { client in
      let holding = Mutex(false)
      let released = Mutex(false)
      let delivered = EmissionLog<String>()
      var configuration = FleetConfiguration()
      configuration.safetyPollInterval = .seconds(60)  // longer than this test may take
      var one = configuration
      one.maximumConcurrentDeliveries = 1
      // Room for one handler, held by key "a" until the test lets it go.
      let full = FleetPacer(
        .throttle(for: .seconds(60), edges: .leading), name: "jobs", namespace: namespace, client: client,
        configuration: one
      ) { (emission: FleetEmission<String, String>) in
        guard emission.key == "a" else { return }
        holding.withLock { $0 = true }
        while !released.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
      }
      let idle = FleetPacer(
        .throttle(for: .seconds(60), edges: .leading), name: "jobs", namespace: namespace, client: client,
        configuration: configuration
      ) { (emission: FleetEmission<String, String>) in delivered.record(emission) }
      let deadline = ContinuousClock.now + .seconds(20)
      try await running(full) {
        // `full`'s worker runs (it read the schema) before it sends: a send
        // made before it runs is not its to fold at once. Its handler then
        // holds "a", before `idle` runs: no other process could take it.
        while full.counters.withLock({ $0.schemaReads }) == 0, ContinuousClock.now < deadline {
          try await Task.sleep(for: .milliseconds(10))
        }
        try await full.send("first", for: "a")
        while !holding.withLock({ $0 }), ContinuousClock.now < deadline {
          try await Task.sleep(for: .milliseconds(10))
        }
        try #require(holding.withLock { $0 }, "full's handler never began to hold \"a\"")
        try await running(idle) {
          // `idle` listens, and the looks around that its start and its
          // listener make have come and gone: only a notification has it
          // look again before its safety poll. (On a loaded machine a look
          // may come later still and find "b": the test would then pass
          // without showing anything, never fail.)
          while try await listeners(on: client) < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
          }
          try await untilQuiet(idle, before: deadline)
          // Folded by `full`, which has no room: the emission waits, and the
          // fold tells the fleet, so `idle` looks and delivers it.
          let sentAt = ContinuousClock.now
          try await full.send("second", for: "b")
          let entries: [EmissionLog<String>.Entry]
          do {
            entries = try await delivered.wait(for: .seconds(20)) { $0.contains { $0.key == "b" } }
          } catch {
            // What each worker did, and what waits: a failure says why.
            Issue.record(
              """
              \(error); full: \(full.counters.withLock { $0 }); idle: \(idle.counters.withLock { $0 }); \
              outbox: \((try? await outbox(on: client)).map { "\($0)" } ?? "unread"); \
              listeners: \((try? await listeners(on: client)).map { "\($0)" } ?? "unread")
              """)
            throw error
          }
          #expect(entries.map(\.key) == ["b"])
          #expect(entries.first?.delivery == 1)
          #expect(ContinuousClock.now - sentAt < .seconds(20))
        }
        released.withLock { $0 = true }
      }
      #expect(try await count("outbox", on: client) == 0)
    }
  }

  /// A process that only sends (its worker does not run) tells the fleet of
  /// its debounce's deadline whenever the one it told before has passed:
  /// another process's worker fires each on time, not at its safety poll.
  @Test func senderWithoutWorker_debounceDeadlinesReachTheFleetBeforeItsSafetyPoll() async throws {
    try await withFleet { client in
      let delivered = EmissionLog<String>()
      var configuration = FleetConfiguration()
      configuration.safetyPollInterval = .seconds(60)  // longer than this test may take
      let sender = FleetPacer(
        .debounce(for: .milliseconds(200)), name: "saves", namespace: namespace, client: client,
        configuration: configuration
      ) { (_: FleetEmission<String, String>) in Issue.record("the sender's worker does not run") }
      let worker = FleetPacer(
        .debounce(for: .milliseconds(200)), name: "saves", namespace: namespace, client: client,
        configuration: configuration
      ) { (emission: FleetEmission<String, String>) in delivered.record(emission) }
      try await running(worker) {
        // The worker listens, and otherwise sleeps until its safety poll.
        let started = ContinuousClock.now + .seconds(20)
        while try await !listens(on: client), ContinuousClock.now < started {
          try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try await listens(on: client))
        for (round, key) in ["doc-1", "doc-2", "doc-3"].enumerated() {
          try await sender.send("draft", for: key)
          // Delivered within 20 s (the wait throws otherwise): long before
          // the worker's 60 s safety poll, so it was told.
          let entries = try await delivered.wait(for: .seconds(20)) { $0.count == round + 1 }
          #expect(entries.last?.key == key)
        }
      }
      // One notification a deadline here: each came after the last had passed.
      #expect(sender.counters.withLock { $0.notifications } == 3)
      #expect(try await count("keys", on: client) == 0)
    }
  }

  @Test func shutDownAskedBeforeRun_endsItAtOnce_andALaterRunWorks() async throws {
    try await withFleet { client in
      let log = EmissionLog<String>()
      let pacer = FleetPacer(
        .throttle(for: .seconds(60), edges: .leading), name: "jobs", namespace: namespace, client: client
      ) { (emission: FleetEmission<String, String>) in log.record(emission) }
      // As the command line does when its input is empty: asked to stop
      // before the worker's task began. The worker must not run on.
      pacer.shutDownGracefully()
      try await pacer.run()
      try await running(pacer) {
        try await pacer.send("run", for: "nightly")
        let entries = try await log.wait { $0.count == 1 }
        #expect(entries.map(\.value) == ["run"])
      }
    }
  }

  @Test func policyWithNoDeadlineThatIsKept_staysWithNoDueInstant() async throws {
    try await withFleet { client in
      let log = EmissionLog<Int>()
      let pacer = FleetPacer(EveryOther<Int>(), name: "every-other", namespace: namespace, client: client) {
        (emission: FleetEmission<String, Int>) in log.record(emission)
      }
      try await running(pacer) {
        for value in 1...5 { try await pacer.send(value, for: "k") }
        let entries = try await log.wait { $0.count == 3 }
        #expect(entries.map(\.value) == [1, 3, 5])
      }
      // The key is kept (the policy remembers), with nothing due: no worker looks at it again.
      let rows = try await client.query("SELECT count(*) FROM fleet.keys WHERE due_at IS NULL AND state IS NOT NULL")
      for try await kept in rows.decode(Int.self) { #expect(kept == 1) }
    }
  }

  // MARK: - Helpers

  private func waitForOutbox(count: Int, _ client: PostgresClient) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while try await self.count("outbox", on: client) < count {
      guard ContinuousClock.now < deadline else { throw FleetRunFailure(description: "outbox never reached \(count)") }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  private func withFleet(_ body: (PostgresClient) async throws -> Void) async throws {
    try await withMigratedNamespace(namespace, body)
  }

  /// Returns once `pacer`'s worker made no statement for 100 ms (its rounds
  /// have come and gone), or at `deadline`.
  private func untilQuiet<Key, Machine>(_ pacer: FleetPacer<Key, Machine>, before deadline: ContinuousClock.Instant)
    async throws
  {
    var statements = -1
    while pacer.counters.withLock({ $0.statements }) != statements, ContinuousClock.now < deadline {
      statements = pacer.counters.withLock { $0.statements }
      try await Task.sleep(for: .milliseconds(100))
    }
  }

  /// Whether a connection to this test's database listens for notifications.
  private func listens(on client: PostgresClient) async throws -> Bool {
    try await listeners(on: client) > 0
  }

  /// How many connections to this test's database listen for notifications.
  private func listeners(on client: PostgresClient) async throws -> Int {
    let rows = try await client.query(
      "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'")
    for try await count in rows.decode(Int.self) { return count }
    return 0
  }

  /// The outbox's rows, for a failure's message.
  private func outbox(on client: PostgresClient) async throws -> [String] {
    let rows = try await client.query(
      "SELECT id || ' ' || key || ' ' || coalesce(lease_owner || ' until ' || lease_expires_at, 'free') || ' delivery ' || deliveries FROM \(unescaped: namespace.quoted).outbox ORDER BY id")
    var lines: [String] = []
    for try await line in rows.decode(String.self) { lines.append(line) }
    return lines
  }

  private func count(_ table: String, on client: PostgresClient) async throws -> Int {
    let rows = try await client.query("SELECT count(*) FROM \(unescaped: namespace.quoted).\(unescaped: table)")
    for try await count in rows.decode(Int.self) { return count }
    return 0
  }
}

/// Microseconds since the Unix epoch: the database's precision, compared
/// exactly (a `Date` is a `Double` of seconds).
func micros(_ date: Date) -> Int64 {
  Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
}

/// A logger for the pacers under test: silent unless PACE_TEST_LOG is set.
let testLogger: Logger = {
  guard ProcessInfo.processInfo.environment["PACE_TEST_LOG"] != nil else { return PaceSchema.silentLogger }
  var logger = Logger(label: "pace.test", factory: { StreamLogHandler.standardError(label: $0) })
  logger.logLevel = .debug
  return logger
}()

/// A policy of one's own with state and no deadline, never discardable:
/// every other value.
struct EveryOther<Value: Codable & Sendable>: StorablePacingStateMachine, Sendable {
  var skipNext = false
  var deadline: DriverInstant? { nil }
  mutating func valueReceived(_ value: Value, at now: DriverInstant) -> PacingAction<Value> {
    defer { skipNext.toggle() }
    return skipNext ? .none : .emit(value)
  }
  mutating func timerFired(at now: DriverInstant) -> PacingAction<Value> { .none }
  mutating func upstreamFinished(at now: DriverInstant) -> PacingAction<Value> { .finish }
  mutating func upstreamFailed(at now: DriverInstant) -> PacingAction<Value> { .fail }
  func encodeState(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(skipNext)
  }
  mutating func decodeState(from decoder: any Decoder) throws {
    skipNext = try decoder.singleValueContainer().decode(Bool.self)
  }
}

/// A gate that tasks wait at until it is opened (or they are cancelled).
final class AsyncGate: Sendable {
  private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

  func wait() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resume = state.withLock { state -> Bool in
          if state.open || Task.isCancelled { return true }
          state.waiters.append(continuation)
          return false
        }
        if resume { continuation.resume() }
      }
    } onCancel: {
      Task { await self.open() }
    }
  }

  func open() async {
    let waiters = state.withLock { state in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// Runs `body` while `pacer`'s worker runs, then stops the worker gracefully.
func running<Key, Machine>(
  _ pacer: FleetPacer<Key, Machine>, _ body: () async throws -> Void
) async throws {
  try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await pacer.run() }
    do {
      try await body()
    } catch {
      group.cancelAll()
      throw error
    }
    pacer.shutDownGracefully()
    try await group.waitForAll()
  }
}
