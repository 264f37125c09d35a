//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Testing

@testable import pace

/// `--postgres URL` is read as libpq reads a connection URL.
@Suite struct PostgresURLTests {
  let environment = ["USER": "ada"]

  @Test func defaults_aUnixSocketInPostgresFolder_theUsersNameAndDatabase() throws {
    let url = try PostgresURL("postgres://", environment: environment)
    #expect(url.host == nil && url.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
    #expect(url.user == "ada" && url.database == "ada" && url.password == nil)
    #expect(url.sslMode == .prefer)
  }

  @Test func pgUserAndPassword_fromTheEnvironment_unlessGiven() throws {
    let fromEnvironment = try PostgresURL("postgresql:///app", environment: ["USER": "ada", "PGUSER": "svc", "PGPASSWORD": "s3"])
    #expect(fromEnvironment.user == "svc" && fromEnvironment.password == "s3" && fromEnvironment.database == "app")
    let given = try PostgresURL("postgres://bob:pw@/app", environment: ["PGUSER": "svc", "PGPASSWORD": "s3"])
    #expect(given.user == "bob" && given.password == "pw")
  }

  @Test func hostPortDatabaseAndParameters() throws {
    let url = try PostgresURL(
      "postgres://app%40corp:p%3Ass@db.internal:6432/orders%2Fmain?sslmode=verify-full&connect_timeout=5&application_name=pace",
      environment: environment)
    #expect(url.user == "app@corp" && url.password == "p:ss")
    #expect(url.host == "db.internal" && url.port == 6432 && url.database == "orders/main")
    #expect(url.sslMode == .verifyFull && url.connectTimeout == 5 && url.applicationName == "pace")
    #expect(url.location == "db.internal:6432")
  }

  @Test func ipv6Host_andASocketFolderAsTheHostParameter() throws {
    let ipv6 = try PostgresURL("postgres://[::1]:5433/db", environment: environment)
    #expect(ipv6.host == "::1" && ipv6.port == 5433)
    let socket = try PostgresURL("postgres:///db?host=/tmp/pg&port=5999", environment: environment)
    #expect(socket.host == nil && socket.socketPath == "/tmp/pg/.s.PGSQL.5999")
  }

  @Test func anEncodedSocketFolderAsTheHost_andTheDatabaseNamedAfterTheFinalUser() throws {
    let url = try PostgresURL("postgres://%2Ftmp%2Fpg/?user=bob", environment: environment)
    #expect(url.host == nil && url.socketPath == "/tmp/pg/.s.PGSQL.5432")
    #expect(url.user == "bob" && url.database == "bob")
  }

  @Test(arguments: [
    ("postgres://h:0/db", "--postgres: invalid port '0' in 'postgres://h:0/db'"),
    ("postgres://u:secret@h/db?x=1", "--postgres: unknown parameter 'x' (pace reads host, port, user, password, dbname, sslmode, connect_timeout and application_name)"),
    ("postgres://u:secret@h/d%zz", "--postgres: invalid percent escape in 'd%zz' in 'postgres://u:***@h/d%zz'"),
    ("postgres://h/db?connect_timeout=soon", "--postgres: connect_timeout is whole seconds, as in connect_timeout=10 (got 'soon')"),
    ("http://h/db", "--postgres needs a URL such as postgres://user@host/database (got 'http://h/db')"),
    ("postgres://u:p%zz@h/db", "--postgres: invalid percent escape in the password in 'postgres://u:***@h/db'"),
    ("postgres://h:x/db?password=hunter2", "--postgres: invalid port 'x' in 'postgres://h:x/db?password=***'"),
  ])
  func badURLs_sayWhatIsWrong_neverThePassword(text: String, message: String) {
    #expect(throws: UsageError(message)) { try PostgresURL(text, environment: environment) }
  }
}
