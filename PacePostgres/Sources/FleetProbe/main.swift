//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// One process of a fleet under test. It connects to the database on a Unix
// socket, runs a worker for each pacer of the seeded scenario, waits for the
// start file, sends its share of events, and runs on until the fleet is idle
// (no key, send or emission left, and every probe done sending). It prints
// each emission its handlers received, one line each, as the handler
// returns, and a last line of counts:
//
//   H <id>              (a handler starts)
//   E <pacer> <key> <value> <id> <emitted µs> <delivery> <realtime ns>
//   S sends=… statements=… notifications=… folds=… deliveries=… lostLeases=… seconds=… cpu=…
//
// With --leading-throttle-ms W every key is one pacer's: a leading-edge
// throttle of window W ("run at most once per window"). With --naive, that
// throttle is the hand-rolled read-then-write that job code often has, for
// the contrast. --in-order sends to the keys in turn, as every process does.
//
// For the benchmark (PacePostgres/Benchmarks/fleet-compare): --duration-s D
// sends to uniformly random keys for D seconds; --debounce-ms M makes every
// key one trailing debounce; --floor does a bare upsert per send instead
// (--prepared: the same upsert as a statement prepared once per connection);
// --polls-only makes the workers poll once a second, as job systems do;
// --reference-lifecycle runs a minimal at-least-once fleet debounce instead,
// not a pacer (ReferenceLifecycle.swift), claiming at most every
// --claim-gap-ms G (15 by default);
// --fold-interval-ms F sets FleetConfiguration.foldInterval; --rate R sends
// R a second (evenly spaced) rather than back to back: a load the machine
// keeps up with, where lateness is the pacer's and not the queue's.

import FleetScenario
import Foundation
import Logging
import Pace
import PacePostgres
import PostgresNIO
import Synchronization

struct Options {
  var socket = ""
  var database = ""
  var namespace = "fleet"
  var seed: UInt64 = 1
  var pacers = 6
  var keys = 1000
  var process = 0
  var processes = 4
  var sends = 1000
  var handlerMilliseconds = 0
  var foldIntervalMilliseconds: Int?
  var leaseMilliseconds = 30_000
  var start = ""
  var pauses = true
  var naive = false
  var inOrder = false
  var leadingThrottleMilliseconds: Int64?
  var debounceMilliseconds: Int64?
  var durationSeconds: Double?
  var rate: Double?
  var floor = false
  var prepared = false
  var referenceLifecycle = false
  var claimGapMilliseconds = 15
  var pollsOnly = false
  var migrate = false

  init(_ arguments: [String]) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      let value = { iterator.next() ?? "" }
      switch argument {
      case "--socket": socket = value()
      case "--database": database = value()
      case "--namespace": namespace = value()
      case "--seed": seed = UInt64(value()) ?? 1
      case "--pacers": pacers = Int(value()) ?? 6
      case "--keys": keys = Int(value()) ?? 1000
      case "--process": process = Int(value()) ?? 0
      case "--processes": processes = Int(value()) ?? 4
      case "--sends": sends = Int(value()) ?? 1000
      case "--handler-ms": handlerMilliseconds = Int(value()) ?? 0
      case "--fold-interval-ms": foldIntervalMilliseconds = Int(value())
      case "--lease-ms": leaseMilliseconds = Int(value()) ?? 30_000
      case "--start": start = value()
      case "--no-pauses": pauses = false
      case "--naive": naive = true
      case "--in-order": inOrder = true
      case "--leading-throttle-ms": leadingThrottleMilliseconds = Int64(value())
      case "--debounce-ms": debounceMilliseconds = Int64(value())
      case "--duration-s": durationSeconds = Double(value())
      case "--rate":
        guard let perSecond = Double(value()), perSecond > 0 else { fatalError("--rate takes a number of sends a second above 0") }
        rate = perSecond
      case "--floor": floor = true
      case "--prepared": prepared = true
      case "--reference-lifecycle": referenceLifecycle = true
      case "--claim-gap-ms": claimGapMilliseconds = Int(value()) ?? 15
      case "--polls-only": pollsOnly = true
      case "--migrate": migrate = true
      default: fatalError("unknown argument \(argument)")
      }
    }
  }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
