//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PostgresNIO

/// A fleet pacer's frequent calls, each a ``PreparedCall`` of its
/// namespace: a send (`pace_send_step`, `pace_send`), a fire round
/// (`pace_fire`), a delivery round (`pace_settle`) and the alarm's reading
/// (`pace_alarm`). A fold's calls, rare under load (the sends of a busy
/// process's fold interval go together, and most sends are stepped), and
/// the other statements stay unnamed.
///
/// In three interleaved pairs of `fleet-compare`'s Pace run (2026-11-28,
/// `PacePostgres/Benchmarks/NOTES.md`), preparing the send alone sent 1.20,
/// 1.11 and 1.06× as many, the server's CPU a send 0.31 to 0.35 ms against
/// 0.38 to 0.44 ms.
struct FleetCalls: Sendable {
  let sendStep: PreparedCall.Text
  let send: PreparedCall.Text
  let fire: PreparedCall.Text
  let settle: PreparedCall.Text
  let alarm: PreparedCall.Text

  init(namespace: PaceNamespace) {
    let ns = namespace.quoted
    sendStep = PreparedCall.Text(
      sql: """
        SELECT s_micros, s_due, s_told FROM \(ns).pace_send_step($1, $2, $3::jsonb, $4 * interval '1 microsecond',
          $5, $6, $7, $8, $9, $10, $11, $12, $13)
        """,
      types: [.text, .text, .text, .int8, .text, .int8, .int8, .bool, .bool, .bool, .int8, .bool, .bool])
    send = PreparedCall.Text(
      sql: """
        SELECT \(ns).pace_send($1, $2, $3::jsonb, $4 * interval '1 microsecond'), NULL::bigint, false
        """,
      types: [.text, .text, .text, .int8])
    fire = PreparedCall.Text(
      sql: """
        SELECT o_id, o_key, o_value, o_emitted, o_leased, o_behind, a_now, a_due, a_lease_end
        FROM \(ns).pace_fire($1, $2, $3, $4 * interval '1 microsecond', $5, $6)
        """,
      types: [.text, .int8, .text, .int8, .int8, .bool])
    settle = PreparedCall.Text(
      sql: """
        SELECT o_removed, o_id, o_key, o_value, o_emitted, o_deliveries
        FROM \(ns).pace_settle($1, $2, $3, $4 * interval '1 microsecond', $5, $6, $7)
        """,
      types: [.text, .text, .int8Array, .int8, .int8, .bool, .bool])
    alarm = PreparedCall.Text(
      sql: "SELECT a_now, a_due, a_lease_end FROM \(ns).pace_alarm($1)",
      types: [.text])
  }
}
