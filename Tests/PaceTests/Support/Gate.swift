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
  private let state = LockedState<(gates: [Key: Gate], isAllOpen: Bool)>(([:], false))

  subscript(key: Key) -> Gate {
    let (gate, isOpen) = state.withLock { state in
      if let gate = state.gates[key] { return (gate, false) }
      let gate = Gate()
      state.gates[key] = gate
      return (gate, state.isAllOpen)
    }
    if isOpen { gate.open() }
    return gate
  }

  /// Opens every gate, and every gate made from now on.
  func openAll() {
    let gates = state.withLock { state in
      state.isAllOpen = true
      return Array(state.gates.values)
    }
    for gate in gates { gate.open() }
  }
}
