//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import PacePostgres
import Synchronization

/// What handlers received, from any task, and a way to wait for it.
final class EmissionLog<Value: Sendable>: Sendable {
  struct Entry: Sendable {
    var key: String
    var value: Value
    var id: Int64
    var emittedAt: Date
    var delivery: Int
    var deliveredAt: ContinuousClock.Instant
  }

  private let entries = Mutex<[Entry]>([])

  func record(_ emission: FleetEmission<String, Value>) {
    let entry = Entry(
      key: emission.key, value: emission.value, id: emission.id, emittedAt: emission.emittedAt,
      delivery: emission.delivery, deliveredAt: .now)
    entries.withLock { $0.append(entry) }
  }

  var all: [Entry] { entries.withLock { $0 } }

  /// Waits until `condition` holds of the entries, looking every 10 ms;
  /// fails after `limit` (a hang guard, not a timing assertion).
  func wait(
    for limit: Duration = .seconds(60), until condition: ([Entry]) -> Bool
  ) async throws -> [Entry] {
    let deadline = ContinuousClock.now + limit
    while true {
      let now = all
      if condition(now) { return now }
      guard ContinuousClock.now < deadline else {
        throw WaitFailure(description: "gave up after \(limit) with \(now.count) emissions")
      }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  struct WaitFailure: Error, CustomStringConvertible {
    var description: String
  }
}
