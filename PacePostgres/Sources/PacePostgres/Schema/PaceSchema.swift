//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Logging
import PostgresNIO

/// The tables that fleet pacers share, created and migrated by the library.
///
/// Call ``migrate(on:logger:answerTimeout:)`` when a process starts, before its pacers:
/// every process of the fleet may do so at once. The migration runs in one
/// transaction behind a transaction-level advisory lock on the namespace, so
/// concurrent migrators queue: the first creates or upgrades, the others find
/// the work done. It records the schema version in the namespace; a database
/// migrated by a newer Pace, or whose version table was damaged, is refused
/// with a ``PaceSchemaError`` and left exactly as it was.
///
/// ```swift
/// let client = PostgresClient(configuration: configuration)  // the application's
/// let schema = PaceSchema(namespace: try PaceNamespace("notifications"))
/// try await schema.migrate(on: client)  // `client.run()` is running in a task
/// ```
///
/// ## The tables (version 1)
///
/// All live in the namespace's schema, which Pace owns:
///
/// - `keys`: one row per **live** key of a pacer, primary key `(pacer, key)`:
///   its runner's stored state (`state`, JSON; none before the first fold
///   of a send that the database did not step itself)
///   and when a worker must next look at it (`due_at`: the policy's
///   deadline, or a send not yet folded in; indexed, for claiming due keys
///   with `FOR UPDATE SKIP LOCKED`), whether the policy holds a value it
///   may still emit (`pending`), and what the key does at its deadline if
///   no send comes first (`fire`, JSON, worked out by the fold, or the
///   send's step in `pace_send_step`, that stored the row: a due key with no
///   send since fires in one statement, without a fold). A key's row goes when its policy holds
///   nothing a new one would not, as in the keyed pacer's memory.
/// - `outbox`: emissions committed in the same transaction as the state
///   change that made them, delivered per key in `id` order. `id` is the
///   idempotency key: it comes from the sequence `emission_id`, which belongs
///   to the namespace rather than to a key or a table, so it never repeats,
///   even after an idle key's row is removed and the key comes back.
///   A claim sets `lease_owner` and `lease_expires_at` and counts
///   `deliveries` (more than one is a redelivery).
/// - `sends`: each accepted send not yet folded into its key's state, with
///   its database instant (`sent_at`).
/// - `send_log`: folded and stepped sends, for pacers that keep them
///   (``FleetConfiguration/keepsSendLog``), so that a test or an audit can
///   replay exactly what the policies were told.
/// - `schema_version`: one row, the version, the instant of the last
///   migration, and `incarnation`, a random UUID drawn when the namespace
///   was created: it tells a namespace dropped and created again (whose
///   `outbox.id` starts over) from the one before.
///
/// ## One clock
///
/// Every instant, in every table and every statement, is the namespace's
/// function `pace_now()`, which is ``clockExpression`` (`clock_timestamp()`):
/// never a host's clock, never `now()`, never a mix. `now()` and
/// `statement_timestamp()` are read when a transaction or statement starts,
/// before it waits for a key's row lock, so a send that waited behind
/// another could record an instant earlier than the one committed before it;
/// `clock_timestamp()` read once the key is locked keeps each key's
/// instants in the order its sends were applied. It changes within a
/// statement, so where one instant matters (a send's, a fold's) the
/// functions read it once into a variable.
public struct PaceSchema: Sendable, Hashable {
  /// The schema version this library creates and understands.
  public static let version = 1

  /// The one database clock expression behind every instant Pace stores or
  /// compares, through the namespace's `pace_now()` function.
  public static let clockExpression = "clock_timestamp()"

  /// The namespace whose tables this schema creates and migrates.
  public let namespace: PaceNamespace

  /// A schema for the tables of `namespace`.
  public init(namespace: PaceNamespace) {
    self.namespace = namespace
  }

  /// What ``migrate(on:logger:answerTimeout:)`` did.
  public enum Migration: Sendable, Hashable {
    /// The namespace had no Pace tables; they were created at ``PaceSchema/version``.
    case created
    /// The namespace was at an older version and was migrated to ``PaceSchema/version``.
    case upgraded(from: Int)
    /// The namespace was already at ``PaceSchema/version``; nothing changed.
    case upToDate
  }

  /// Creates the namespace's tables, or migrates them to ``version``.
  ///
  /// Safe to call from every process at once, and again on every start.
  ///
  /// - Parameters:
  ///   - client: A running client of the database; Pace leases one
  ///     connection for one transaction.
  ///   - logger: Where the migration says what it did.
  ///   - answerTimeout: How long to wait for the database: a client whose
  ///     database cannot be reached waits for a connection for ever.
  /// - Returns: What the migration found and did.
  /// - Throws: ``PaceSchemaError`` when the namespace holds a newer or an
  ///   unknown version, or is a schema Pace did not create; the database is
  ///   then unchanged. ``PaceSchemaError/noAnswer(namespace:within:)`` when
  ///   the database did not answer in time. Errors of the database or the
  ///   connection otherwise, after which the transaction was rolled back.
  @discardableResult
  public func migrate(
    on client: PostgresClient, logger: Logger = Self.silentLogger, answerTimeout: Duration = .seconds(10)
  ) async throws -> Migration {
    let namespace = self.namespace
    do {
      return try await withAnswerTimeout(answerTimeout) {
        try await client.withTransaction(logger: logger) { connection in
          try await Self.migrate(namespace, on: connection, logger: logger)
        }
      }
    } catch is AnswerTimeout {
      throw PaceSchemaError.noAnswer(namespace: namespace.name, within: answerTimeout)
    } catch let error as PostgresTransactionError {
      // A refusal is thrown as itself: the transaction was rolled back (or,
      // should the rollback fail, its connection closed, which aborts it too).
      if let refusal = error.closureError as? PaceSchemaError { throw refusal }
      throw error
    }
  }

