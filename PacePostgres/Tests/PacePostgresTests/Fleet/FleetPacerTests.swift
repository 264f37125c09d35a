//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import Pace
import PacePostgres
import PostgresNIO
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
      let pacer = FleetPacer(.debounce(for: .milliseconds(300)), name: "saves", namespace: namespace, client: client, logger: testLogger) {
        (emission: FleetEmission<String, String>) in log.record(emission)
      }
      try await running(pacer) {
        var last: Date?
        for draft in ["a", "b", "c"] { last = try await pacer.send(draft, for: "doc-1") }
        let other = try await pacer.send("x", for: "doc-2")
        let entries = try await log.wait { $0.count == 2 }
        let byKey = Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0) })
        #expect(byKey["doc-1"]?.value == "c")
        #expect(byKey["doc-2"]?.value == "x")
        #expect(byKey["doc-1"].map { micros($0.emittedAt) } == last.map { micros($0) + 300_000 })
        #expect(byKey["doc-2"].map { micros($0.emittedAt) } == micros(other) + 300_000)
        #expect(entries.allSatisfy { $0.delivery == 1 })
      }
      // Both keys' bursts ended and were delivered: no rows are left.
      #expect(try await count("keys", on: client) == 0)
      #expect(try await count("outbox", on: client) == 0)
      #expect(try await count("sends", on: client) == 0)
    }
  }

  @Test func throttle_leadingAndTrailing_emitsFirstAtOnceAndLatestAtWindowEnd() async throws {
    try await withFleet { client in
      let log = EmissionLog<Int>()
      let pacer = FleetPacer(.throttle(for: .milliseconds(400)), name: "progress", namespace: namespace, client: client) {
        (emission: FleetEmission<String, Int>) in log.record(emission)
      }
      try await running(pacer) {
        let first = try await pacer.send(1, for: "job")
        try await pacer.send(2, for: "job")
        try await pacer.send(3, for: "job")
        let entries = try await log.wait { $0.count == 2 }
        #expect(entries.map(\.value) == [1, 3])
        #expect(entries.first.map { micros($0.emittedAt) } == micros(first))
        #expect(entries.last.map { micros($0.emittedAt) } == micros(first) + 400_000)
        #expect(entries[0].id < entries[1].id)
      }
    }
  }

  // MARK: - Helpers

  private func withFleet(_ body: (PostgresClient) async throws -> Void) async throws {
    let server = try TestPostgresServer.required()
    let database = try await server.makeDatabase()
    try await server.withClient(database: database) { client in
      try await PaceSchema(namespace: namespace).migrate(on: client)
      try await body(client)
    }
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
