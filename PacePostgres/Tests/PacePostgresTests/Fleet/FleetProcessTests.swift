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
      let probes = try (0..<4).map {
        try run.launch($0, ["--seed", "19", "--pacers", "6", "--keys", "1000", "--sends", "1500"])
      }
      try await Task.sleep(for: .milliseconds(500))  // let them connect; the start file releases them together
      try run.start()
      let outputs = try await run.wait(for: probes)
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
      let probes = try (0..<4).map {
        try run.launch($0, ["--seed", "7", "--pacers", "1", "--keys", "1", "--sends", "1000"])
      }
      try await Task.sleep(for: .milliseconds(500))
      try run.start()
      let outputs = try await run.wait(for: probes)
      for output in outputs { #expect(output.status == 0, "\(output.standardError.suffix(2000))") }
      let deliveries = outputs.flatMap(\.deliveries)
      try await expectEquivalent(deliveries, scenario: scenario, run: run, client: client, sends: 4000)
      let seconds = outputs.compactMap { $0.counts["seconds"] }.max() ?? 0
      print(
        "hot key: 4 processes, 4,000 sends to one key (\(scenario.pacers[0])) in \(String(format: "%.2f", seconds)) s: \(Int(4000 / max(seconds, 0.001))) sends/s, \(deliveries.count) emissions"
      )
    }
  }

  // MARK: - Helpers

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
  private func expectEquivalent(
    _ deliveries: [FleetRun.Delivery], scenario: FleetScenario, run: FleetRun, client: PostgresClient, sends: Int
  ) async throws {
    let ids = deliveries.map(\.id)
    #expect(Set(ids).count == ids.count, "an emission was delivered twice")
    let log = try await run.sendLog(on: client)
    #expect(log.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } } == sends, "every send recorded once")
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
    for table in ["keys", "sends", "outbox"] {
      let rows = try await client.query("SELECT count(*) FROM \(unescaped: namespace.quoted).\(unescaped: table)")
      for try await count in rows.decode(Int.self) { #expect(count == 0, "\(table) left with \(count) rows") }
    }
  }
}