/// Writes a line at once, unbuffered: a line written before a kill is kept.
func say(_ line: String) {
  // A summary also says the CPU this process used so far, user and system
  // (`cpu=` seconds), for fleet-compare's CPU a send.
  let line = line.hasPrefix("S ") ? "\(line) cpu=\(processorSeconds())" : line
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The CPU time this process used so far, user and system, in seconds.
func processorSeconds() -> Double {
  var usage = rusage()
  guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return .nan }
  let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
  return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

let logger: Logger = {
  var logger = Logger(label: "probe.\(options.process)", factory: { StreamLogHandler.standardError(label: $0) })
  logger.logLevel = ProcessInfo.processInfo.environment["PACE_TEST_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .warning
  return logger
}()

let scenario =
  options.debounceMilliseconds.map {
    FleetScenario(
      pacers: [.init(name: "p0", kind: .debounceTrailing, intervalMilliseconds: $0, maxWaitMilliseconds: nil)],
      keyCount: options.keys)
  } ?? options.leadingThrottleMilliseconds.map {
    FleetScenario(
      pacers: [.init(name: "p0", kind: .throttleLeading, intervalMilliseconds: $0, maxWaitMilliseconds: nil)],
      keyCount: options.keys)
  } ?? FleetScenario(seed: options.seed, pacerCount: options.pacers, keyCount: options.keys)
let namespace = try PaceNamespace(options.namespace)
let client = PostgresClient(
  configuration: .init(unixSocketPath: options.socket, username: "pace", password: nil, database: options.database),
  backgroundLogger: logger)

func realtimeNanos() -> Int64 {
  var spec = timespec()
  clock_gettime(CLOCK_REALTIME, &spec)
  return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}

func handle(_ pacer: String, _ emission: FleetEmission<String, String>) async throws {
  // Handler starts are for the tests (a kill mid-handler). A timed run
  // reads only "E" lines, and writes one line a delivery, as the reference
  // does: the probe's own writes are not Pace's cost.
  if options.durationSeconds == nil { say("H \(emission.id)") }
  if options.handlerMilliseconds > 0 { try await Task.sleep(for: .milliseconds(options.handlerMilliseconds)) }
  say(
    "E \(pacer) \(emission.key) \(emission.value) \(emission.id) \(Int64((emission.emittedAt.timeIntervalSince1970 * 1_000_000).rounded())) \(emission.delivery) \(realtimeNanos())"
  )
}

let configuration = {
  var configuration = FleetConfiguration()
  configuration.lease = .milliseconds(options.leaseMilliseconds)
  configuration.keepsSendLog = options.durationSeconds == nil
  configuration.safetyPollInterval = .seconds(1)
  configuration.pollsOnly = options.pollsOnly
  if let interval = options.foldIntervalMilliseconds { configuration.foldInterval = .milliseconds(interval) }
  return configuration
}()

/// Sends one value for the key of number `index`; returns whether it was sent.
typealias Sender = @Sendable (_ index: Int, _ value: String) async throws -> Void

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func waitForStart() async throws {
  while !options.start.isEmpty, !FileManager.default.fileExists(atPath: options.start) {
    try await Task.sleep(for: .milliseconds(2))
  }
}

/// The share of sends of this process: seeded by the scenario and the process.
/// How many workers' `run()` returned.
let workersEnded = Mutex(0)

/// How many sends `sendAll` made.
let sent = Mutex(0)

func sendAll(_ send: Sender) async throws -> Duration {
  var random = ScenarioRandom(seed: options.seed &* 1_000_003 &+ UInt64(options.process))
  let clock = ContinuousClock()
  let started = clock.now
  if let seconds = options.durationSeconds {
    // The benchmark: uniformly random keys, back to back, for a while.
    let end = started + .milliseconds(Int64(seconds * 1000))
    var n = 0
    while clock.now < end {
      if let rate = options.rate {
        try await clock.sleep(until: started + .nanoseconds(Int64(Double(n) * 1e9 / rate)))
      }
      try await send(Int(random.next() % UInt64(scenario.keyCount)), "v\(options.process)-\(n)")
      n += 1
    }
    sent.withLock { $0 = n }
    return clock.now - started
  }
  for n in 0..<options.sends {
    // Skewed: low numbers are hot keys, with bursts; high ones are cold.
    let bound = random.next() % UInt64(scenario.keyCount) + 1
    let index = options.inOrder ? n % scenario.keyCount : Int(random.next() % bound)
    try await send(index, "v\(options.process)-\(n)")
    if options.pauses, random.next() % 40 == 0 {
      // A quiet spell now and then, so that bursts end and windows close mid-run.
      try await Task.sleep(for: .milliseconds(Int64(random.next() % 250)))
    }
  }
  return clock.now - started
}

func fleetIsIdle() async throws -> Bool {
  let ns = namespace.quoted
  let rows = try await client.query(
    """
    SELECT (SELECT count(*) FROM \(unescaped: ns).keys WHERE due_at < \(unescaped: ns).pace_now() + interval '10 s')
      + (SELECT count(*) FROM \(unescaped: ns).sends) + (SELECT count(*) FROM \(unescaped: ns).outbox),
      (SELECT count(*) FROM public.probe_done)
    """)
  for try await (left, done) in rows.decode((Int, Int).self) { return left == 0 && done >= options.processes }
  return false
}

func markDone() async throws {
  try await client.query("INSERT INTO public.probe_done (process) VALUES (\(options.process)) ON CONFLICT DO NOTHING")
}

try await withThrowingTaskGroup(of: Void.self) { group in
  group.addTask { await client.run() }
  if options.migrate {
    try await PaceSchema(namespace: namespace).migrate(on: client)
    try await client.query("CREATE TABLE IF NOT EXISTS public.probe_done (process integer PRIMARY KEY)")
  }

  if options.floor {
    // The floor: one INSERT … ON CONFLICT DO UPDATE round trip per send, same client.
    // After the start (the client runs by then): the table is made by the migrating run.
    try await waitForStart()
    try await client.query("CREATE TABLE IF NOT EXISTS public.floor (key text PRIMARY KEY, value text)")
    let elapsed = try await sendAll { index, value in
      if options.prepared {
        // The same upsert prepared once per connection, as Pace's frequent calls are.
        for try await _ in try await client.execute(FloorUpsert(key: scenario.key(index).key, value: value)) {}
      } else {
        try await client.query(
          """
          INSERT INTO public.floor (key, value) VALUES (\(scenario.key(index).key), \(value))
          ON CONFLICT (key) DO UPDATE SET value = excluded.value
          """)
      }
    }
    say("S sends=\(sent.withLock { $0 }) statements=\(sent.withLock { $0 }) seconds=\(seconds(elapsed))")
    group.cancelAll()
    return
  }

  if options.referenceLifecycle {
    try await waitForStart()
    try await runReferenceLifecycle(
      client: client, logger: logger, window: options.debounceMilliseconds ?? 500,
      claimGap: .milliseconds(options.claimGapMilliseconds), sendAll: sendAll)
    group.cancelAll()
    return
  }

  if options.naive {
    // The hand-rolled throttle (leading edge, one window per key): read the
    // key's window, and if it is over, run the job and record a new window.
    try await waitForStart()
    let window = scenario.pacers[0].intervalMilliseconds
    let elapsed = try await sendAll { index, value in
      let key = scenario.key(index).key
      let rows = try await client.query(
        "SELECT window_end > clock_timestamp() FROM public.naive WHERE key = \(key)")
      var open = false
      for try await isOpen in rows.decode(Bool.self) { open = isOpen }
      guard !open else { return }
      // The job runs, then the window is recorded: the common order (a job
      // that fails should run again), which leaves the race wide open.
      say("E naive \(key) \(value) 0 0 1 \(realtimeNanos())")
      try await Task.sleep(for: .milliseconds(2))
      try await client.query(
        """
        INSERT INTO public.naive (key, window_end) VALUES (\(key), clock_timestamp() + \(window) * interval '1 ms')
        ON CONFLICT (key) DO UPDATE SET window_end = excluded.window_end
        """)
    }
    say("S sends=\(options.sends) seconds=\(seconds(elapsed))")
    group.cancelAll()
    return
  }

  var counterReaders: [@Sendable () -> FleetCounters] = []
  var stoppers: [@Sendable () -> Void] = []
  var sendTo: [String: Sender] = [:]
  func add<Machine: StorablePacingStateMachine & Sendable>(_ machine: Machine, name: String)
  where Machine.Value == String, Machine.Instant == DriverInstant {
    let fleet = FleetPacer(
      machine, name: name, namespace: namespace, client: client, configuration: configuration, logger: logger
    ) { try await handle(name, $0) }
    group.addTask {
      try await fleet.run()
      workersEnded.withLock { $0 += 1 }
    }
    counterReaders.append { fleet.counters.withLock { $0 } }
    stoppers.append { fleet.shutDownGracefully() }
    sendTo[name] = { index, value in try await fleet.send(value, for: scenario.key(index).key) }
  }
  for pacer in scenario.pacers {
    if pacer.isDebounce { add(pacer.debounce, name: pacer.name) } else { add(pacer.throttle, name: pacer.name) }
  }
  let routes = sendTo
  try await waitForStart()
  let elapsed = try await sendAll { index, value in
    try await routes[scenario.key(index).pacer.name]!(index, value)
  }
  try await markDone()
  while try await !fleetIsIdle() {
    try await Task.sleep(for: .milliseconds(50))
  }
  var total = FleetCounters()
  for read in counterReaders {
    let counters = read()
    total.sends += counters.sends
    total.statements += counters.statements
    total.notifications += counters.notifications
    total.folds += counters.folds
    total.deliveries += counters.deliveries
    total.lostLeases += counters.lostLeases
  }
  say(
    "S sends=\(total.sends) statements=\(total.statements) notifications=\(total.notifications) folds=\(total.folds) deliveries=\(total.deliveries) lostLeases=\(total.lostLeases) seconds=\(seconds(elapsed))"
  )
  // The workers stop gracefully and return; then the client goes.
  for stop in stoppers { stop() }
  let stopDeadline = ContinuousClock.now + .seconds(30)
  while workersEnded.withLock({ $0 }) < stoppers.count, ContinuousClock.now < stopDeadline {
    try await Task.sleep(for: .milliseconds(10))
  }
  if workersEnded.withLock({ $0 }) < stoppers.count {
    FileHandle.standardError.write(Data("workers did not stop within 30 s of a graceful shutdown\n".utf8))
    exit(3)
  }
  group.cancelAll()
}
