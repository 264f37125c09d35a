//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import PacePostgres
import PostgresNIO
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL server, made, restarted and stopped by
/// `PacePostgres/Scripts/throwaway-postgres` (which the benchmark and the
/// command line's tests use too): a new cluster in a new temporary folder,
/// listening on a Unix socket in that folder only (no TCP), as `nobody` when
/// root; the tests connect as its superuser `pace`, trusted on the socket.
///
/// Nothing is reused: no server left running, no port, no data.
final class TestPostgresServer: Sendable {
  /// The script that starts, restarts and stops the server.
  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scripts/throwaway-postgres")

  /// The folder of `initdb`, `pg_ctl` and `postgres`, as the script finds
  /// it, or `nil` when this machine has none.
  static let binaries: URL? = {
    let process = Process()
    process.executableURL = script
    process.arguments = ["binaries"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return process.terminationStatus == 0 && !path.isEmpty ? URL(fileURLWithPath: path) : nil
  }()

  /// The cluster's superuser, trusted on the socket.
  static let user = "pace"

  /// The temporary folder: the data directory, the socket, the server's log.
  let folder: URL
  /// The socket file clients connect to.
  var socketPath: String { folder.appendingPathComponent(".s.PGSQL.5432").path }
  private let databases = Atomic<Int>(0)

  /// Creates a cluster and starts its server; returns once it accepts connections.
  static func start() async throws -> TestPostgresServer {
    guard binaries != nil else {
      throw Failure("PostgreSQL 15 not found (initdb, pg_ctl, postgres): install postgresql-15 or set PACE_POSTGRES_BIN")
    }
    // /tmp rather than $TMPDIR: `nobody` must reach it, and a socket path has
    // at most 107 bytes.
    var template = Array("/tmp/pace-postgres-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else { throw Failure("mkdtemp failed: errno \(errno)") }
    let server = TestPostgresServer(folder: URL(fileURLWithPath: String(cString: created)))
    do {
      // Test data need no durability.
      try await server.script("start", "fsync=off", "synchronous_commit=off", "full_page_writes=off")
    } catch {
      await server.stop()
      throw error
    }
    return server
  }

  private init(folder: URL) {
    self.folder = folder
  }

  /// Restarts the server (`-m fast`: connections are cut, what was
  /// committed stays), as a database failover or upgrade would.
  func restart() async throws {
    try await script("restart")
  }

  /// Stops the server at once (test data need no checkpoint) and deletes
  /// the folder. Safe to call when the server never started.
  func stop() async {
    try? await script("stop")
  }

  /// Creates a new, empty database and returns its name.
  func makeDatabase() async throws -> String {
    let name = "test_\(databases.add(1, ordering: .relaxed).newValue)"
    try await withClient(database: "postgres") { client in
      _ = try await client.query("CREATE DATABASE \(unescaped: name)")
    }
    return name
  }

  /// A client configuration for `database` on this server's socket.
  func configuration(database: String) -> PostgresClient.Configuration {
    PostgresClient.Configuration(unixSocketPath: socketPath, username: Self.user, password: nil, database: database)
  }

  /// Runs `body` with a running client of `database`, then shuts the client
  /// down; with `maximumConnections`, a client of at most that many.
  func withClient<Result: Sendable>(
    database: String,
    maximumConnections: Int? = nil,
    _ body: (PostgresClient) async throws -> Result
  ) async throws -> Result {
    var configuration = configuration(database: database)
    if let maximumConnections {
      configuration.options.maximumConnections = maximumConnections
      configuration.options.minimumConnections = min(configuration.options.minimumConnections, maximumConnections)
    }
    let client = PostgresClient(configuration: configuration, backgroundLogger: Self.logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      return try await body(client)
    }
  }

  static let logger = Logger(label: "TestPostgresServer", factory: { _ in SwiftLogNoOpLogHandler() })

  /// Runs the script's `command` on this server's folder and waits for it
  /// to exit; a failure quotes what it printed.
  ///
  /// `posix_spawn` and `waitpid` rather than Foundation's `Process`, which
  /// on Linux may never report the exit of a program that leaves a server
  /// running behind it.
  private func script(_ command: String, _ arguments: String...) async throws {
    let argv = [Self.script.path, command, folder.path] + arguments
    var template = Array("/tmp/pace-postgres-output-XXXXXX".utf8CString)
    let log = mkstemp(&template)
    guard log >= 0 else { throw Failure("mkstemp failed: errno \(errno)") }
    let logPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer {
      close(log)
      unlink(logPath)
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, log, 1)
    posix_spawn_file_actions_adddup2(&actions, log, 2)
    var pid = pid_t()
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
    guard spawned == 0 else { throw Failure("posix_spawn \(argv[0]) failed: \(spawned)") }
    let child = pid
    // A script that hangs is killed, and its output says where it was: a
    // failure to read, not a test run that never ends.
    let killer = Task {
      try await Task.sleep(for: .seconds(90))
      kill(child, SIGKILL)
    }
    defer { killer.cancel() }

    let status: Int32 = await withCheckedContinuation { continuation in
      // A thread of its own: `waitpid` blocks, and the test's threads are few.
      Thread {
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        continuation.resume(returning: status)
      }.start()
    }
    // The exit code when the script exited, else the signal that ended it, negated.
    let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
    guard exitCode == 0 else {
      let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
      throw Failure("throwaway-postgres \(command) \(arguments.joined(separator: " ")) exited with \(exitCode):\n\(output)")
    }
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

/// Runs `body` with a client of a fresh database of the test server, its
/// `namespace` migrated.
func withMigratedNamespace(
  _ namespace: PaceNamespace, _ body: (PostgresClient) async throws -> Void
) async throws {
  let server = try TestPostgresServer.required()
  let database = try await server.makeDatabase()
  try await server.withClient(database: database) { client in
    try await PaceSchema(namespace: namespace).migrate(on: client)
    try await body(client)
  }
}
