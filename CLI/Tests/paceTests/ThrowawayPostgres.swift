//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// A throwaway PostgreSQL server for the `pace --postgres` tests, made and
/// stopped by `PacePostgres/Scripts/throwaway-postgres`, as PacePostgres's
/// own tests make theirs: a new cluster in a new folder under /tmp, on a
/// Unix socket there only.
struct ThrowawayPostgres: Sendable {
  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("PacePostgres/Scripts/throwaway-postgres")

  /// Whether this machine has PostgreSQL 15, as the script finds it.
  static let isAvailable: Bool = (try? runScript(["binaries"])) != nil

  /// The message a suite prints when it is skipped for want of PostgreSQL.
  static let skipMessage =
    "PostgreSQL tests skipped: no PostgreSQL 15 (initdb, pg_ctl, postgres) in PACE_POSTGRES_BIN, "
    + "/usr/lib/postgresql/15/bin or PATH; install postgresql-15"

  /// The folder of the cluster and its socket.
  let folder: String

  /// A URL of the server's `postgres` database, for `--postgres`.
  var url: String { "postgres://pace@/postgres?host=\(folder)" }

  static func start() throws -> ThrowawayPostgres {
    // Under /tmp, and short: `nobody` must reach it, and a socket path has at most 107 bytes.
    let folder = "/tmp/pace-cli-postgres-\(UUID().uuidString.prefix(8))"
    try runScript(["start", folder, "fsync=off", "synchronous_commit=off", "full_page_writes=off"])
    return ThrowawayPostgres(folder: folder)
  }

  func stop() {
    _ = try? Self.runScript(["stop", folder])
  }

  /// Runs the script; its output goes to a file (not a pipe, which a server
  /// started behind it could hold open), which an error quotes.
  @discardableResult
  private static func runScript(_ arguments: [String]) throws -> String {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("throwaway-postgres-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: log) }
    let handle = try FileHandle(forWritingTo: log)
    defer { try? handle.close() }
    let process = Process()
    process.executableURL = script
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    process.waitUntilExit()
    let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    guard process.terminationStatus == 0 else {
      throw Failure(description: "throwaway-postgres \(arguments.joined(separator: " ")) failed:\n\(output)")
    }
    return output
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }
}

/// A suite trait: one throwaway server for the suite, stopped after its last
/// test, whether they passed or not; tests reach it as `ThrowawayPostgres.current`.
struct ThrowawayPostgresTrait: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let server = try ThrowawayPostgres.start()
    defer { server.stop() }
    try await ThrowawayPostgres.$current.withValue(server) { try await function() }
  }
}

extension Trait where Self == ThrowawayPostgresTrait {
  /// One throwaway PostgreSQL server for the suite.
  static var throwawayPostgres: Self { Self() }
}

extension ThrowawayPostgres {
  @TaskLocal static var current: ThrowawayPostgres?

  static func required() throws -> ThrowawayPostgres {
    try #require(current, "the suite needs the .throwawayPostgres trait")
  }
}
