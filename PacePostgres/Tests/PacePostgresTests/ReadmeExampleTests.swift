//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import Pace
import PacePostgres
import PostgresNIO
import ServiceLifecycle
import Synchronization
import Testing

/// The README's example, as a new user pastes it: the client and the worker
/// in one service group, the migration once the client runs, a send, on the
/// real clock. Only what the example leaves to the application is made up
/// here: its client configuration, logger, mailer, digest and user.
@Suite(
  .postgresServer,
  .enabled(if: TestPostgresServer.binaries != nil, Comment(rawValue: TestPostgresServer.skipMessage)),
  .timeLimit(.minutes(3))
)
struct ReadmeExampleTests {
  struct Digest: Codable, Sendable, Equatable {
    var lines: [String]
  }

  /// The application's mailer: what it was asked to send.
  final class Mailer: Sendable {
    private let sent = Mutex<[(digest: Digest, user: String, idempotencyKey: String)]>([])

    func send(_ digest: Digest, to user: String, idempotencyKey: String) async throws {
      sent.withLock { $0.append((digest, user, idempotencyKey)) }
    }

    var all: [(digest: Digest, user: String, idempotencyKey: String)] { sent.withLock { $0 } }
  }

  @Test func readmeExample_runsAsWritten() async throws {
    let server = try TestPostgresServer.required()
    let configuration = server.configuration(database: try await server.makeDatabase())
    let logger = testLogger
    let mailer = Mailer()
    let digest = Digest(lines: ["3 new comments on \"Pacing\""])
    let userID = "user-42"

    // The README's example, from here to the end of the task group's body.
    let client = PostgresClient(configuration: configuration)  // the application's own
    let namespace = try PaceNamespace("notifications")

    // "At most one digest per user per ten minutes, with the latest content",
    // however many replicas send:
    let digests = FleetPacer(.throttle(for: .seconds(600)), name: "digest", namespace: namespace, client: client,
                             logger: logger) { (emission: FleetEmission<String, Digest>) in
      try await mailer.send(emission.value, to: emission.key, idempotencyKey: "\(emission.id)")
    }

    // The worker is a Service: run it beside the client.
    let group = ServiceGroup(services: [client, digests], logger: logger)
    try await withThrowingDiscardingTaskGroup { tasks in
      tasks.addTask { try await group.run() }
      // Every process, at every start, once the client runs (a worker that
      // starts first waits for it, up to `answerTimeout`):
      try await PaceSchema(namespace: namespace).migrate(on: client)
      // Anywhere, in any process:
      try await digests.send(digest, for: userID)

      // The example ends here; the test looks at what it did, and stops it.
      let deadline = ContinuousClock.now + .seconds(60)  // a hang guard, not a timing assertion
      while mailer.all.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
      let sent = mailer.all
      #expect(sent.map(\.digest) == [digest])
      #expect(sent.map(\.user) == [userID])
      #expect(sent.allSatisfy { Int64($0.idempotencyKey) != nil })
      await group.triggerGracefulShutdown()
    }
  }
}
