//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value guarded by a lock, in one allocation: the state is the buffer's
/// header and the lock its only element.
///
/// Pace's own lock rather than `Synchronization.Mutex`: on Linux, `Mutex` is
/// built on futexes that ThreadSanitizer cannot see, so every correct use of
/// it is reported as a race and `swift test --sanitize=thread` proves nothing.
/// `pthread_mutex_t` (Linux) and `os_unfair_lock` (Darwin) are understood by
/// the sanitizer. Lock only through ``withLock(_:)``; never call user code or
/// resume a continuation inside it.
@usableFromInline
package struct LockedState<State>: @unchecked Sendable {
  // @unchecked Sendable: the state is only ever read or written inside
  // `withLock`, which holds the lock for the whole access.
  @usableFromInline
  let storage: LockStorage<State>

  /// Creates a box holding `initialState`.
  package init(_ initialState: State) {
    storage = LockStorage.make(initialState)
  }

  /// Runs `body` with exclusive access to the state.
  @inlinable
  package func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try storage.withLock(body)
  }
}

/// The allocation behind ``LockedState``.
@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, LockStorage.Primitive> {
  #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
  #else
    @usableFromInline typealias Primitive = pthread_mutex_t
  #endif

  static func make(_ initialState: State) -> LockStorage<State> {
    let buffer = create(minimumCapacity: 1) { _ in initialState }
    let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
    storage.withUnsafeMutablePointerToElements { lock in
      #if canImport(Darwin)
        lock.initialize(to: os_unfair_lock())
      #else
        lock.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(lock, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
      #endif
    }
    return storage
  }

  deinit {
    // ManagedBuffer destroys the header (the state) itself; only the lock is ours.
    withUnsafeMutablePointerToElements { lock in
      #if !canImport(Darwin)
        pthread_mutex_destroy(lock)
      #endif
      lock.deinitialize(count: 1)
    }
  }

  @inlinable
  func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
    try withUnsafeMutablePointers { (state, lock) throws(Failure) -> Result in
      #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
      #else
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
      #endif
      return try body(&state.pointee)
    }
  }
}
