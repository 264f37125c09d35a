//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Dispatch
import Logging
import Pace
import PacePostgres
import PostgresNIO

/// `pace --postgres URL [--namespace NAME] [--by REGEX] STAGE... [-- COMMAND]`:
/// every `pace` that names the same database, namespace, stages and command
/// is one fleet pacer (`FleetPacer` of PacePostgres), on whichever hosts.
///
/// Each line is a send to its key, on the database's clock. What the stages
/// emit is delivered once across the fleet, by whichever process's worker
/// claims it: printed on that process's standard output, or, with a
/// command, run there (one run of a key at a time across the fleet, in
/// order). The end of one process's input is not the end of a shared key:
/// nothing is flushed early. The process exits once what its own lines led
/// to has been delivered, by whichever process (`waitUntilSettled`),
/// delivering meanwhile what falls to it.
struct FleetStream {
  var url: PostgresURL
  var namespace: PaceNamespace
  var stages: [PacingStage<String>]
  var pattern: KeyPattern?
  var command: CommandOptions?
  /// The pacer's name in the namespace: the stages and the command as
  /// written, so that only processes that do the same share keys.
  var pacerName: String

  /// How many lines may wait to be sent.
  static let pendingLineLimit = 256

  /// Runs to the end of the input and of what it led to. SIGINT and SIGTERM
  /// stop it at once: running commands are stopped and their emissions
  /// given back to the fleet, which runs them again.
  func run() async throws {
    let logger = Logger(label: "pace") { _ in StandardErrorLogHandler() }
    let operation = Task { try await runToTheEnd(logger: logger) }
    let signals = TerminationSignals { status in
      operation.cancel()
      _ = await operation.result
      return status
    }
    try await operation.value
    withExtendedLifetime(signals) {}
  }

  private func runToTheEnd(logger: Logger) async throws {
    try await checkConnection(logger: logger)
    let client = PostgresClient(configuration: url.configuration, backgroundLogger: logger)
    try await withThrowingDiscardingTaskGroup { group in
      group.addTask { await client.run() }
      try await PaceSchema(namespace: namespace).migrate(on: client, logger: logger)
      let command = command
      let pacer = FleetPacer(
        .stages(stages), name: pacerName, namespace: namespace, client: client, logger: logger
      ) { (emission: FleetEmission<FleetLineKey, String>) in
        try await Self.deliver(emission, running: command)
      }
      try await withThrowingTaskGroup(of: Void.self) { fleet in
        fleet.addTask { try await pacer.run() }
        fleet.addTask {
          try await send(Self.lines(), to: pacer)
          pacer.shutDownGracefully()
        }
        // The first error (the worker's, a send's, the input's) ends both.
        try await fleet.waitForAll()
      }
      group.cancelAll()
    }
  }

  /// Connects once, on a connection of its own: a server that cannot be
  /// reached, or that refuses, is said at once and why (a client's pool
  /// would try again and again, silently).
  private func checkConnection(logger: Logger) async throws {
    do {
      let connection = try await PostgresConnection.connect(
        configuration: url.connectionConfiguration(), id: 0, logger: logger)
      try await connection.close()
    } catch {
      let reason: String
      if let error = error as? PSQLError {
        reason = error.serverInfo?[.message] ?? error.underlying.map { "\($0)" } ?? "\(error.code)"
      } else {
        reason = "\(error)"
      }
      throw FleetStreamError(message: "cannot connect to PostgreSQL at \(url.location): \(reason)")
    }
  }

  /// Sends each line to its key, then waits until what they led to has
  /// been delivered.
  private func send(
    _ input: (lines: AsyncThrowingStream<String, any Error>, room: DispatchSemaphore),
    to pacer: FleetPacer<FleetLineKey, PacingPipeline<String, DriverInstant>>
  ) async throws {
    var keys: Set<FleetLineKey> = []
    for try await line in input.lines {
      input.room.signal()
      let key = FleetLineKey(pattern.flatMap { $0.key(in: line) })
      try await pacer.send(line, for: key)
      keys.insert(key)
    }
    try await pacer.waitUntilSettled(keys)
  }

  /// An emission, delivered here: printed, or the command run for it. A
  /// command that fails is said and not run again; one stopped because
  /// pace stops is given back to the fleet.
  private static func deliver(_ emission: FleetEmission<FleetLineKey, String>, running command: CommandOptions?) async throws {
    guard let command else {
      FileDescriptorOutput.standardOutput.write(emission.value + "\n")
      return
    }
    let outcome = await CommandRun.run(command, line: Array(emission.value.utf8), key: emission.key.key) { _ in }
    try Task.checkCancellation()
    CommandRun.report(outcome, wasStopped: false, command)
  }

  /// The lines of standard input, read on a thread of their own (a read
  /// blocks). At most ``pendingLineLimit`` wait to be sent: the reader
  /// waits for `room`, which the sender gives back as it takes each line.
  private static func lines() -> (lines: AsyncThrowingStream<String, any Error>, room: DispatchSemaphore) {
    let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
    let room = DispatchSemaphore(value: pendingLineLimit)
    let started = BlockingThread.start {
      var reader = LineReader(descriptor: 0)
      do throws(ReadError) {
        while try reader.read({ line in
          room.wait()
          continuation.yield(line.text)
        }) {}
        continuation.finish()
      } catch {
        continuation.finish(throwing: FleetStreamError(message: "cannot read the input: \(error.message)"))
      }
    }
    if !started { continuation.finish(throwing: FleetStreamError(message: "cannot start a thread to read the input")) }
    return (stream, room)
  }
}

/// A line's key in a fleet: `--by`'s match, or none (the lines that match
/// no key, and every line without `--by`). Stored as `=KEY` or `-`, so that
/// an empty match and no match stay apart.
struct FleetLineKey: LosslessStringConvertible, Hashable, Sendable {
  var key: String?

  init(_ key: String?) {
    self.key = key
  }

  init?(_ description: String) {
    if description == "-" {
      key = nil
    } else if description.hasPrefix("=") {
      key = String(description.dropFirst())
    } else {
      return nil
    }
  }

  var description: String { key.map { "=" + $0 } ?? "-" }
}

/// The input could not be read, or the database reached: pace exits 1 with
/// this message.
struct FleetStreamError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
