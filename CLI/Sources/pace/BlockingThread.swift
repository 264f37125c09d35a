//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread of its own for work that blocks (a read, a wait for room): such
/// work must not hold one of Swift concurrency's threads, of which a machine
/// with one core has one, and which the rest of `pace` needs meanwhile.
enum BlockingThread {
  /// Runs `body` on a new, detached thread; false if none could be made
  /// (then `body` does not run).
  @discardableResult
  static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, box)
    guard created == 0 else {
      Unmanaged<Body>.fromOpaque(box).release()
      return false
    }
    pthread_detach(thread)
    return true
  }

  private final class Body: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
      self.run = run
    }
  }
}
