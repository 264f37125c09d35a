//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Logging
@testable import PacePostgres
import PostgresNIO
import Testing

/// The schema against a real PostgreSQL 15: one throwaway server for the
/// suite, a new database for each test.
@Suite(
  .postgresServer,
  .enabled(if: TestPostgresServer.binaries != nil, Comment(rawValue: TestPostgresServer.skipMessage))
)
struct PaceSchemaTests {
  let namespace = try! PaceNamespace("fleet")
  var schema: PaceSchema { PaceSchema(namespace: namespace) }

  // MARK: - Migrating

  @Test func migrate_freshDatabase_createsTheTablesAtTheCurrentVersion() async throws {
    try await withDatabase { client in
      #expect(try await schema.installedVersion(on: client) == nil)
      #expect(try await schema.migrate(on: client) == .created)
      #expect(try await schema.installedVersion(on: client) == PaceSchema.version)
      let objects = try await catalog(of: namespace, on: client)
      #expect(
        objects == [
          "emission_id S", "keys r", "keys_due i", "keys_pkey i", "outbox r", "outbox_key_order i", "outbox_leases i",
          "outbox_pkey i", "pace_alarm()", "pace_apply()", "pace_claim()", "pace_emit()", "pace_fire()", "pace_instant()", "pace_lease_first()", "pace_micros()", "pace_notify()", "pace_now()", "pace_send()",
          "pace_send_step()", "pace_settle()", "schema_version r", "schema_version_pkey i", "send_log r", "send_log_pkey i", "sends r",
          "sends_id_seq S", "sends_key_order i", "sends_pkey i",
        ])
    }
  }

  @Test func migrate_twice_secondFindsItUpToDateAndChangesNothing() async throws {
    try await withDatabase { client in
      try await schema.migrate(on: client)
      let before = try await snapshot(on: client)
      #expect(try await schema.migrate(on: client) == .upToDate)
      #expect(try await snapshot(on: client) == before)
      #expect(try await strings("SELECT count(*)::text FROM fleet.schema_version", on: client) == ["1"])
    }
  }

  @Test func migrate_byTwoMigratorsAtOnce_bothSucceedAndOneVersionIsRecorded() async throws {
    let server = try TestPostgresServer.required()
    let database = try await server.makeDatabase()
    let schema = self.schema
    try await server.withClient(database: database) { holder in
      try await withThrowingTaskGroup(of: PaceSchema.Migration.self) { group in
        // Hold the migration lock so that both migrators are surely waiting on it
        // when it is released: they then race for real.
        try await holder.withTransaction(logger: TestPostgresServer.logger) { connection in
          let lockName = PaceSchema.migrationLockName(schema.namespace)
          try await connection.query(
            "SELECT pg_advisory_xact_lock(hashtextextended(\(lockName), 0))", logger: TestPostgresServer.logger)
          for _ in 0..<2 {
            group.addTask {
              try await server.withClient(database: database) { try await schema.migrate(on: $0) }
            }
          }
          try await waitUntilWaitingOnAdvisoryLocks(2, on: connection)
        }
        var results: [PaceSchema.Migration] = []
        for try await result in group { results.append(result) }
        #expect(Set(results) == [.created, .upToDate])
      }
      #expect(try await schema.installedVersion(on: holder) == PaceSchema.version)
      #expect(try await strings("SELECT count(*)::text FROM fleet.schema_version", on: holder) == ["1"])
    }
  }

  /// A worker's start-up check looks for the version table on a pooled
  /// connection before the namespace exists; `migrate` may then get that
  /// connection, wait on the migration lock while another process creates
  /// the tables, and must see them. (A `to_regclass` on that connection kept
  /// answering "none" from the session's catalog cache, which an advisory
  /// lock does not refresh, while the tables were there: the namespace was
  /// refused as "not a Pace schema".)
  @Test func migrate_onAConnectionThatLookedBeforeAnotherMigratorCreated_findsItUpToDate() async throws {
    let server = try TestPostgresServer.required()
    let database = try await server.makeDatabase()
    let schema = self.schema
    try await server.withClient(database: database) { holder in
      try await server.withClient(database: database, maximumConnections: 1) { late in
        // Its one connection looks first, as a worker starting up does.
        #expect(try await schema.installedVersion(on: late) == nil)
        try await withThrowingTaskGroup(of: PaceSchema.Migration.self) { group in
          try await holder.withTransaction(logger: TestPostgresServer.logger) { connection in
            let lockName = PaceSchema.migrationLockName(schema.namespace)
            try await connection.query(
              "SELECT pg_advisory_xact_lock(hashtextextended(\(lockName), 0))", logger: TestPostgresServer.logger)
            group.addTask { try await schema.migrate(on: late) }
            try await waitUntilWaitingOnAdvisoryLocks(1, on: connection)
            // Another migrator creates the tables meanwhile, as `migrate` does.
            for statement in SchemaMigrations.statements(toVersion: PaceSchema.version, in: schema.namespace) {
              try await connection.query(statement, logger: TestPostgresServer.logger)
            }
            try await connection.query(
              "INSERT INTO \(unescaped: schema.namespace.quoted).schema_version (version) VALUES (\(PaceSchema.version))",
              logger: TestPostgresServer.logger)
          }
          for try await result in group { #expect(result == .upToDate) }
        }
      }
    }
  }

  @Test func migrate_schemaCreatedEmptyBeforehand_createsTheTables() async throws {
    try await withDatabase { client in
      try await client.query("CREATE SCHEMA fleet")
      #expect(try await schema.migrate(on: client) == .created)
      #expect(try await schema.installedVersion(on: client) == PaceSchema.version)
    }
  }

  // MARK: - Refusing

  @Test func migrate_newerRecordedVersion_throwsAndChangesNothing() async throws {
    try await withDatabase { client in
      // What a newer Pace might leave: its version table, and tables this library does not know.
      try await client.query("CREATE SCHEMA fleet")
      try await client.query(
        "CREATE TABLE fleet.schema_version (singleton boolean PRIMARY KEY DEFAULT true, version integer NOT NULL)")
      try await client.query("INSERT INTO fleet.schema_version (version) VALUES (7)")
      try await client.query("CREATE TABLE fleet.future (id bigint)")
      let before = try await snapshot(on: client)

      let error = await #expect(throws: PaceSchemaError.self) { try await schema.migrate(on: client) }
      #expect(error == .newerVersion(namespace: "fleet", found: 7, supported: PaceSchema.version))
      #expect(
        error?.description
          == "Pace namespace \"fleet\" has schema version 7, newer than this library's 1; "
          + "upgrade Pace in this process (nothing was changed)")
      #expect(try await snapshot(on: client) == before)
    }
  }

  @Test func migrate_newerVersionOverACurrentSchema_throwsAndChangesNothing() async throws {
    try await withDatabase { client in
      try await schema.migrate(on: client)
      try await client.query("UPDATE fleet.schema_version SET version = \(PaceSchema.version + 1)")
      let before = try await snapshot(on: client)
      await #expect(throws: PaceSchemaError.newerVersion(namespace: "fleet", found: 2, supported: 1)) {
        try await schema.migrate(on: client)
      }
      #expect(try await snapshot(on: client) == before)
    }
  }

  @Test(arguments: [
    ("UPDATE fleet.schema_version SET version = 0", 0 as Int?),
    ("UPDATE fleet.schema_version SET version = -3", -3),
    ("DELETE FROM fleet.schema_version", nil),
  ])
  func migrate_unknownRecordedVersion_throwsAndChangesNothing(damage: String, found: Int?) async throws {
    try await withDatabase { client in
      try await schema.migrate(on: client)
      try await client.query(PostgresQuery(unsafeSQL: damage))
      let before = try await snapshot(on: client)
      let error = await #expect(throws: PaceSchemaError.self) { try await schema.migrate(on: client) }
      #expect(error == .unknownVersion(namespace: "fleet", found: found))
      #expect(error?.description.contains("nothing was changed") == true)
      #expect(try await snapshot(on: client) == before)
    }
  }

  @Test func migrate_schemaOfSomethingElse_throwsAndChangesNothing() async throws {
    try await withDatabase { client in
      try await client.query("CREATE SCHEMA fleet")
      try await client.query("CREATE TABLE fleet.orders (id bigint PRIMARY KEY)")
      let before = try await snapshot(on: client)
      await #expect(throws: PaceSchemaError.notAPaceSchema(namespace: "fleet", objects: ["orders", "orders_pkey"])) {
        try await schema.migrate(on: client)
      }
      #expect(try await snapshot(on: client) == before)
    }
  }

  // MARK: - The tables' contracts

  @Test func everyInstant_isTheOneDatabaseClockExpression() async throws {
    try await withDatabase { client in
      try await schema.migrate(on: client)
      // The clock function: clock_timestamp(), volatile (read anew at each call).
      let function = try await strings(
        """
        SELECT p.prosrc || ' ' || p.provolatile::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'fleet' AND p.proname = 'pace_now'
        """, on: client)
      #expect(function == ["SELECT \(PaceSchema.clockExpression) v"])
      // Every time column is a timestamptz; a default is that function. (Sends and
      // emissions take their instants from the functions below.)
      let columns = try await strings(
        """
        SELECT a.attrelid::regclass::text || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
          || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), 'no default')
        FROM pg_attribute a
        JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE n.nspname = 'fleet' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
          AND a.atttypid IN ('timestamptz'::regtype, 'timestamp'::regtype, 'date'::regtype, 'time'::regtype)
        ORDER BY 1
        """, on: client)
      #expect(
        columns == [
          "fleet.keys.due_at timestamp with time zone no default",
          "fleet.keys.updated_at timestamp with time zone fleet.pace_now()",
          "fleet.outbox.emitted_at timestamp with time zone no default",
          "fleet.outbox.lease_expires_at timestamp with time zone no default",
          "fleet.schema_version.migrated_at timestamp with time zone fleet.pace_now()",
          "fleet.send_log.sent_at timestamp with time zone no default",
          "fleet.sends.sent_at timestamp with time zone no default",
        ])
      // No other clock appears in any default or function of the namespace.
      let definitions = try await strings(
        """
        SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d
          JOIN pg_class c ON c.oid = d.adrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'fleet'
        UNION ALL
        SELECT p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'fleet'
        """, on: client)
      let otherClock = try Regex(
        #"(?i)(^|[^a-z_])(now|statement_timestamp|transaction_timestamp|current_timestamp|localtimestamp|timeofday)\b"#)
      #expect(definitions.count == 20)  // 7 column defaults (keys.pending's included) and the bodies of the 13 functions
      #expect("DEFAULT now()".contains(otherClock) && !"fleet.pace_now()".contains(otherClock))
      #expect(definitions.filter { $0.contains(otherClock) } == [])
      // A send's instant is that clock's, read once the key is locked, not the transaction's start.
      let stamped = try await client.withTransaction(logger: TestPostgresServer.logger) { connection in
        let rows = try await connection.query(
          """
          SELECT (fleet.pace_instant(fleet.pace_send('p', 'k', '1', interval '2 s')) > now())::text
          """, logger: TestPostgresServer.logger)
        var results: [String] = []
        for try await result in rows.decode(String.self) { results.append(result) }
        return results
      }
      #expect(stamped == ["true"])
    }
  }

  @Test func emissionIds_neverRepeat_evenWhenAKeyIsRemovedAndComesBack() async throws {
    try await withDatabase { client in
      try await schema.migrate(on: client)
      func emit() async throws -> [String] {
        try await strings(
          "INSERT INTO fleet.outbox (pacer, key, value, emitted_at) VALUES ('mail', 'user-1', '\"hi\"', fleet.pace_now()) RETURNING id::text",
          on: client)
      }
      let first = try await emit()
      // The key goes idle: its emission delivered, its row removed.
      try await client.query("DELETE FROM fleet.outbox")
      try await client.query("DELETE FROM fleet.keys")
      let second = try await emit()
      #expect(first == ["1"])
      #expect(second == ["2"])
      #expect(
        try await strings(
          "SELECT cycle::text FROM pg_sequences WHERE schemaname = 'fleet' AND sequencename = 'emission_id'",
          on: client) == ["false"])
    }
  }

  @Test func lookAround_claimsTheFirstFreeRowOfEachKey_oldestFirst_andNoMoreThanItsRoom() async throws {
    try await withDatabase { client in
      try await schema.migrate(on: client)
      // id: key, lease. c's first row is another's (unexpired): its line waits.
      // e's first row's lease expired: it is free again.
      try await client.query(
        """
        INSERT INTO fleet.outbox (id, pacer, key, value, emitted_at, lease_owner, lease_expires_at)
        SELECT id, 'mail', key, '"v"', fleet.pace_now(), owner, fleet.pace_now() + ahead * interval '1 hour'
        FROM (VALUES (1, 'a', NULL, NULL), (2, 'b', NULL, NULL), (3, 'a', NULL, NULL), (4, 'c', 'other', 1),
                     (5, 'd', NULL, NULL), (6, 'c', NULL, NULL), (7, 'e', 'gone', -1), (8, 'b', NULL, NULL))
          AS r(id, key, owner, ahead)
        """)
      func lookAround(_ owner: String, room: Int) async throws -> [String] {
        try await strings(
          "SELECT o_id::text FROM fleet.pace_settle('mail', \(owner), '{}', interval '1 minute', \(room), true, false)",
          on: client)
      }
      #expect(try await lookAround("me", room: 3) == ["1", "2", "5"])
      #expect(try await lookAround("you", room: 10) == ["7"])
      #expect(try await lookAround("you", room: 10) == [])
    }
  }

  @Test func lookAround_overThousandsOfWaitingRowsOfAYoungTable_claimsTheOldestHeads() async throws {
    try await withDatabase { client in
      try await schema.migrate(on: client)
      // Never analyzed, as a young outbox is: the search must not depend on
      // statistics (an anti-join planned on them took a second here).
      try await client.query(
        """
        INSERT INTO fleet.outbox (id, pacer, key, value, emitted_at)
        SELECT g, 'mail', 'k' || (g % 3000), '"v"', fleet.pace_now() FROM generate_series(1, 4000) g
        """)
      let claimed = try await strings(
        "SELECT o_id::text FROM fleet.pace_settle('mail', 'me', '{}', interval '1 minute', 16, true, false)", on: client)
      #expect(claimed == (1...16).map(String.init))
      let behind = try await strings(
        "SELECT count(*)::text FROM fleet.pace_settle('mail', 'you', '{}', interval '1 minute', 4000, true, false)",
        on: client)
      #expect(behind == ["2984"])  // every other key's first row; none behind one
    }
  }

  @Test func settleWhoseRoomGoesToAKeysNextEmission_tellsTheFleetOfAnotherKeysWaitingOne_onlyWhenAsked() async throws {
    try await withDatabase { client in
      try await schema.migrate(on: client)
      // 1: key a's first, leased here and done; 2: a's next; 3: b's first,
      // free. The round's room (one) goes to 2: b waits. With no room at
      // all (nothing done, a room of none), b waits too; with room for two,
      // b's first is leased here.
      func settle(telling: Bool, done: [Int64] = [1], room: Int = 1) async throws -> [String] {
        try await client.query("DELETE FROM fleet.outbox")
        try await client.query(
          """
          INSERT INTO fleet.outbox (id, pacer, key, value, emitted_at, lease_owner, lease_expires_at)
          VALUES (1, 'mail', 'a', '"v"', fleet.pace_now(), 'me', fleet.pace_now() + interval '1 hour'),
                 (2, 'mail', 'a', '"v"', fleet.pace_now(), NULL, NULL),
                 (3, 'mail', 'b', '"v"', fleet.pace_now(), NULL, NULL)
          """)
        return try await strings(
          "SELECT o_id::text FROM fleet.pace_settle('mail', 'me', \(done), interval '1 minute', \(room), true, \(telling))",
          on: client)
      }
      try await client.withConnection { connection in
        try await connection.listen(on: namespace.name) { notifications in
          // Notifications of different transactions arrive in the order
          // they committed: a marker after each call shows what it sent.
          #expect(try await settle(telling: false) == ["1", "2"])
          try await client.query("SELECT pg_notify(\(namespace.name), 'marker')")
          #expect(try await settle(telling: true) == ["1", "2"])
          try await client.query("SELECT pg_notify(\(namespace.name), 'marker')")
          #expect(try await settle(telling: true, done: [], room: 0) == [])
          try await client.query("SELECT pg_notify(\(namespace.name), 'marker')")
          #expect(try await settle(telling: false, done: [], room: 0) == [])
          try await client.query("SELECT pg_notify(\(namespace.name), 'marker')")
          // Room for both: b's first is leased here, nothing waits to tell of.
          #expect(try await settle(telling: true, room: 2) == ["1", "2", "3"])
          try await client.query("SELECT pg_notify(\(namespace.name), 'marker')")
          // Each call's notifications, up to its marker; bounded, so that a
          // notification never sent fails the test rather than hang it.
          let untilMarker = try await withAnswerTimeout(.seconds(20)) {
            var heard = notifications.makeAsyncIterator()
            var untilMarker: [[String]] = [[]]
            while untilMarker.count < 6, let payload = try await heard.next()?.payload {
              if payload == "marker" { untilMarker.append([]) } else { untilMarker[untilMarker.count - 1].append(payload) }
            }
            return untilMarker
          }
          #expect(untilMarker[0].isEmpty)  // not asked: nothing said
          #expect(untilMarker[1].count == 1 && untilMarker[1].allSatisfy { $0.hasPrefix("mail ") })
          #expect(untilMarker[2].count == 1 && untilMarker[2].allSatisfy { $0.hasPrefix("mail ") })
          #expect(untilMarker[3].isEmpty)  // no room, not asked: nothing said
          #expect(untilMarker[4].isEmpty)  // asked, but every free first emission leased here
        }
      }
    }
  }

  @Test func fire_appliesTheStoredStep_leavesAKeyWithASendToAFold_andSaysWhatItLeft() async throws {
    try await withDatabase { client in
      try await schema.migrate(on: client)
      // Four keys, all due: a fires and goes (a trailing debounce's last
      // step: its fire is its emissions alone), b fires and stays with a
      // later deadline (a throttle's window), c has a send since its fold,
      // d has no stored step. e is not yet due.
      let past = "fleet.pace_now() - interval '1 second'"
      try await client.query(
        """
        INSERT INTO fleet.keys (pacer, key, state, due_at, pending, fire) VALUES
          ('mail', 'a', '{"s": 1}', \(unescaped: past), true, '{"emissions": [[1000000, "va"]]}'),
          ('mail', 'b', '{"s": 1}', \(unescaped: past), true,
           '{"emissions": [[2000000, {"n": [1, 2]}], [2000000, "vb2"]], "state": {"s": 2}, "due": 99999999999999999, "pending": false}'),
          ('mail', 'c', '{"s": 1}', \(unescaped: past), true,
           '{"emissions": [[3000000, "vc"]], "state": null, "due": null, "pending": false}'),
          ('mail', 'd', NULL, \(unescaped: past), false, NULL),
          ('mail', 'e', '{"s": 1}', fleet.pace_now() + interval '1 hour', true,
           '{"emissions": [[4000000, "ve"]], "state": null, "due": null, "pending": false}')
        """)
      try await client.query("SELECT fleet.pace_send('mail', 'c', '\"late\"', interval '2 s')")
      func fire() async throws -> [String] {
        try await strings(
          """
          SELECT coalesce(o_key, '-') || ' ' || coalesce(o_value, '-') || ' ' || o_emitted::text || ' '
            || coalesce(o_leased::text, '-') || ' ' || coalesce(o_behind::text, '-')
          FROM fleet.pace_fire('mail', 500, 'me', interval '1 minute', 2, false)
          """, on: client)
      }
      // a's and b's emissions on their deadlines' instants, in order, the
      // first two (a's, b's first) leased here, b's second behind its first;
      // then a count of keys left to a fold: c (a send) and d (no step).
      let fired = try await fire()
      #expect(fired.dropLast() == [
        "a \"va\" 1000000 true false", "b {\"n\": [1, 2]} 2000000 true false", "b \"vb2\" 2000000 false true",
      ])
      #expect(fired.last.map { $0.hasPrefix("- - ") && !$0.hasPrefix("- - 0 ") } == true)
      let keys = try await strings(
        "SELECT key || ' ' || coalesce(state::text, '-') || ' ' || (fire IS NULL)::text FROM fleet.keys ORDER BY key",
        on: client)
      #expect(keys == ["b {\"s\": 2} true", "c {\"s\": 1} false", "d - true", "e {\"s\": 1} false"])
      // Nothing fires twice; c and d are still a fold's.
      let again = try await fire()
      #expect(again.count == 1 && again[0].hasPrefix("- - ") && !again[0].hasPrefix("- - 0 "))
      // That last row also carries the alarm's reading after the fire: the
      // earliest deadline (c's and d's, past) and lease end (a minute on).
      let reading = try await strings(
        """
        SELECT (a_due < a_now)::text || ' ' || (a_lease_end > a_now + 50000000)::text
        FROM fleet.pace_fire('mail', 500, 'me', interval '1 minute', 2, false) WHERE o_id IS NULL
        """, on: client)
      #expect(reading == ["true true"])
      // Once they are folded (here: removed), nothing is left.
      try await client.query("DELETE FROM fleet.keys WHERE key IN ('c', 'd')")
      #expect(try await fire() == ["- - 0 - -"])
      #expect(try await strings("SELECT count(*)::text FROM fleet.outbox", on: client) == ["3"])
    }
  }

  // MARK: - Helpers

  /// Runs `body` with a client of a new database on the suite's server.
  private func withDatabase(_ body: (PostgresClient) async throws -> Void) async throws {
    let server = try TestPostgresServer.required()
    let database = try await server.makeDatabase()
    try await server.withClient(database: database, body)
  }

  /// The namespace's relations (`name relkind`) and functions (`name()`), sorted.
  private func catalog(of namespace: PaceNamespace, on client: PostgresClient) async throws -> [String] {
    try await strings(
      """
      SELECT c.relname::text || ' ' || c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = \(namespace.name)
      UNION ALL
      SELECT p.proname::text || '()' FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = \(namespace.name)
      ORDER BY 1
      """, on: client)
  }

  /// Everything a migration could change: the schemas, the namespace's
  /// objects and columns, and the rows of its version table.
  private func snapshot(on client: PostgresClient) async throws -> [String] {
    let schemas = try await strings(
      "SELECT nspname::text FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' ORDER BY 1", on: client)
    let columns = try await strings(
      """
      SELECT table_name::text || '.' || column_name::text || ' ' || data_type::text
      FROM information_schema.columns WHERE table_schema = 'fleet' ORDER BY 1
      """, on: client)
    let hasVersionTable = try await strings("SELECT (to_regclass('fleet.schema_version') IS NOT NULL)::text", on: client)
    let versions =
      hasVersionTable == ["true"]
      ? try await strings("SELECT to_jsonb(v)::text FROM fleet.schema_version v ORDER BY 1", on: client) : []
    return schemas + (try await catalog(of: namespace, on: client)) + columns + versions
  }

  private func strings(_ query: PostgresQuery, on client: PostgresClient) async throws -> [String] {
    var results: [String] = []
    for try await value in try await client.query(query).decode(String.self) {
      results.append(value)
    }
    return results
  }

  /// Polls, at most 10 s, until `count` sessions of this database wait for an advisory lock.
  private func waitUntilWaitingOnAdvisoryLocks(_ count: Int, on connection: PostgresConnection) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(10))
    while clock.now < deadline {
      let rows = try await connection.query(
        """
        SELECT count(*) FROM pg_locks
        WHERE locktype = 'advisory' AND NOT granted
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
        """, logger: TestPostgresServer.logger)
      for try await waiting in rows.decode(Int.self) where waiting >= count { return }
      try await clock.sleep(for: .milliseconds(5))
    }
    Issue.record("\(count) migrators did not wait on the migration lock within 10 s")
  }
}
