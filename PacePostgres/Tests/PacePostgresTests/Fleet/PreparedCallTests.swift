//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import PacePostgres
import PostgresNIO
import Testing

/// The names of the prepared calls: one per text in the process, short
/// enough for the server to keep whole.
@Suite struct PreparedCallTests {
  @Test func oneText_oneName_anotherText_anotherName() throws {
    let long = try PaceNamespace("n" + String(repeating: "a", count: 61) + "1")
    let alike = try PaceNamespace("n" + String(repeating: "a", count: 61) + "2")
    let calls = FleetCalls(namespace: long)
    let again = FleetCalls(namespace: long)
    let other = FleetCalls(namespace: alike)
    let texts = [calls.sendStep, calls.send, calls.fire, calls.settle, calls.alarm]
    let otherTexts = [other.sendStep, other.send, other.fire, other.settle, other.alarm]
    #expect([again.sendStep, again.send, again.fire, again.settle, again.alarm].map(\.name) == texts.map(\.name))
    #expect(Set((texts + otherTexts).map(\.name)).count == 10)
    // The server keeps 63 bytes of a name.
    #expect((texts + otherTexts).allSatisfy { $0.name.utf8.count <= 63 })
    #expect(calls.fire.sql.contains(long.quoted + ".pace_fire("))
  }
}

/// A prepared call on a real server: one that failed to prepare (its
/// namespace not migrated yet) works once the namespace is there, on the
/// same connection.
@Suite(
  .postgresServer,
  .enabled(if: TestPostgresServer.binaries != nil, Comment(rawValue: TestPostgresServer.skipMessage)),
  .timeLimit(.minutes(2))
)
struct PreparedCallServerTests {
  @Test func aCallThatFailedToPrepare_preparesAnewOnceItsNamespaceIsThere() async throws {
    let server = try TestPostgresServer.required()
    let database = try await server.makeDatabase()
    // One connection: PostgresNIO keeps a failed preparation per connection.
    try await server.withClient(database: database, maximumConnections: 1) { client in
      let namespace = try PaceNamespace("later")
      let calls = FleetCalls(namespace: namespace)
      func alarm() async throws -> Int64 {
        var bindings = PostgresBindings()
        bindings.append("pacer")
        var now: Int64 = 0
        for try await row in try await PreparedCall(calls.alarm, bindings).rows(on: client, logger: testLogger) {
          now = try row.decode((Int64, Int64?, Int64?).self).0
        }
        return now
      }
      await #expect(throws: PSQLError.self) { try await alarm() }
      try await PaceSchema(namespace: namespace).migrate(on: client)
      #expect(try await alarm() > 0)
      #expect(try await alarm() > 0)
    }
  }
}
