//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// One call's generation, shared with its cancellation handler, which may run
/// before the call has begun.
final class CallTicket: Sendable {
  private let state = LockedState<(generation: UInt64?, isCancelled: Bool)>((nil, false))

  /// Runs `begin` unless the caller was cancelled first; keeps its generation.
  func begin<T>(_ begin: () -> (generation: UInt64, superseded: T)?) -> (UInt64, T)? {
    state.withLock { state in
      guard !state.isCancelled, let begun = begin() else { return nil }
      state.generation = begun.generation
      return (begun.generation, begun.superseded)
    }
  }

  /// Marks the caller cancelled; the generation to cancel, if it has begun.
  func cancel() -> UInt64? {
    state.withLock { state in
      state.isCancelled = true
      return state.generation
    }
  }
}
