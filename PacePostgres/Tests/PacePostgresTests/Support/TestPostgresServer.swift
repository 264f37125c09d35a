//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import PostgresNIO
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL server: a new cluster (`initdb`) in a new temporary
/// folder, started with `pg_ctl`, listening on a Unix socket in that folder
/// only (no TCP), stopped and deleted by ``stop()``.
///
/// Nothing is reused: no server left running, no port, no data. As root
/// (CI), `initdb` refuses to run, so the cluster belongs to `nobody` and
/// every server command runs through `runuser -u nobody --`; the tests
/// connect as the cluster's superuser `pace`, trusted on the private socket.
final class TestPostgresServer: Sendable {
  /// The folder of `initdb`, `pg_ctl` and `postgres`, or `nil` when this
  /// machine has none: `PACE_POSTGRES_BIN`, then Debian's PostgreSQL 15
  /// folder, then `PATH`.
  static let binaries: URL? = {
    let environment = ProcessInfo.processInfo.environment
    var candidates = [environment["PACE_POSTGRES_BIN"], "/usr/lib/postgresql/15/bin"].compactMap { $0 }
    candidates += (environment["PATH"] ?? "").split(separator: ":").map(String.init)
    return candidates.lazy.map { URL(fileURLWithPath: $0) }.first { folder in
      ["initdb", "pg_ctl", "postgres"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent($0).path)
      }
    }
  }()

  /// The cluster's superuser, trusted on the socket.
  static let user = "pace"

  /// The temporary folder: the data directory, the socket, the server's log.
  let folder: URL
  /// The socket file clients connect to.
  var socketPath: String { folder.appendingPathComponent(".s.PGSQL.5432").path }
  private let binaries: URL
  private let runAs: String?
  private let databases = Atomic<Int>(0)

  /// Creates a cluster and starts its server; returns once it accepts connections.
  static func start() async throws -> TestPostgresServer {
    guard let binaries else {
      throw Failure("PostgreSQL 15 not found (initdb, pg_ctl, postgres): install postgresql-15 or set PACE_POSTGRES_BIN")
    }
    // /tmp rather than $TMPDIR: `nobody` must reach it, and a socket path has
    // at most 107 bytes.
    var template = Array("/tmp/pace-postgres-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else { throw Failure("mkdtemp failed: errno \(errno)") }
    let folder = URL(fileURLWithPath: String(cString: created))
    var runAs: String? = nil
    if geteuid() == 0 {
      runAs = "nobody"
      guard let nobody = getpwnam("nobody") else { throw Failure("running as root, and there is no user nobody") }
      guard chown(folder.path, nobody.pointee.pw_uid, nobody.pointee.pw_gid) == 0 else {
        throw Failure("chown \(folder.path) to nobody failed: errno \(errno)")
      }
    }
    let server = TestPostgresServer(folder: folder, binaries: binaries, runAs: runAs)
    do {
      try await server.run(
        "initdb", "--pgdata=\(server.dataPath)", "--username=\(user)", "--auth=trust", "--encoding=UTF8",
        "--locale=C", "--no-sync", "--no-instructions")
      // `-w` waits until the server accepts connections, at most `-t` seconds.
      try await server.run(
        "pg_ctl", "start", "-w", "-t", "60", "-D", server.dataPath, "-l", server.folder.appendingPathComponent("server.log").path,
        "-o", "-c listen_addresses='' -k \(folder.path) -c fsync=off -c synchronous_commit=off -c full_page_writes=off")
    } catch {
      await server.stop()
      throw error
    }
    return server
  }

  private init(folder: URL, binaries: URL, runAs: String?) {
    self.folder = folder
    self.binaries = binaries
    self.runAs = runAs
  }

  private var dataPath: String { folder.appendingPathComponent("data").path }

  /// Restarts the server (`-m fast`: connections are cut, what was
  /// committed stays), as a database failover or upgrade would.
  func restart() async throws {
    try await run(
      "pg_ctl", "restart", "-w", "-t", "60", "-m", "fast", "-D", dataPath, "-l",
      folder.appendingPathComponent("server.log").path)
  }

  /// Stops the server at once (`-m immediate`: test data need no checkpoint)
  /// and deletes the folder. Safe to call when the server never started.
  func stop() async {
    if FileManager.default.fileExists(atPath: dataPath + "/postmaster.pid") {
      try? await run("pg_ctl", "stop", "-w", "-t", "60", "-m", "immediate", "-D", dataPath)
    }
    try? FileManager.default.removeItem(at: folder)
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

  /// Runs `body` with a running client of `database`, then shuts the client down.
  func withClient<Result: Sendable>(
    database: String,
    _ body: (PostgresClient) async throws -> Result
  ) async throws -> Result {
    let client = PostgresClient(configuration: configuration(database: database), backgroundLogger: Self.logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      return try await body(client)
    }
  }

  static let logger = Logger(label: "TestPostgresServer", factory: { _ in SwiftLogNoOpLogHandler() })

  /// Runs one of the server's programs (as `nobody`, in the folder, when
  /// root) and waits for it to exit; its output goes to `commands.log` in
  /// the folder, which an error quotes.
  ///
  /// `posix_spawn` and `waitpid` rather than Foundation's `Process`, which
  /// on Linux never reports the exit of `pg_ctl start`: the server it leaves
  /// running keeps the descriptors `Process` watches.
  private func run(_ program: String, _ arguments: String...) async throws {
    let executable = binaries.appendingPathComponent(program).path
    var argv = [executable] + arguments
    if let runAs {
      // `env -C`: a working folder that `runAs` can read, which ours may not be.
      argv = ["/usr/sbin/runuser", "-u", runAs, "--", "/usr/bin/env", "-C", folder.path] + argv
    }
    let logPath = folder.appendingPathComponent("commands.log").path
    let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard log >= 0 else { throw Failure("open \(logPath) failed: errno \(errno)") }
    defer { close(log) }
    let logStart = lseek(log, 0, SEEK_END)

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

    let status: Int32 = await withCheckedContinuation { continuation in
      // A thread of its own: `waitpid` blocks, and the test's threads are few.
      Thread {
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        continuation.resume(returning: status)
      }.start()
    }
    // The exit code when the program exited, else the signal that ended it, negated.
    let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
    guard exitCode == 0 else {
      let bytes = (try? Data(contentsOf: URL(fileURLWithPath: logPath))) ?? Data()
      let output = String(decoding: bytes.dropFirst(Int(max(logStart, 0))), as: UTF8.self)
      let serverLog = (try? String(contentsOfFile: folder.appendingPathComponent("server.log").path, encoding: .utf8)) ?? ""
      throw Failure("\(program) \(arguments.joined(separator: " ")) exited with \(exitCode):\n\(output)\n\(serverLog)")
    }
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
