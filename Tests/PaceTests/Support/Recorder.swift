//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// Collects what a handler receives, from any thread.
final class Recorder<Value: Sendable>: Sendable {
  private let values = LockedState<[Value]>([])

  var all: [Value] { values.withLock { $0 } }
  var count: Int { values.withLock { $0.count } }
  var last: Value? { values.withLock { $0.last } }

  @Sendable func record(_ value: Value) {
    values.withLock { $0.append(value) }
  }
}
