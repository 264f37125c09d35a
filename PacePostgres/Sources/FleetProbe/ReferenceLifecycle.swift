//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import FleetScenario
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The benchmark's reference (`--reference-lifecycle`): a minimal
/// at-least-once trailing debounce across processes in PostgreSQL, one
/// statement a send and one a claim, to set Pace's figures against what a
/// design that lean reaches on this client and server. It is not a pacer:
///
/// - A send is one upsert of the key's row: its latest value, its instant,
///   and its deadline (the instant plus `window`). No max-wait, no leading
///   edge, no stored policy state, no log of sends.
/// - A process looks for due rows only when a deadline of its own sends has
///   come, and at most once every `claimGap` (or every 100 ms, for the
///   others' rows). One statement leases up to 100 due rows (`FOR UPDATE
///   SKIP LOCKED`), and, in the same statement, removes the rows whose
///   handlers returned since the last one (a row sent to again meanwhile
///   stays, its lease given back). So a claim is one round trip, not two.
/// - The instants are `clock_timestamp()`; the bound of a claim is
///   `statement_timestamp()`, which an index can stop at.
///
/// What it leaves out, Pace does: every policy and option, one emission
/// per key in a handler at a time, a send during a delivery kept for the
/// next one (here a lease is given back only by its holder's next claim,
/// so such a value can be left over at the end of a run), an idempotency
/// key, a local alarm for the fleet's earliest deadline, and a schema. It
/// prints what `fleet_compare.py` reads: an `E` line per emission (its
/// deadline as the emission instant) and an `S` line of counts.
func runReferenceLifecycle(
  client: PostgresClient, logger: Logger, window: Int64, claimGap: Duration,
  sendAll: (_ send: Sender) async throws -> Duration
) async throws {
  let table = "public.reference_lifecycle"
  try await client.withConnection { connection in
    // Four processes start at once: one makes the table.
    try await connection.query("SELECT pg_advisory_lock(4242)", logger: logger)
    try await connection.query(
      """
      CREATE TABLE IF NOT EXISTS \(unescaped: table) (
        key text PRIMARY KEY, value text NOT NULL, sent_at timestamptz NOT NULL,
        due_at timestamptz NOT NULL, lease_until timestamptz)
      """, logger: logger)
    try await connection.query(
      "CREATE INDEX IF NOT EXISTS reference_lifecycle_due ON \(unescaped: table) (due_at)", logger: logger)
    try await connection.query("SELECT pg_advisory_unlock(4242)", logger: logger)
  }

  /// This process's deadlines, in order (every send's is its instant plus
  /// the same window).
  let deadlines = Mutex<[ContinuousClock.Instant]>([])
  let statements = Atomic<Int>(0)
  let sendingEnded = Atomic<Bool>(false)

  let worker = Task {
    var lastClaim = ContinuousClock.now - .seconds(1)
    // Delivered, to be removed by the next claim: each key with the instant
    // of the send it delivered.
    var delivered: (keys: [String], sentAt: [String]) = ([], [])
    while true {
      let now = ContinuousClock.now
      let (isDue, next) = deadlines.withLock { list -> (Bool, ContinuousClock.Instant?) in
        let due = list.prefix { $0 <= now }.count
        list.removeFirst(due)
        return (due > 0, list.first)
      }
      let pending = next != nil || isDue
      if !pending, sendingEnded.load(ordering: .relaxed), delivered.keys.isEmpty { break }
      let mayClaim = now - lastClaim >= claimGap
      let mustClaim = isDue || (!delivered.keys.isEmpty && !pending) || now - lastClaim >= .milliseconds(100)
      guard mayClaim, mustClaim else {
        // A deadline that came stays due until a claim may run.
        if isDue { deadlines.withLock { $0.insert(now, at: 0) } }
        let wake = min(next ?? now + .milliseconds(100), lastClaim + .milliseconds(100))
        try await Task.sleep(until: max(wake, lastClaim + claimGap, now + .microseconds(200)), clock: .continuous)
        continue
      }
      lastClaim = now
      while true {
        let rows = try await client.query(
          """
          WITH d AS (SELECT * FROM unnest(\(delivered.keys)::text[], \(delivered.sentAt)::timestamptz[]) AS d(key, sent)),
          gone AS (DELETE FROM \(unescaped: table) l USING d WHERE l.key = d.key AND l.sent_at = d.sent),
          given_back AS (UPDATE \(unescaped: table) l SET lease_until = NULL FROM d
                         WHERE l.key = d.key AND l.sent_at <> d.sent),
          c AS (SELECT key FROM \(unescaped: table)
                WHERE due_at <= statement_timestamp()
                  AND (lease_until IS NULL OR lease_until < statement_timestamp())
                  AND key <> ALL(\(delivered.keys)::text[])
                ORDER BY due_at LIMIT 100 FOR UPDATE SKIP LOCKED)
          UPDATE \(unescaped: table) l SET lease_until = clock_timestamp() + interval '30 s' FROM c WHERE l.key = c.key
          RETURNING l.key, l.value, l.sent_at::text, (extract(epoch FROM l.due_at) * 1000000)::bigint
          """, logger: logger)
        statements.add(1, ordering: .relaxed)
        delivered = ([], [])
        for try await (key, value, sentAt, due) in rows.decode((String, String, String, Int64).self) {
          // The handler: the emission's line, as FleetProbe's handler prints it.
          say("E reference \(key) \(value) 0 \(due) 1 \(realtimeNanos())")
          delivered.keys.append(key)
          delivered.sentAt.append(sentAt)
        }
        if delivered.keys.count < 100 { break }
      }
    }
  }

  let elapsed = try await sendAll { index, value in
    let key = scenario.key(index).key
    try await client.query(
      """
      INSERT INTO \(unescaped: table) (key, value, sent_at, due_at)
      VALUES (\(key), \(value), clock_timestamp(), clock_timestamp() + \(window) * interval '1 ms')
      ON CONFLICT (key) DO UPDATE SET value = excluded.value, sent_at = excluded.sent_at, due_at = excluded.due_at
      """, logger: logger)
    statements.add(1, ordering: .relaxed)
    deadlines.withLock { $0.append(.now + .milliseconds(window)) }
  }
  sendingEnded.store(true, ordering: .relaxed)
  try await worker.value
  // Statements counted until this process's deliveries are done, as a
  // fleet pacer's counters are read once the fleet is idle.
  say("S sends=\(sent.withLock { $0 }) statements=\(statements.load(ordering: .relaxed)) notifications=0 seconds=\(seconds(elapsed))")
}
