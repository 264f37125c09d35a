//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import NIOSSL
import PostgresNIO

/// `--postgres URL`: a connection URL as libpq reads it,
/// `postgres://[user[:password]@][host][:port][/database][?parameter=value&...]`,
/// turned into a client configuration.
///
/// - An empty host, or a `host` parameter that is a folder (starts with
///   `/`), is a Unix socket in that folder (`/var/run/postgresql` by
///   default), as with `psql`.
/// - The user is `PGUSER`, else `USER`, unless given; the database is the
///   user's name; the password is `PGPASSWORD` unless given.
/// - `sslmode` is as libpq's: `disable` goes without TLS; `allow` and
///   `prefer` (the default) try it without checking the certificate,
///   `require` insists on it, `verify-ca` checks the chain, `verify-full`
///   the chain and the name (against the system's trusted roots).
/// - Not read: `PGHOST`, `PGPORT`, `PGDATABASE`, `~/.pgpass`, `sslrootcert`.
/// - `connect_timeout` (seconds) and `application_name` are read too; any
///   other parameter is an error, rather than a setting silently ignored.
struct PostgresURL: Sendable, Equatable {
  enum SSLMode: String, CaseIterable, Sendable {
    case disable, allow, prefer, require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"
  }

  var user: String
  var password: String?
  /// A host name or address; nil for a Unix socket.
  var host: String?
  /// The folder of the Unix socket, when `host` is nil.
  var socketFolder = "/var/run/postgresql"
  var port = 5432
  var database: String
  var sslMode = SSLMode.prefer
  /// `connect_timeout`, in seconds.
  var connectTimeout: Int?
  var applicationName: String?

  init(_ text: String, environment: [String: String]) throws(UsageError) {
    let scheme = ["postgres://", "postgresql://"].first { text.hasPrefix($0) }
    guard let scheme else {
      throw UsageError("--postgres needs a URL such as postgres://user@host/database (got '\(Self.redacted(text))')")
    }
    var rest = Substring(text.dropFirst(scheme.count))
    var query: Substring = ""
    if let mark = rest.firstIndex(of: "?") {
      query = rest[rest.index(after: mark)...]
      rest = rest[..<mark]
    }
    var path: Substring = ""
    if let slash = rest.firstIndex(of: "/") {
      path = rest[rest.index(after: slash)...]
      rest = rest[..<slash]
    }
    var userInfo: Substring?
    if let at = rest.lastIndex(of: "@") {
      userInfo = rest[..<at]
      rest = rest[rest.index(after: at)...]
    }
    var user = environment["PGUSER"] ?? environment["USER"] ?? "postgres"
    var password = environment["PGPASSWORD"]
    if let userInfo {
      let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      if !parts[0].isEmpty { user = try Self.decoded(parts[0], in: text, naming: "the user") }
      if parts.count == 2 { password = try Self.decoded(parts[1], in: text, naming: "the password") }
    }
    // host[:port], or [IPv6][:port]
    var hostText = rest
    if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
      hostText = rest[rest.index(after: rest.startIndex)..<close]
      rest = rest[rest.index(after: close)...]
      guard rest.isEmpty || rest.hasPrefix(":") else { throw Self.invalid(text, "after the IPv6 address") }
      if rest.hasPrefix(":") { port = try Self.port(rest.dropFirst(), in: text) }
    } else if let colon = rest.lastIndex(of: ":") {
      hostText = rest[..<colon]
      port = try Self.port(rest[rest.index(after: colon)...], in: text)
    }
    let decodedHost = hostText.isEmpty ? nil : try Self.decoded(hostText, in: text)
    if let decodedHost, decodedHost.hasPrefix("/") {
      socketFolder = decodedHost  // postgres://%2Ftmp/db, as libpq reads it
    } else {
      host = decodedHost
    }
    self.user = user
    self.password = password
    var database = path.isEmpty ? nil : try Self.decoded(path, in: text)

