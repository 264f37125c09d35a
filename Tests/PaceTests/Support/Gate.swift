//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// A gate an operation waits at, ignoring cancellation, until the test opens it.
final class Gate: Sendable {
  private let state = LockedState<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
  private let arrivals: AsyncStream<Void>.Continuation
  let arrived: AsyncStream<Void>

  init() {
    (arrived, arrivals) = AsyncStream<Void>.makeStream()
  }

  /// Waits until the gate opens; tells `arrived` first. Cancellation does not end the wait.
  func pass() async {
    arrivals.yield()
    await withCheckedContinuation { continuation in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// A gate per key, made on first use.
final class Gates<Key: Hashable & Sendable>: Sendable {
  private let gates = LockedState<[Key: Gate]>([:])

  subscript(key: Key) -> Gate {
    gates.withLock { gates in
      if let gate = gates[key] { return gate }
      let gate = Gate()
      gates[key] = gate
      return gate
    }
  }
}
