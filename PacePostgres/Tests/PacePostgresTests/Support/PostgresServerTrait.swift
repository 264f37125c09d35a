//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Testing

/// A suite trait: one throwaway PostgreSQL server for the whole suite,
/// started before its first test and stopped (its folder deleted) after its
/// last, whether they passed or not. Tests reach it as
/// `TestPostgresServer.current` and make a database of their own.
///
/// Where the machine has no PostgreSQL 15 the suite is skipped with a message
/// saying so (`.ci/postgres` installs it and fails on that message).
struct PostgresServerTrait: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    let server = try await TestPostgresServer.start()
    do {
      try await TestPostgresServer.$current.withValue(server) { try await function() }
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }
}

extension Trait where Self == PostgresServerTrait {
  /// One throwaway PostgreSQL server for the suite (see `PostgresServerTrait`).
  static var postgresServer: Self { Self() }
}

extension TestPostgresServer {
  @TaskLocal static var current: TestPostgresServer?

  /// The suite's server; fails the test when the suite lacks `.postgresServer`.
  static func required() throws -> TestPostgresServer {
    try #require(current, "the suite needs the .postgresServer trait")
  }

  /// The message a suite prints when it is skipped for want of PostgreSQL.
  static let skipMessage =
    "PostgreSQL tests skipped: no PostgreSQL 15 (initdb, pg_ctl, postgres) in PACE_POSTGRES_BIN, "
    + "/usr/lib/postgresql/15/bin or PATH; install postgresql-15"
}
