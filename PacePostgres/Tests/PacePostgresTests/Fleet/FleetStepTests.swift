//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import FleetScenario
import Foundation
import Pace
@testable import PacePostgres
import PostgresNIO
import Testing

/// A debounce's or a throttle's send that the database steps itself
/// (`pace_send_step`) leaves the key's row exactly as a fold of the same
/// sends would: the same
/// state, deadline, pending flag and fire, so that a later fold or fire
/// reads it as its own. Any other send is left to a fold.
@Suite(
  .postgresServer,
  .enabled(if: TestPostgresServer.binaries != nil, Comment(rawValue: TestPostgresServer.skipMessage)),
  .timeLimit(.minutes(3))
)
struct FleetStepTests {
  let namespace = try! PaceNamespace("fleet")

  @Test func steppedSend_storesWhatAFoldOfTheSameSendsStores() async throws {
    try await withFleet { client in
      var tally = Tally()
      for seed in 1...120 as ClosedRange<UInt64> {
        var random = ScenarioRandom(seed: seed)
        let kinds = FleetScenario.Pacer.Kind.allCases
        let kind = kinds[Int(random.next() % UInt64(kinds.count))]
        let interval = Int64(400 + random.next() % 800)
        let maxWait: Int64? = random.next() % 2 == 0 ? interval + Int64(random.next() % 800) : nil
        let pacer = FleetScenario.Pacer(name: "p", kind: kind, intervalMilliseconds: interval, maxWaitMilliseconds: maxWait)
        if pacer.isDebounce {
          try await check(pacer.debounce, leading: pacer.debounce.leading, seed: seed, random: &random, tally: &tally, on: client)
        } else {
          try await check(pacer.throttle, leading: pacer.throttle.leading, seed: seed, random: &random, tally: &tally, on: client)
        }
      }
      // Every path of the step was taken, for both policies: a key's first
      // send and a burst's or a window's next.
      // (A first send is stepped only without a leading edge: one kind of
      // three for each policy.)
      #expect(tally.first[.debounce, default: 0] >= 3 && tally.first[.throttle, default: 0] >= 3, "\(tally)")
      #expect(tally.continued[.debounce, default: 0] >= 20 && tally.continued[.throttle, default: 0] >= 20, "\(tally)")
    }
  }

  struct Tally {
    var first: [FleetStep.Policy: Int] = [:]
    var continued: [FleetStep.Policy: Int] = [:]
  }

  /// One seeded case: in two keys of three, a burst or window already under
  /// way (begun within the first half of its interval, stored as a fold
  /// stores it); then a send through `pace_send_step`, compared with a fold
  /// of the same sends.
  private func check<Machine: StorablePacingStateMachine & Sendable>(
    _ machine: Machine, leading: Bool, seed: UInt64, random: inout ScenarioRandom, tally: inout Tally,
    on client: PostgresClient
  ) async throws where Machine.Instant == DriverInstant, Machine.Value == String {
    let step = try #require(FleetStep(machine))
    let fold = FleetFold(prototype: machine)
    let key = "k\(seed)"
    var state: String?
    var priorDue: Int64?
    if random.next() % 3 != 0 {
      let earlier = try await databaseNow(client) - Int64(random.next() % UInt64(step.interval / 2))
      let prior = fold.fold([ClaimedKey(key: key, state: nil, sends: [.init(id: 0, value: "\"a\"", micros: earlier)])], now: earlier)
      let kept = try #require(prior.kept.first)
      try await store(kept, on: client)
      (state, priorDue) = (kept.state, kept.due)
    }
    let (instant, due) = try await sendStepped("\"b\"", for: key, step: step, on: client)
    let expected = fold.fold([ClaimedKey(key: key, state: state, sends: [.init(id: 1, value: "\"b\"", micros: instant)])], now: instant)
    guard let due else {
      // Left to a fold: a leading edge with nothing under way, or a
      // deadline that came before the send (a slow machine).
      #expect((leading && state == nil) || priorDue.map { $0 <= instant } == true, "seed \(seed)")
      #expect(try await count("sends", key: key, on: client) == 1)
      return
    }
    if state == nil { tally.first[step.policy, default: 0] += 1 } else { tally.continued[step.policy, default: 0] += 1 }
    #expect(expected.emissions.isEmpty, "seed \(seed)")
    let kept = try #require(expected.kept.first)
    #expect(due == kept.due, "seed \(seed)")
    #expect(try await rowMatches(kept, on: client), "seed \(seed): \(kept)")
    #expect(try await count("sends", key: key, on: client) == 0)
    #expect(try await count("send_log", key: key, on: client) == 1)
  }

