//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import FleetScenario
import Foundation
import PacePostgres
import PostgresNIO
import Testing

/// Several `FleetProbe` processes on one database: started together (a
/// start file), each printing what its handlers received.
struct FleetRun {
  /// One line `E …` of a probe: an emission a handler received.
  struct Delivery: Hashable {
    var pacer: String
    var key: String
    var value: String
    var id: Int64
    var micros: Int64
    var delivery: Int
    var realtimeNanos: Int64
    var process: Int
  }

  /// A probe's output: its deliveries and its last line of counts.
  struct Output {
    var deliveries: [Delivery] = []
    /// The ids whose handlers started, in order.
    var handlerStarts: [Int64] = []
    var counts: [String: Double] = [:]
    var status: Int32 = 0
    var standardError = ""
  }

  static let probe: URL = {
    let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    return executable.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("FleetProbe")
  }()

  let server: TestPostgresServer
  let database: String
  let namespace: PaceNamespace
  let folder: URL

  init(server: TestPostgresServer, database: String, namespace: PaceNamespace) throws {
    self.server = server
    self.database = database
    self.namespace = namespace
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("pace-fleet-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// The tables the probes share besides the namespace's.
  func prepare(on client: PostgresClient) async throws {
    try await PaceSchema(namespace: namespace).migrate(on: client)
    try await client.query("CREATE TABLE IF NOT EXISTS public.probe_done (process integer PRIMARY KEY)")
    try await client.query("CREATE TABLE IF NOT EXISTS public.naive (key text PRIMARY KEY, window_end timestamptz)")
  }

  /// A started probe.
  final class Probe: @unchecked Sendable {
    let process: Process
    let number: Int
    let outputFile: URL
    let errorFile: URL

    init(process: Process, number: Int, outputFile: URL, errorFile: URL) {
      self.process = process
      self.number = number
      self.outputFile = outputFile
      self.errorFile = errorFile
    }

    /// What it printed so far (all of it once it has exited).
    func output() -> Output {
      var output = Output()
      let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
      for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ").map(String.init)
        if fields.first == "E", fields.count == 8 {
          output.deliveries.append(
            Delivery(
              pacer: fields[1], key: fields[2], value: fields[3], id: Int64(fields[4]) ?? -1,
              micros: Int64(fields[5]) ?? -1, delivery: Int(fields[6]) ?? -1,
              realtimeNanos: Int64(fields[7]) ?? -1, process: number))
        } else if fields.first == "H", fields.count == 2, let id = Int64(fields[1]) {
          output.handlerStarts.append(id)
        } else if fields.first == "S" {
          for field in fields.dropFirst() {
            let pair = field.split(separator: "=")
            if pair.count == 2 { output.counts[String(pair[0])] = Double(pair[1]) }
          }
        }
      }
      output.status = process.isRunning ? 0 : process.terminationStatus
      output.standardError = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
      return output
    }
  }

  var startFile: URL { folder.appendingPathComponent("start") }

  /// Starts probe `number` with `arguments` (after the connection's) and
  /// `environment` added to this process's.
  func launch(_ number: Int, _ arguments: [String], environment extra: [String: String] = [:]) throws -> Probe {
    let process = Process()
    let output = folder.appendingPathComponent("probe-\(number).out")
    let error = folder.appendingPathComponent("probe-\(number).err")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    _ = FileManager.default.createFile(atPath: error.path, contents: nil)
    let probeArguments =
      [
        "--socket", server.socketPath, "--database", database, "--namespace", namespace.name,
        "--process", "\(number)", "--start", startFile.path,
      ] + arguments
    process.executableURL = Self.probe
    process.arguments = probeArguments
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: error)
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = "/usr/bin:/bin"
    environment.merge(extra) { $1 }
    process.environment = environment
    try process.run()
    return Probe(process: process, number: number, outputFile: output, errorFile: error)
  }

  /// Lets the probes go once they all had time to connect.
  func start() throws {
    _ = FileManager.default.createFile(atPath: startFile.path, contents: Data())
  }

  /// Starts `count` probes with `arguments`, lets them go together once
  /// they had time to connect, and waits for them to exit.
  func run(_ count: Int, _ arguments: [String]) async throws -> [Output] {
    let probes = try (0..<count).map { try launch($0, arguments) }
    try await Task.sleep(for: .milliseconds(500))
    try start()
    return try await wait(for: probes)
  }

  /// Waits for `probes` to exit, failing after `limit` (a hang guard).
  func wait(for probes: [Probe], limit: Duration = .seconds(120)) async throws -> [Output] {
    let deadline = ContinuousClock.now + limit
    while probes.contains(where: { $0.process.isRunning }) {
      guard ContinuousClock.now < deadline else {
        let outputs = probes.map { $0.output() }
        let summary = outputs.map { "\($0.deliveries.count) delivered, counts \($0.counts)" }
        let errors = outputs.map(\.standardError).joined(separator: "\n").suffix(4000)
        for probe in probes where probe.process.isRunning { probe.process.terminate() }
        throw FleetRunFailure(description: "probes still running after \(limit): \(summary); their errors: \(errors)")
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    return probes.map { $0.output() }
  }

  /// Every folded send of the namespace, per pacer and key, in order.
  func sendLog(on client: PostgresClient) async throws -> [String: [String: [(micros: Int64, value: String)]]] {
    let ns = namespace.quoted
    let rows = try await client.query(
      """
      SELECT pacer, key, value #>> '{}', \(unescaped: ns).pace_micros(sent_at) FROM \(unescaped: ns).send_log ORDER BY pacer, key, sent_at, id
      """)
    var log: [String: [String: [(micros: Int64, value: String)]]] = [:]
    for try await (pacer, key, value, micros) in rows.decode((String, String, String, Int64).self) {
      log[pacer, default: [:]][key, default: []].append((micros, value))
    }
    return log
  }

  /// Compiles `skew_clock.c` (beside this file) into a library to preload:
  /// a wall clock off by `PACE_SKEW_SECONDS`. Returns its path.
  func compileSkewedClock() throws -> String {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("skew_clock.c")
    let library = folder.appendingPathComponent("skew_clock.so")
    let compiler = Process()
    compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    compiler.arguments = ["cc", "-shared", "-fPIC", "-O2", "-o", library.path, source.path, "-ldl"]
    try compiler.run()
    compiler.waitUntilExit()
    guard compiler.terminationStatus == 0 else {
      throw FleetRunFailure(description: "cc could not compile \(source.path)")
    }
    return library.path
  }

  func removeFolder() {
    try? FileManager.default.removeItem(at: folder)
  }
}

struct FleetRunFailure: Error, CustomStringConvertible {
  var description: String
}
