//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation

/// One emission of a fleet pacer, as its handler receives it.
///
/// Delivery is at least once: a process that dies while its handler runs
/// has its lease expire, and another process delivers the same emission
/// again, with the same ``id`` and a higher ``delivery``. Make the handler's
/// effect idempotent on ``id``:
///
/// ```swift
/// let pacer = FleetPacer(.throttle(for: .seconds(600), edges: .leading), name: "alerts",
///                        namespace: namespace, client: client) { (emission: FleetEmission<String, Alert>) in
///   try await mailer.send(emission.value, to: emission.key, idempotencyKey: "\(emission.id)")
/// }
/// ```
public struct FleetEmission<Key: Sendable, Value: Sendable>: Sendable {
  /// The key whose policy emitted the value.
  public let key: Key
  /// The value.
  public let value: Value
  /// The idempotency key: unique in the namespace for as long as it exists,
  /// never reused, even after the key's row is removed and the key comes
  /// back. A redelivery carries the same id.
  public let id: Int64
  /// The database instant at which the policy emitted the value: the
  /// instant of the send (a leading edge) or of the deadline (a trailing
  /// edge), however late the worker ran.
  public let emittedAt: Date
  /// 1 for the first delivery; more when an earlier delivery's process
  /// died or its handler threw before the emission was done.
  public let delivery: Int

  /// An emission, as the worker makes it; public for tests of handlers.
  public init(key: Key, value: Value, id: Int64, emittedAt: Date, delivery: Int) {
    self.key = key
    self.value = value
    self.id = id
    self.emittedAt = emittedAt
    self.delivery = delivery
  }
}
