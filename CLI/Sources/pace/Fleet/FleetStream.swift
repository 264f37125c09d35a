//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser
import Dispatch
import Logging
import Pace
import PacePostgres
import PostgresNIO
import Synchronization

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
  var stages: [PacingStage<FleetLine>]
  var pattern: KeyPattern?
  var command: CommandOptions?
  /// The pacer's name in the namespace: the stages and the command as
  /// written, so that only processes that do the same share keys.
  var pacerName: String

  /// How many lines may wait to be sent.
  static let pendingLineLimit = 256

  /// How long a stopped `pace` lets its worker give its leases back, once
  /// its commands stopped, before it stops the client regardless.
  static let giveBackTime = Duration.seconds(2)

  /// Runs to the end of the input and of what it led to. SIGINT and SIGTERM
  /// stop it at once: running commands are stopped and their emissions
  /// given back to the fleet, which runs them again.
  func run() async throws {
    let logger = Logger(label: "pace") { _ in StandardErrorLogHandler() }
    let operation = Task { try await runToTheEnd(logger: logger) }
    let stoppedBy = Mutex<Int32?>(nil)
    let signals = TerminationSignals { status in
      // The first signal decides the exit status; `run` exits with it.
      stoppedBy.withLock { $0 = $0 ?? status }
      operation.cancel()
      _ = await operation.result
      return stoppedBy.withLock { $0 } ?? status
    }
    let result = await operation.result
    withExtendedLifetime(signals) {}
    if let status = stoppedBy.withLock({ $0 }) { throw ExitCode(status) }
    try result.get()
  }

  private func runToTheEnd(logger: Logger) async throws {
    try await checkConnection(logger: logger)
    let client = PostgresClient(configuration: url.configuration, backgroundLogger: logger)
    // Not a child of this task, which a signal cancels: the worker, when
    // cancelled, gives its leases back through the client, which must
    // still run then. It stops once the worker is done, or, after a
    // signal, once the running commands had their time to stop and the
    // give-back a moment more: a server that went away must not hold the
    // exit for a call's time limit.
    let connections = Task { await client.run() }
    let grace = (command?.stopTimeout ?? .zero) + Self.giveBackTime
    let failure: (any Error)?
    do {
      try await withTaskCancellationHandler {
        try await pace(on: client, logger: logger)
      } onCancel: {
        Task {
          try? await Task.sleep(for: grace)
          connections.cancel()
        }
      }
      failure = nil
    } catch {
      failure = error
    }
    connections.cancel()
    await connections.value
    if let failure { throw failure }
  }

  /// Migrates, then sends the input and delivers until what it led to is
  /// delivered (or the task is cancelled, when the worker gives back what
  /// it holds).
  private func pace(on client: PostgresClient, logger: Logger) async throws {
    try await PaceSchema(namespace: namespace).migrate(on: client, logger: logger)
    let command = command
    let pacer = FleetPacer(
      .stages(stages), name: pacerName, namespace: namespace, client: client, logger: logger
    ) { (emission: FleetEmission<FleetLineKey, FleetLine>) in
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
        reason = error.serverInfo?[.message] ?? error.underlying.map { ConnectionFailure.reason("\($0)") } ?? "\(error.code)"
      } else {
        reason = "\(error)"
      }
      throw FleetStreamError(message: "cannot connect to PostgreSQL at \(url.location): \(reason)")
    }
  }

  /// Sends each line to its key, then waits until what they led to has
  /// been delivered.
  private func send(
    _ input: (lines: AsyncThrowingStream<FleetLine, any Error>, room: DispatchSemaphore),
    to pacer: FleetPacer<FleetLineKey, PacingPipeline<FleetLine, DriverInstant>>
  ) async throws {
    var keys: Set<FleetLineKey> = []
    for try await line in input.lines {
      input.room.signal()
      let key = FleetLineKey(pattern.flatMap { $0.key(in: line.text) })
      try await pacer.send(line, for: key)
      keys.insert(key)
    }
    try await pacer.waitUntilSettled(keys)
  }

  /// An emission, delivered here: printed, or the command run for it. A
  /// command that fails is said and not run again; one stopped because
  /// pace stops is given back to the fleet.
  private static func deliver(_ emission: FleetEmission<FleetLineKey, FleetLine>, running command: CommandOptions?)
    async throws
  {
    guard let command else {
      FileDescriptorOutput.standardOutput.write(emission.value.bytes + [0x0A])
      return
    }
    let outcome = await CommandRun.run(command, line: emission.value.bytes, key: emission.key.key) { _ in }
    try Task.checkCancellation()
    CommandRun.report(outcome, wasStopped: false, command)
  }

  /// The lines of standard input, read on a thread of their own (a read
  /// blocks). At most ``pendingLineLimit`` wait to be sent: the reader
  /// waits for `room`, which the sender gives back as it takes each line.
  private static func lines() -> (lines: AsyncThrowingStream<FleetLine, any Error>, room: DispatchSemaphore) {
    let (stream, continuation) = AsyncThrowingStream<FleetLine, any Error>.makeStream()
    let room = DispatchSemaphore(value: pendingLineLimit)
    let started = BlockingThread.start {
      var reader = LineReader(descriptor: 0)
      do throws(ReadError) {
        while try reader.read({ line in
          room.wait()
          continuation.yield(FleetLine(bytes: line.bytes))
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

/// A line as a fleet stores it: its bytes as they came, whatever they are.
/// A line of UTF-8 text without NUL (which PostgreSQL's JSON refuses) is
/// stored as a JSON string; any other as `{"bytes": [...]}`.
struct FleetLine: Codable, Equatable, Sendable {
  var bytes: [UInt8]

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The text a filter matches and `--by` reads.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  private enum CodingKeys: String, CodingKey { case bytes }

  init(from decoder: any Decoder) throws {
    if let text = try? decoder.singleValueContainer().decode(String.self) {
      bytes = Array(text.utf8)
    } else {
      bytes = try decoder.container(keyedBy: CodingKeys.self).decode([UInt8].self, forKey: .bytes)
    }
  }

  func encode(to encoder: any Encoder) throws {
    if !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) {
      var container = encoder.singleValueContainer()
      try container.encode(text)
    } else {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(bytes, forKey: .bytes)
    }
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
