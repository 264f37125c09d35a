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

/// A read that failed, with its `errno`.
struct ReadError: Error {
  var errorNumber: Int32

  var message: String {
    String(cString: strerror(errorNumber))
  }
}
