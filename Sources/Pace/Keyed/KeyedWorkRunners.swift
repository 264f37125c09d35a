//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The `async` handler runs of a keyed pacer: a ``WorkRunner`` for each key
/// whose handler runs or has a value waiting, none for an idle key.
///
/// A key's runner is reached through ``subscript(runner:)``, so that the
/// task core's ``LockedState/perform(_:in:immediately:work:)`` runs each
/// key's work as it runs a pacer's: the on-busy answer is per key. Writing
/// back a runner that is idle removes it; a new one for the key counts its
/// generations after every generation handed out before, so that the late
/// end of a task that lost (restart) is never taken for a new one's.
package struct KeyedWorkRunners<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  package typealias Runner = WorkRunner<KeyedValue<Key, Value>, Void>

  let onBusy: OnBusy
  private(set) var runners: [Key: Runner] = [:]
  /// The latest generation any runner handed out.
  private var generation: UInt64 = 0
  /// Whether the runs were stopped for good (the pacer, or the handler's owner, is gone).
  package private(set) var isShutDown = false

  package init(onBusy: OnBusy) {
    self.onBusy = onBusy
  }

  /// The number of keys whose handler runs or has a value waiting.
  package var count: Int { runners.count }

  /// The runner of `key`: its own, or a new idle one.
  package subscript(runner key: Key) -> Runner {
    get {
      if let runner = runners[key] { return runner }
      var runner = Runner(onBusy: onBusy, generationsAfter: generation)
      if isShutDown { _ = runner.cancelAll(shutDown: true) }
      return runner
    }
    set {
      generation = Swift.max(generation, newValue.latestGeneration)
      // Once shut down, a runner with nothing running is never needed again.
      let isDone = newValue.isIdle || (isShutDown && !newValue.isRunning)
      runners[key] = isDone ? nil : newValue
    }
  }

  /// Stops every key's runs: each running call is cancelled, each waiting
  /// value dropped; later values never run. Returns what to perform, by key.
  package mutating func shutDown() -> [(key: Key, effects: Runner.Effects)] {
    isShutDown = true
    var stopped: [(key: Key, effects: Runner.Effects)] = []
    for key in Array(runners.keys) { stopped.append((key, self[runner: key].cancelAll(shutDown: true))) }
    return stopped
  }
}
