//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Runs a keyed pacer's `async` handler for each (key, value) its policies
/// emit, as ``AsyncHandlerRunner`` does for a pacer, with the ``OnBusy``
/// answer per key: one key's slow call never holds back another key's, and
/// a key is never in two calls at once (but with `restart`, whose call that
/// lost may still be ending). State is kept only for keys whose handler
/// runs or has a value waiting (``KeyedWorkRunners``).
package final class KeyedAsyncHandlerRunner<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// Calls the handler; false when its owner is gone, which ends the runner.
  package typealias Call = @Sendable (Key, Value) async -> Bool

  private let state: LockedState<KeyedWorkRunners<Key, Value>>
  /// What one request runs, made once: a request allocates no closure of its own.
  private let work: @Sendable (KeyedValue<Key, Value>) async throws -> Void

  package init(onBusy: OnBusy, call: @escaping Call) {
    let state = LockedState(KeyedWorkRunners<Key, Value>(onBusy: onBusy))
    self.state = state
    work = { pair in
      if await !call(pair.key, pair.value) { Self.shutDown(state) }
    }
  }

  /// The number of keys whose handler runs or has a value waiting.
  package var busyKeyCount: Int {
    state.withLock { $0.count }
  }

  /// Whether the runs were stopped for good: the keyed pacer then shuts
  /// down too, so that its keys stop making state no call will use.
  package var isShutDown: Bool {
    state.withLock { $0.isShutDown }
  }

  /// A policy emitted `pair`: it runs, waits or is dropped, as the on-busy
  /// policy says for its key. False once the runs were stopped for good.
  @discardableResult
  package func requested(_ pair: KeyedValue<Key, Value>) -> Bool {
    // Not on this thread: a value is handed in on the timer's thread, which must not run the handler.
    let runner = \KeyedWorkRunners<Key, Value>.[runner: pair.key]
    let (effects, isShutDown) = state.withLock { ($0[keyPath: runner].requested(pair), $0.isShutDown) }
    state.perform(effects, in: runner, immediately: false, work: work)
    return !isShutDown
  }

  /// The pacer is gone: every running call is cancelled, every waiting one dropped, later ones never run.
  func shutDown() {
    Self.shutDown(state)
  }

  private static func shutDown(_ state: LockedState<KeyedWorkRunners<Key, Value>>) {
    for (key, effects) in state.withLock({ $0.shutDown() }) {
      // Nothing starts after a shut down: the work is never called.
      state.perform(effects, in: \.[runner: key], immediately: false) { _ in }
    }
  }
}

/// Shuts the runner down when the keyed pacer that holds it goes.
final class KeyedAsyncHandlerLifetime<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  let runner: KeyedAsyncHandlerRunner<Key, Value>

  init(_ runner: KeyedAsyncHandlerRunner<Key, Value>) {
    self.runner = runner
  }

  deinit {
    runner.shutDown()
  }
}
