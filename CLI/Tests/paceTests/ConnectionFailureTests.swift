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
import Testing

@testable import pace

/// A failed connection is said in the system's words, not the network
/// library's.
@Suite struct ConnectionFailureTests {
  @Test func theNetworkLibrarysDescription_becomesTheSystemsMessageForItsErrno() {
    let refused =
      "Connection errors: SingleConnectionFailure(target: [IPv4]localhost/127.0.0.1:5432, "
      + "error: connection reset (error set): Connection refused (errno: \(ECONNREFUSED)))"
    #expect(ConnectionFailure.reason(refused) == String(cString: strerror(ECONNREFUSED)))
    #expect(
      ConnectionFailure.reason("connect(descriptor:addr:size:): No such file or directory (errno: \(ENOENT))")
        == String(cString: strerror(ENOENT)))
  }

  @Test func aDescriptionWithNoErrno_staysAsItIs() {
    #expect(ConnectionFailure.reason("TLS handshake failed") == "TLS handshake failed")
    #expect(ConnectionFailure.reason("errno: none") == "errno: none")
  }
}
