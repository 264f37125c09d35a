//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import FleetScenario
import Foundation
import PacePostgres
import PostgresNIO
import Testing

/// Fleet pacers across OS processes: four `FleetProbe`s on one database.
/// Per key, the union of what their handlers received must be exactly what
/// the key's policy emits for the sends the database recorded, at their
/// instants (the oracle is `PacingRunner`, as in memory).
@Suite(
  .postgresServer,
  .enabled(if: TestPostgresServer.binaries != nil, Comment(rawValue: TestPostgresServer.skipMessage)),
  .timeLimit(.minutes(5)),
  .serialized  // several processes each: one test at a time, on 2 cores
)
struct FleetProcessTests {
  let namespace = try! PaceNamespace("fleet")

  @Test func fleetEquivalence_fourProcessesThousandKeys_emitExactlyWhatThePoliciesEmit() async throws {
    let scenario = FleetScenario(seed: 19, pacerCount: 6, keyCount: 1000)
    try await withRun { run, client in
      let outputs = try await run.run(4, ["--seed", "19", "--pacers", "6", "--keys", "1000", "--sends", "1500"])
      for output in outputs { #expect(output.status == 0, "\(output.standardError.suffix(2000))") }
      let deliveries = outputs.flatMap(\.deliveries)
      try await expectEquivalent(deliveries, scenario: scenario, run: run, client: client, sends: 6000)
      let seconds = outputs.compactMap { $0.counts["seconds"] }.max() ?? 0
      let keys = Set(deliveries.map { "\($0.pacer)/\($0.key)" }).count
      print(
        "fleet equivalence: 4 processes, 6,000 sends in \(String(format: "%.2f", seconds)) s over 1,000 keys (\(keys) emitted), \(deliveries.count) emissions, policies: \(scenario.pacers)"
      )
    }
  }

  @Test func hotKey_fourProcessesSendToOneKey_noEmissionLostOrDoubled() async throws {
    let scenario = FleetScenario(seed: 7, pacerCount: 1, keyCount: 1)
    try await withRun { run, client in
      let outputs = try await run.run(4, ["--seed", "7", "--pacers", "1", "--keys", "1", "--sends", "1000"])
      for output in outputs { #expect(output.status == 0, "\(output.standardError.suffix(2000))") }
      let deliveries = outputs.flatMap(\.deliveries)
      try await expectEquivalent(deliveries, scenario: scenario, run: run, client: client, sends: 4000)
      let seconds = outputs.compactMap { $0.counts["seconds"] }.max() ?? 0
      print(
        "hot key: 4 processes, 4,000 sends to one key (\(scenario.pacers[0])) in \(String(format: "%.2f", seconds)) s: \(Int(4000 / max(seconds, 0.001))) sends/s, \(deliveries.count) emissions"
      )
    }
  }

  @Test func contrast_readThenWriteThrottleDoublesRuns_fleetThrottleRunsEachKeyOnce() async throws {
    // "At most once per hour per key", 4 processes sending to the same 200
    // keys in the same order: the hand-rolled read-then-write lets several
    // processes see an expired window before any writes the new one.
    let arguments = ["--keys", "200", "--sends", "200", "--in-order", "--no-pauses", "--leading-throttle-ms", "3600000"]
    var naiveRuns = 0
    try await withRun { run, client in
      let outputs = try await run.run(4, arguments + ["--naive"])
      for output in outputs { #expect(output.status == 0, "\(output.standardError.suffix(2000))") }
      naiveRuns = outputs.reduce(0) { $0 + $1.deliveries.count }
    }
    try await withRun { run, client in
      let outputs = try await run.run(4, arguments)
      for output in outputs { #expect(output.status == 0, "\(output.standardError.suffix(2000))") }
      let deliveries = outputs.flatMap(\.deliveries)
      let scenario = FleetScenario(
        pacers: [.init(name: "p0", kind: .throttleLeading, intervalMilliseconds: 3_600_000, maxWaitMilliseconds: nil)],
        keyCount: 200)
      try await expectEquivalent(deliveries, scenario: scenario, run: run, client: client, sends: 800, keysRemain: true)
      #expect(deliveries.count == 200)
      print("contrast: 200 keys, once per hour each, 4 processes: read-then-write ran \(naiveRuns) jobs, the fleet throttle \(deliveries.count)")
    }
    #expect(naiveRuns > 200, "the hand-rolled throttle ran each key once this time: \(naiveRuns)")
  }

  @Test func crash_killedMidHandler_everyEmissionIsDeliveredAgainWithItsIdempotencyKey() async throws {
    let scenario = FleetScenario(seed: 23, pacerCount: 6, keyCount: 300)
    let leaseMilliseconds = 2000
    try await withRun { run, client in
      let arguments = [
        "--seed", "23", "--pacers", "6", "--keys", "300", "--sends", "600", "--handler-ms", "40",
        "--lease-ms", "\(leaseMilliseconds)",
      ]
      let probes = try (0..<4).map { try run.launch($0, arguments) }
      try await Task.sleep(for: .milliseconds(500))
      try run.start()
      // Kill probe 0 once it has delivered a few emissions and a handler of
      // its is running: it dies mid-handler, with its leases held.
      let victim = probes[0]
      let killedAt = try await killMidHandler(victim, after: 5)
      try await client.query("INSERT INTO public.probe_done (process) VALUES (0)")
      let outputs = try await run.wait(for: probes)
      for output in outputs.dropFirst() { #expect(output.status == 0, "\(output.standardError.suffix(2000))") }
      let deliveries = outputs.flatMap(\.deliveries)
      let redelivered = deliveries.filter { $0.delivery > 1 }
      #expect(!redelivered.isEmpty, "the killed probe's leased emissions were delivered again")
      // A redelivery is the same emission under the same idempotency key.
      var emissionOfId: [Int64: String] = [:]
      for delivery in deliveries {
        let emission = "\(delivery.pacer)/\(delivery.key)/\(delivery.value)/\(delivery.micros)"
        #expect(emissionOfId[delivery.id].map { $0 == emission } ?? true, "id \(delivery.id) carried two emissions")
        emissionOfId[delivery.id] = emission
      }
      try await expectEquivalent(
        deliveries, scenario: scenario, run: run, client: client, sends: nil, atLeastOnce: true)
      let recoveries = redelivered.map { Double($0.realtimeNanos - killedAt) / 1e9 }.sorted()
      let p99 = recoveries[min(recoveries.count - 1, Int(Double(recoveries.count) * 0.99))]
      #expect(p99 <= Double(leaseMilliseconds) / 1000 + 2)
      print(
        "crash: probe 0 killed mid-handler; \(redelivered.count) emissions delivered again with their ids, kill to redelivery p99 \(String(format: "%.2f", p99)) s (lease \(leaseMilliseconds) ms); \(deliveries.count) deliveries"
      )
    }
  }

  @Test func clockSkew_oneProcessAnHourAheadAndOneBehind_emissionsUnchanged() async throws {
    let scenario = FleetScenario(seed: 31, pacerCount: 6, keyCount: 300)
    try await withRun { run, client in
      let skew = try run.compileSkewedClock()
      let arguments = ["--seed", "31", "--pacers", "6", "--keys", "300", "--sends", "500"]
      let probes = try [
        run.launch(0, arguments, environment: ["LD_PRELOAD": skew, "PACE_SKEW_SECONDS": "3600"]),
        run.launch(1, arguments, environment: ["LD_PRELOAD": skew, "PACE_SKEW_SECONDS": "-3600"]),
        run.launch(2, arguments),
        run.launch(3, arguments),
      ]
      try await Task.sleep(for: .milliseconds(800))
      try run.start()
      let outputs = try await run.wait(for: probes)
      for output in outputs { #expect(output.status == 0, "\(output.standardError.suffix(2000))") }
      let deliveries = outputs.flatMap(\.deliveries)
      // The skewed processes delivered their share, on the database's instants.
      #expect(deliveries.contains { $0.process == 0 } && deliveries.contains { $0.process == 1 })
      // Their wall clocks were off: the probes print the wall clock at each delivery.
      let wallClockOffsets = outputs.map { output in
        output.deliveries.map { Double($0.realtimeNanos) / 1e9 - Double($0.micros) / 1e6 }.min() ?? 0
      }
      #expect(wallClockOffsets[0] > 3000 && wallClockOffsets[1] < -3000, "skew applied: \(wallClockOffsets)")
      try await expectEquivalent(deliveries, scenario: scenario, run: run, client: client, sends: 2000)
      print("clock skew: probes at +1 h and -1 h beside two on time: \(deliveries.count) emissions, all as the policies emit on the database's instants")
    }
  }

  // MARK: - Helpers

  /// Waits until `probe` has delivered `count` emissions and has a handler
  /// running, then kills it with SIGKILL; returns the realtime of the kill.
  private func killMidHandler(_ probe: FleetRun.Probe, after count: Int) async throws -> Int64 {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      let output = probe.output()
      let done = Set(output.deliveries.map(\.id))
      if output.deliveries.count >= count, output.handlerStarts.contains(where: { !done.contains($0) }) {
        kill(probe.process.processIdentifier, SIGKILL)
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
      }
      try await Task.sleep(for: .milliseconds(1))
    }
    throw FleetRunFailure(description: "probe \(probe.number) never had a handler running after \(count) deliveries")
  }

  private func withRun(_ body: (FleetRun, PostgresClient) async throws -> Void) async throws {
    let server = try TestPostgresServer.required()
    let database = try await server.makeDatabase()
    let run = try FleetRun(server: server, database: database, namespace: namespace)
    defer { run.removeFolder() }
    try await server.withClient(database: database) { client in
      try await run.prepare(on: client)
      try await body(run, client)
    }
  }

  /// Per key, the deliveries (each id once) equal the oracle's emissions for
  /// the recorded sends; the namespace is left with no rows.
  ///
  /// With `atLeastOnce` (after a crash), an emission may come more than
  /// once, each time under its id; what counts is the set of emissions.
  /// With `keysRemain`, keys whose windows are still open keep their rows.
  private func expectEquivalent(
    _ deliveries: [FleetRun.Delivery], scenario: FleetScenario, run: FleetRun, client: PostgresClient, sends: Int?,
    atLeastOnce: Bool = false, keysRemain: Bool = false
  ) async throws {
    var deliveries = deliveries
    if atLeastOnce {
      var seen: Set<Int64> = []
      deliveries = deliveries.filter { seen.insert($0.id).inserted }
    }
    let ids = deliveries.map(\.id)
    #expect(Set(ids).count == ids.count, "an emission was delivered twice")
    let log = try await run.sendLog(on: client)
    if let sends {
      #expect(log.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } } == sends, "every send recorded once")
    }
    var actual: [String: [FleetScenario.Emission]] = [:]
    for delivery in deliveries {
      actual["\(delivery.pacer)/\(delivery.key)", default: []].append(.init(value: delivery.value, micros: delivery.micros))
    }
    var expected: [String: [FleetScenario.Emission]] = [:]
    for pacer in scenario.pacers {
      for (key, sends) in log[pacer.name] ?? [:] {
        expected["\(pacer.name)/\(key)"] = pacer.expectedEmissions(for: sends)
      }
    }
    var mismatches: [String] = []
    for name in Set(actual.keys).union(expected.keys).sorted() {
      let got = (actual[name] ?? []).sorted()
      let want = (expected[name] ?? []).sorted()
      if got != want { mismatches.append("\(name): got \(got), want \(want)") }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) keys differ; first: \(mismatches.prefix(3))")
    #expect(expected.values.reduce(0) { $0 + $1.count } > 0)
    for table in keysRemain ? ["sends", "outbox"] : ["keys", "sends", "outbox"] {
      let rows = try await client.query("SELECT count(*) FROM \(unescaped: namespace.quoted).\(unescaped: table)")
      for try await count in rows.decode(Int.self) { #expect(count == 0, "\(table) left with \(count) rows") }
    }
  }
}