  /// The schema version the namespace records, or `nil` when it has no Pace
  /// version table.
  ///
  /// - Throws: ``PaceSchemaError/unknownVersion(namespace:found:)`` when the
  ///   table exists but holds no version; errors of the database otherwise.
  public func installedVersion(on client: PostgresClient, logger: Logger = Self.silentLogger) async throws -> Int? {
    let namespace = self.namespace
    return try await client.withConnection { connection in
      try await Self.installedVersion(of: namespace, on: connection, logger: logger)
    }
  }

  /// A logger that drops everything: the default of every `logger:` parameter.
  public static let silentLogger = Logger(label: "PacePostgres", factory: { _ in SwiftLogNoOpLogHandler() })

  /// The text behind the transaction-level advisory lock that serializes the
  /// migrators of one namespace: `pg_advisory_xact_lock(hashtextextended(lockName, 0))`.
  package static func migrationLockName(_ namespace: PaceNamespace) -> String {
    "pace.schema \(namespace.name)"
  }

  private static func migrate(
    _ namespace: PaceNamespace,
    on connection: PostgresConnection,
    logger: Logger
  ) async throws -> Migration {
    let lockName = migrationLockName(namespace)
    try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(lockName), 0))", logger: logger)

    let from: Int
    switch try await installedVersion(of: namespace, on: connection, logger: logger) {
    case nil:
      // No version table: a new namespace, unless the schema holds someone else's objects.
      let objects = try await objectNames(in: namespace, on: connection, logger: logger)
      guard objects.isEmpty else {
        throw PaceSchemaError.notAPaceSchema(namespace: namespace.name, objects: objects)
      }
      from = 0
    case let version? where version > Self.version:
      // A newer Pace migrated it: its tables may mean what this library does not know.
      throw PaceSchemaError.newerVersion(namespace: namespace.name, found: version, supported: Self.version)
    case let version? where version < 1:
      // No release writes these: the table was edited by hand.
      throw PaceSchemaError.unknownVersion(namespace: namespace.name, found: version)
    case let version? where version == Self.version:
      // Another process migrated it, or this one at an earlier start.
      logger.debug("Pace schema is up to date", metadata: ["namespace": "\(namespace)", "version": "\(version)"])
      return .upToDate
    case let version?:
      // An older release's schema: run the versions after it.
      from = version
    }

    for version in (from + 1)...Self.version {
      for statement in SchemaMigrations.statements(toVersion: version, in: namespace) {
        try await connection.query(statement, logger: logger)
      }
    }
    let ns = namespace.quoted
    if from == 0 {
      try await connection.query(
        "INSERT INTO \(unescaped: ns).schema_version (version) VALUES (\(Self.version))", logger: logger)
    } else {
      try await connection.query(
        "UPDATE \(unescaped: ns).schema_version SET version = \(Self.version), migrated_at = \(unescaped: ns).pace_now()",
        logger: logger)
    }
    logger.info(
      "Pace schema migrated",
      metadata: ["namespace": "\(namespace)", "from": "\(from)", "to": "\(Self.version)"])
    return from == 0 ? .created : .upgraded(from: from)
  }

  private static func installedVersion(
    of namespace: PaceNamespace,
    on connection: PostgresConnection,
    logger: Logger
  ) async throws -> Int? {
    // Read from `pg_class` itself, not through `to_regclass`: a session
    // answers `to_regclass` from its catalog cache, which a migrator that
    // waited on the advisory lock (no relation lock) has not refreshed, so
    // it could miss tables another migrator committed meanwhile. A read of
    // `pg_class` sees every committed row (a statement's new snapshot), and
    // opening it takes in the pending cache updates, so that the `SELECT`
    // of the version table below finds the table.
    let exists = try await connection.query(
      """
      SELECT EXISTS (SELECT FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                     WHERE n.nspname = \(namespace.name) AND c.relname = 'schema_version')
      """, logger: logger)
    for try await hasTable in exists.decode(Bool.self) where !hasTable {
      return nil
    }
    let table = "\(namespace.quoted).schema_version"
    let rows = try await connection.query("SELECT version FROM \(unescaped: table)", logger: logger)
    var versions: [Int] = []
    for try await version in rows.decode(Int32.self) {
      versions.append(Int(version))
    }
    guard let version = versions.first else {
      throw PaceSchemaError.unknownVersion(namespace: namespace.name, found: nil)
    }
    return version
  }

  /// The relations, functions and types in the namespace's schema, if it exists.
  private static func objectNames(
    in namespace: PaceNamespace,
    on connection: PostgresConnection,
    logger: Logger
  ) async throws -> [String] {
    let rows = try await connection.query(
      """
      SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = \(namespace.name)
      UNION ALL
      SELECT p.proname::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = \(namespace.name)
      UNION ALL
      SELECT t.typname::text FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE n.nspname = \(namespace.name) AND t.typrelid = 0 AND t.typcategory <> 'A'
      ORDER BY 1
      """,
      logger: logger)
    var names: [String] = []
    for try await name in rows.decode(String.self) {
      names.append(name)
    }
    return names
  }
}