  /// A send that moves the quiet deadline past the max-wait deadline: the
  /// stored fire emits at the max-wait and waits again, as the fold's does.
  ///
  /// The burst began half a second before the database's clock is read, so
  /// the send's quiet deadline goes past the max-wait's (10.2 s after the
  /// burst began). The send must come before the quiet deadline stored
  /// with the burst (10 s after it), or the step leaves it to a fold: 9.5 s
  /// after the clock was read, where a 1 s interval left 0.5 s, which CI's
  /// loaded machine once took.
  @Test func steppedSend_beyondTheMaxWait_storesTheMaxWaitsFire() async throws {
    try await withFleet { client in
      let maxWait: Int64 = 10_200_000
      for edges in [DebounceEdges<DriverDuration>.trailing(maxWait: .microseconds(maxWait)), .both(maxWait: .microseconds(maxWait))] {
        let machine = DebounceStateMachine<String, DriverInstant>(interval: .seconds(10), edges: edges)
        let fold = FleetFold(prototype: machine)
        let key = edges.leading ? "both" : "trailing"
        let earlier = try await databaseNow(client) - 500_000
        let prior = fold.fold([ClaimedKey(key: key, state: nil, sends: [.init(id: 0, value: "\"a\"", micros: earlier)])], now: earlier)
        let stored = try #require(prior.kept.first)
        try await store(stored, on: client)
        let (instant, due) = try await sendStepped("\"b\"", for: key, step: #require(FleetStep(machine)), on: client)
        let expected = fold.fold([ClaimedKey(key: key, state: stored.state, sends: [.init(id: 1, value: "\"b\"", micros: instant)])], now: instant)
        let kept = try #require(expected.kept.first)
        #expect(due == earlier + maxWait && kept.due == due, "sent \(instant - earlier) µs after the burst began")
        #expect(kept.fire?.contains(#"[[\#(earlier + maxWait),"b"]]"#) == true, "\(kept)")
        #expect(try await rowMatches(kept, on: client))
      }
    }
  }

  /// A burst stored under options with a max-wait, stepped by a pacer
  /// whose options have none: the machine would stall at that deadline, not
  /// emit; a fold takes the send.
  @Test func burstStoredWithAMaxWaitTheOptionsLack_isLeftToAFold() async throws {
    try await withFleet { client in
      let before = DebounceStateMachine<String, DriverInstant>(interval: .seconds(1), edges: .trailing(maxWait: .seconds(2)))
      let now = try await databaseNow(client)
      let prior = FleetFold(prototype: before).fold(
        [ClaimedKey(key: "k", state: nil, sends: [.init(id: 0, value: "\"a\"", micros: now)])], now: now)
      try await store(#require(prior.kept.first), on: client)
      let after = DebounceStateMachine<String, DriverInstant>(interval: .seconds(1))
      #expect(try await sendStepped("\"b\"", for: "k", step: #require(FleetStep(after)), on: client).due == nil)
      #expect(try await count("sends", key: "k", on: client) == 1)
    }
  }

  @Test func sendAfterTheDeadline_orBehindAWaitingSend_isLeftToAFold() async throws {
    try await withFleet { client in
      let machine = DebounceStateMachine<String, DriverInstant>(interval: .milliseconds(500))
      let step = try #require(FleetStep(machine))
      let fold = FleetFold(prototype: machine)
      // A burst whose deadline passed with no fire yet: the fire comes first.
      let earlier = try await databaseNow(client) - 2_000_000
      let late = fold.fold([ClaimedKey(key: "late", state: nil, sends: [.init(id: 0, value: "\"a\"", micros: earlier)])], now: earlier)
      try await store(#require(late.kept.first), on: client)
      #expect(try await sendStepped("\"b\"", for: "late", step: step, on: client).due == nil)
      #expect(try await count("sends", key: "late", on: client) == 1)
      // A burst with a send not yet folded: the fold takes both, in order.
      let now = try await databaseNow(client)
      let waiting = fold.fold([ClaimedKey(key: "waiting", state: nil, sends: [.init(id: 0, value: "\"a\"", micros: now)])], now: now)
      try await store(#require(waiting.kept.first), on: client)
      try await client.query("SELECT \(unescaped: namespace.quoted).pace_send('p', 'waiting', '\"b\"', interval '2 s')")
      #expect(try await sendStepped("\"c\"", for: "waiting", step: step, on: client).due == nil)
      #expect(try await count("sends", key: "waiting", on: client) == 2)
    }
  }

  @Test func onlyAPlainDebounceOrThrottleOfWholeMicroseconds_isStepped() {
    let debounce = DebounceStateMachine<String, DriverInstant>(interval: .milliseconds(300), edges: .both(maxWait: .seconds(1)))
    #expect(
      FleetStep(debounce)
        == FleetStep(policy: .debounce, interval: 300_000, maxWait: 1_000_000, leading: true, trailing: true))
    let throttle = ThrottleStateMachine<String, DriverInstant>(interval: .milliseconds(300), edges: .trailing)
    #expect(FleetStep(throttle) == FleetStep(policy: .throttle, interval: 300_000, leading: false, trailing: true))
    #expect(FleetStep(DebounceStateMachine<String, DriverInstant>(interval: .nanoseconds(1_500))) == nil)
    // A zero interval ends its burst at the send's own instant: the fold emits at once.
    #expect(FleetStep(DebounceStateMachine<String, DriverInstant>(interval: .zero)) == nil)
    #expect(FleetStep(ThrottleStateMachine<String, DriverInstant>(interval: .zero, edges: .trailing)) == nil)
    #expect(FleetStep(ThrottleStateMachine<String, DriverInstant>(interval: .nanoseconds(1_500), edges: .both)) == nil)
    let stages: PacingPipeline<String, DriverInstant> = .stages(.debounce(for: .milliseconds(300)))
    #expect(FleetStep(stages) == nil)
  }

  // MARK: - Helpers

  private func sendStepped(
    _ value: String, for key: String, step: FleetStep, on client: PostgresClient
  ) async throws -> (instant: Int64, due: Int64?) {
    let rows = try await client.query(
      """
      SELECT s_micros, s_due FROM \(unescaped: namespace.quoted).pace_send_step('p', \(key), \(value)::jsonb,
        interval '2 s', \(step.policy.rawValue), \(step.interval), \(step.maxWait), \(step.leading), \(step.trailing),
        true, NULL, false, false)
      """)
    for try await row in rows.decode((Int64, Int64?).self) { return row }
    throw FleetRunFailure(description: "pace_send_step answered nothing")
  }

  /// Writes a key's row as `pace_apply` writes a fold's result.
  private func store(_ kept: FoldResult.Kept, on client: PostgresClient) async throws {
    let ns = namespace.quoted
    try await client.query(
      """
      INSERT INTO \(unescaped: ns).keys (pacer, key, state, due_at, pending, fire)
      VALUES ('p', \(kept.key), \(kept.state)::jsonb, \(unescaped: ns).pace_instant(\(kept.due)), \(kept.pending), \(kept.fire)::jsonb)
      """)
  }

  /// Whether the key's row holds `kept`, compared as JSON values.
  private func rowMatches(_ kept: FoldResult.Kept, on client: PostgresClient) async throws -> Bool {
    let ns = namespace.quoted
    let rows = try await client.query(
      """
      SELECT state = \(kept.state)::jsonb AND \(unescaped: ns).pace_micros(due_at) IS NOT DISTINCT FROM \(kept.due)
        AND pending = \(kept.pending) AND fire IS NOT DISTINCT FROM \(kept.fire)::jsonb
      FROM \(unescaped: ns).keys WHERE pacer = 'p' AND key = \(kept.key)
      """)
    for try await matches in rows.decode(Bool.self) { return matches }
    return false
  }

  private func databaseNow(_ client: PostgresClient) async throws -> Int64 {
    let ns = namespace.quoted
    let rows = try await client.query("SELECT \(unescaped: ns).pace_micros(\(unescaped: ns).pace_now())")
    for try await micros in rows.decode(Int64.self) { return micros }
    throw FleetRunFailure(description: "no instant")
  }

  private func count(_ table: String, key: String, on client: PostgresClient) async throws -> Int {
    let rows = try await client.query(
      "SELECT count(*) FROM \(unescaped: namespace.quoted).\(unescaped: table) WHERE pacer = 'p' AND key = \(key)")
    for try await count in rows.decode(Int.self) { return count }
    return 0
  }

  private func withFleet(_ body: (PostgresClient) async throws -> Void) async throws {
    try await withMigratedNamespace(namespace, body)
  }
}