    for pair in query.split(separator: "&") where !pair.isEmpty {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = try Self.decoded(parts[0], in: text)
      let value =
        parts.count == 2 ? try Self.decoded(parts[1], in: text, naming: name == "password" ? "the password" : nil) : ""
      switch name {
      case "host":
        if value.hasPrefix("/") {
          host = nil
          socketFolder = value
        } else {
          host = value
        }
      case "port": port = try Self.port(Substring(value), in: text)
      case "user": self.user = value
      case "password": self.password = value
      case "dbname": database = value
      case "sslmode":
        guard let mode = SSLMode(rawValue: value) else {
          throw UsageError(
            "--postgres: sslmode '\(value)' is not one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        sslMode = mode
      case "connect_timeout":
        guard let seconds = Int(value), seconds > 0 else {
          throw UsageError("--postgres: connect_timeout is whole seconds, as in connect_timeout=10 (got '\(value)')")
        }
        connectTimeout = seconds
      case "application_name": applicationName = value
      default:
        throw UsageError(
          "--postgres: unknown parameter '\(name)' (pace reads host, port, user, password, dbname, sslmode, "
            + "connect_timeout and application_name)")
      }
    }
    // As libpq: the database is named after the user, the final one.
    self.database = database ?? self.user
  }

  /// The socket file, when the server is reached through one.
  var socketPath: String? {
    host == nil ? "\(socketFolder)/.s.PGSQL.\(port)" : nil
  }

  /// The client's configuration.
  var configuration: PostgresClient.Configuration {
    var configuration: PostgresClient.Configuration
    if let host {
      let tls: PostgresClient.Configuration.TLS =
        switch tlsSettings {
        case nil: .disable
        case let (required, tls)?: required ? .require(tls) : .prefer(tls)
        }
      configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
    } else {
      configuration = .init(unixSocketPath: socketPath!, username: user, password: password, database: database)
    }
    if let connectTimeout { configuration.options.connectTimeout = .seconds(connectTimeout) }
    if let applicationName { configuration.options.additionalStartupParameters = [("application_name", applicationName)] }
    return configuration
  }

  /// The same server, for one connection of its own.
  func connectionConfiguration() throws -> PostgresConnection.Configuration {
    var configuration: PostgresConnection.Configuration
    if let host {
      let tls: PostgresConnection.Configuration.TLS =
        switch tlsSettings {
        case nil: .disable
        case let (required, tls)?:
          required ? .require(try NIOSSLContext(configuration: tls)) : .prefer(try NIOSSLContext(configuration: tls))
        }
      configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
    } else {
      configuration = .init(unixSocketPath: socketPath!, username: user, password: password, database: database)
    }
    if let connectTimeout { configuration.options.connectTimeout = .seconds(Int64(connectTimeout)) }
    if let applicationName { configuration.options.additionalStartupParameters = [("application_name", applicationName)] }
    return configuration
  }

  /// Where the server is, for messages: a socket file, or host and port.
  var location: String {
    socketPath ?? "\(host!):\(port)"
  }

  /// `sslmode` as TLS settings: nil to go without; whether TLS is required,
  /// and how the server's certificate is checked.
  private var tlsSettings: (required: Bool, configuration: TLSConfiguration)? {
    var tls = TLSConfiguration.makeClientConfiguration()
    switch sslMode {
    case .disable: return nil
    case .allow, .prefer:
      tls.certificateVerification = .none
      return (false, tls)
    case .require:
      tls.certificateVerification = .none
      return (true, tls)
    case .verifyCA:
      tls.certificateVerification = .noHostnameVerification
      return (true, tls)
    case .verifyFull:
      return (true, tls)
    }
  }

  /// `text` with its passwords (in the user part, in a `password`
  /// parameter) replaced by `***`, for messages.
  static func redacted(_ text: String) -> String {
    var text = Substring(text)
    var query: Substring = ""
    if let mark = text.firstIndex(of: "?") {
      query = text[mark...]
      text = text[..<mark]
    }
    var result = String(text)
    let parts = text.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
    // "scheme:", "", "user:password@host", …
    if parts.count >= 3, let at = parts[2].lastIndex(of: "@"), let colon = parts[2][..<at].firstIndex(of: ":") {
      result = String(text[..<colon]) + ":***" + String(text[at...])
    }
    guard !query.isEmpty else { return result }
    let parameters = query.dropFirst().split(separator: "&", omittingEmptySubsequences: false).map { pair in
      pair.hasPrefix("password=") ? "password=***" : String(pair)
    }
    return result + "?" + parameters.joined(separator: "&")
  }

  private static func port(_ text: Substring, in url: String) throws(UsageError) -> Int {
    guard let port = Int(text), (1...65535).contains(port) else { throw invalid(url, "port '\(text)'") }
    return port
  }

  /// Percent-decoding, as in a URL; an error names the part (`secret`)
  /// rather than quote it when it is one.
  private static func decoded(_ text: Substring, in url: String, naming secret: String? = nil) throws(UsageError)
    -> String
  {
    var bytes: [UInt8] = []
    var index = text.utf8.startIndex
    let utf8 = text.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: "%") {
        let first = utf8.index(after: index)
        guard first < utf8.endIndex, utf8.index(after: first) < utf8.endIndex,
          let high = hexValue(utf8[first]), let low = hexValue(utf8[utf8.index(after: first)])
        else { throw invalid(url, "percent escape in " + (secret ?? "'\(text)'")) }
        bytes.append(high << 4 | low)
        index = utf8.index(index, offsetBy: 3)
      } else {
        bytes.append(byte)
        index = utf8.index(after: index)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  private static func invalid(_ url: String, _ what: String) -> UsageError {
    UsageError("--postgres: invalid \(what) in '\(redacted(url))'")
  }
}
