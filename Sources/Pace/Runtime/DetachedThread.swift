//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if os(Linux)
  import CPaceLinux
  import Glibc

  /// Starts a detached thread named `name` (at most 15 bytes are kept) that
  /// runs `body`, which never returns; returns whether the kernel started it.
  func startDetachedThread(named name: String, _ body: @escaping @Sendable () -> Never) -> Bool {
    final class Start: Sendable {
      let name: String
      let body: @Sendable () -> Never
      init(name: String, body: @escaping @Sendable () -> Never) { (self.name, self.body) = (name, body) }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(Start(name: name, body: body))
    var thread = pthread_t()
    let result = pthread_create(
      &thread, &attributes,
      { context in
        let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
        c_pace_name_this_thread(start.name)
        start.body()
      }, context.toOpaque())
    guard result == 0 else {
      context.release()
      return false
    }
    return true
  }
#endif
