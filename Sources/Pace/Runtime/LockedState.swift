//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if os(Linux) || os(Android)
  import CPaceLinux
#elseif canImport(Darwin)
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
/// built on futexes whose atomics live in the standard library, where
/// ThreadSanitizer cannot see them, so every correct use of it is reported as
/// a race and `swift test --sanitize=thread` proves nothing. On Linux the lock
/// is a futex word too (`c_pace_lock`, 4 bytes), but its atomics are compiled
/// in this package, so the sanitizer sees them; `pthread_mutex_t` would work
/// as well, at 40 bytes a lock, and a program may hold a pacer per document or
/// per user. On Darwin it is `os_unfair_lock`. Lock only through
/// ``withLock(_:)``; never call user code or resume a continuation inside it.
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

/// A subclass of ``LockStorage`` (a driver whose state and lock are one
/// object), shared across threads.
@usableFromInline
struct LockProtected<Storage: AnyObject>: @unchecked Sendable {
  // @unchecked Sendable: as for `LockedState`, `Storage` touches its state only
  // inside `withLock`. It needs saying here because `Storage` is a
  // `ManagedBuffer`, whose `Sendable` conformance the standard library marks
  // unavailable, so a subclass cannot declare one.
  @usableFromInline let storage: Storage

  @usableFromInline
  init(_ storage: Storage) {
    self.storage = storage
  }
}

/// The allocation behind ``LockedState``, and the base of drivers that keep
/// their state and their lock in one object (``PacerDriver``).
@usableFromInline
class LockStorage<State>: ManagedBuffer<State, LockStorage.Primitive> {
  #if os(Linux) || os(Android)
    @usableFromInline typealias Primitive = UInt32
  #elseif canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
  #else
    @usableFromInline typealias Primitive = pthread_mutex_t
  #endif

  /// Allocates an instance of the class this is called on (a subclass too).
  final class func make(_ initialState: State) -> Self {
    let buffer = create(minimumCapacity: 1) { _ in initialState }
    let storage = unsafeDowncast(buffer, to: self)
    storage.withUnsafeMutablePointerToElements { lock in
      #if os(Linux) || os(Android)
        lock.initialize(to: 0)
      #elseif canImport(Darwin)
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
    withUnsafeMutablePointerToElements { lock -> Void in
      #if !canImport(Darwin) && !os(Linux) && !os(Android)
        pthread_mutex_destroy(lock)
      #endif
      lock.deinitialize(count: 1)
    }
  }

  @inlinable
  final func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result
  {
    try withUnsafeMutablePointers { (state, lock) throws(Failure) -> Result in
      #if os(Linux) || os(Android)
        c_pace_lock(lock)
        defer { c_pace_unlock(lock) }
      #elseif canImport(Darwin)
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
