//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Synchronization
import Testing

/// `pace --postgres URL`: several `pace` processes share keys through a real
/// PostgreSQL 15 (a throwaway server of the suite's), as on several hosts.
/// Each test has a namespace of its own.
@Suite(
  .throwawayPostgres,
  .enabled(if: ThrowawayPostgres.isAvailable, Comment(rawValue: ThrowawayPostgres.skipMessage)),
  .serialized,
  .timeLimit(.minutes(3))
)
struct FleetModeTests {
  @Test func cronOnEveryHost_runsTheJobOnceAcrossTheFleet_andEveryProcessExits() throws {
    let server = try ThrowawayPostgres.required()
    let ran = try TemporaryFile()
    let arguments = [
      "--postgres", server.url, "--namespace", "cron", "throttle", "1h", "--no-trailing",
      "--", "sh", "-c", "echo \"ran $PACE_LINE\" >> \(ran.path); sleep 0.2",
    ]
    let results = try Self.runTogether(count: 3) { _ in
      try PaceExecutable.run(arguments, input: Array("tick\n".utf8))
    }
    for result in results {
      #expect(result.status == 0)
      #expect(result.standardError == "")
    }
    #expect(try ran.contents() == "ran tick\n")
    // An hour later on every host it would run again; a minute later, no host runs it.
    let again = try PaceExecutable.run(arguments, input: Array("tick\n".utf8))
    #expect(again.status == 0)
    #expect(try ran.contents() == "ran tick\n")
  }

  @Test func debounceByKey_acrossProcesses_eachKeysLatestOnce_byWhicheverProcessDelivers() throws {
    let server = try ThrowawayPostgres.required()
    // A quiet period long enough that the second process's line, a second
    // and a half after the first's, lands in the same burst however slowly
    // the processes start (4 s left a loaded machine 2.5 s).
    let arguments = ["--postgres", server.url, "--namespace", "saves", "--by", "^(\\S+)", "debounce", "10s"]
    let results = try Self.runTogether(count: 2) { index in
      try PaceExecutable.run(arguments) { input in
        if index == 0 {
          input.write(Data("doc1 a\ndoc2 a\n".utf8))
        } else {
          Thread.sleep(forTimeInterval: 1.5)
          input.write(Data("doc1 b\n".utf8))
        }
      }
    }
    #expect(results.allSatisfy { $0.status == 0 && $0.standardError.isEmpty })
    // doc1's burst spans both processes and ends on b; each line once, in one of the outputs.
    let lines = results.flatMap { $0.standardOutput.split(separator: "\n").map(String.init) }
    #expect(lines.sorted() == ["doc1 b", "doc2 a"])
  }

  @Test func endOfInput_flushesNothingEarly_andExitsOnceItsLineIsDelivered() throws {
    let server = try ThrowawayPostgres.required()
    let started = ContinuousClock.now
    let result = try PaceExecutable.run(
      ["--postgres", server.url, "--namespace", "quiet", "debounce", "1s"], input: Array("only\n".utf8))
    #expect(result.status == 0)
    #expect(result.standardOutput == "only\n")
    // The input ended at once; the debounce's quiet second was kept, as the fleet's.
    #expect(ContinuousClock.now - started >= .seconds(1))
  }

  @Test func stagesOfEveryKind_andTheKeyInPaceKey() throws {
    let server = try ThrowawayPostgres.required()
    let ran = try TemporaryFile()
    let result = try PaceExecutable.run(
      [
        "--postgres", server.url, "--namespace", "alerts", "--by", "host=(\\w+)",
        "filter", "ERROR", "distinct", "debounce", "200ms",
        "--", "sh", "-c", "echo \"$PACE_KEY: $PACE_LINE\" >> \(ran.path)",
      ],
      input: Array("host=a ERROR disk\nhost=a INFO ok\nhost=b ERROR cpu\nhost=a ERROR disk\nERROR nohost\n".utf8))
    #expect(result.status == 0)
    #expect(result.standardError == "")
    let lines = try ran.contents().split(separator: "\n").map(String.init).sorted()
    // The line with no key has no PACE_KEY.
    #expect(lines == [": ERROR nohost", "a: host=a ERROR disk", "b: host=b ERROR cpu"])
  }

  @Test func linesAreBytes_aNulOrBytesThatAreNotUTF8_comeOutAsTheyWentIn() throws {
    let server = try ThrowawayPostgres.required()
    let input: [UInt8] = [0x61, 0x00, 0x62, 0x0A, 0xFF, 0xFE, 0x0A, 0x63, 0x0A]
    let raw = try PaceExecutable.runRaw(
      ["--postgres", server.url, "--namespace", "bytes", "--by", "^(.)", "debounce", "100ms"], input: input)
    // Three keys ("a", the byte 0xFF read as U+FFFD, "c"); each line once, in any order.
    let lines = raw.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init)
    #expect(lines.sorted { $0.lexicographicallyPrecedes($1) } == [[0x61, 0x00, 0x62], [0x63], [0xFF, 0xFE]])
  }

  @Test func sigint_stopsAtOnce_andExits130() throws {
    let server = try ThrowawayPostgres.required()
    let launched = try PaceExecutable.launch(
      ["--postgres", server.url, "--namespace", "stop", "debounce", "1h"])
    launched.input.fileHandleForWriting.write(Data("pending for an hour\n".utf8))
    Thread.sleep(forTimeInterval: 1)  // started, connected, sent (the input stays open)
    // Sent once pace handles SIGINT: before, the signal would be lost.
    #expect(PaceExecutable.signal(SIGINT, pid: launched.process.processIdentifier), "pace never handled SIGINT")
    let errors = ReadToEnd(launched.error.fileHandleForReading)
    let stopped = ContinuousClock.now
    launched.process.waitUntilExit()
    #expect(ContinuousClock.now - stopped < .seconds(10))
    #expect(launched.process.terminationStatus == 130)
    #expect(String(decoding: errors.wait(), as: UTF8.self) == "")
  }

  /// SIGTERM stops the running command and gives its emission back to the
  /// fleet at once: another `pace` runs it again well before its lease (30 s)
  /// would expire. (The worker gives leases back through the client, which
  /// the signal stopped at the same moment before: the lease stayed.)
  @Test func sigterm_midCommand_givesTheEmissionBackForAnotherPaceAtOnce() throws {
    let server = try ThrowawayPostgres.required()
    let ran = try TemporaryFile()
    let arguments = [
      "--postgres", server.url, "--namespace", "giveback", "debounce", "100ms",
      "--", "sh", "-c", "echo \"ran $PACE_LINE\" >> \(ran.path); sleep 30",
    ]
    let first = try PaceExecutable.launch(arguments)
    first.input.fileHandleForWriting.write(Data("job\n".utf8))  // The input stays open.
    #expect(Self.until(within: .seconds(20)) { (try? ran.contents()) == "ran job\n" }, "the first pace never ran the job")
    let errors = ReadToEnd(first.error.fileHandleForReading)
    #expect(PaceExecutable.signal(SIGTERM, pid: first.process.processIdentifier), "pace never handled SIGTERM")
    first.process.waitUntilExit()
    #expect(first.process.terminationStatus == 143)
    #expect(String(decoding: errors.wait(), as: UTF8.self) == "")  // A stop, not a failure: nothing to warn of.
    let stopped = ContinuousClock.now
    let second = try PaceExecutable.launch(arguments)  // No input of its own: it delivers what falls to it.
    defer {
      _ = PaceExecutable.signal(SIGTERM, pid: second.process.processIdentifier)
      second.process.waitUntilExit()
    }
    #expect(
      Self.until(within: .seconds(20)) { (try? ran.contents()) == "ran job\nran job\n" },
      "the second pace never ran the job given back")
    #expect(ContinuousClock.now - stopped < .seconds(15), "run again only as its 30 s lease expired")
  }

  @Test func defaultURL_isPacePostgresURL_butNotForReplay() throws {
    let server = try ThrowawayPostgres.required()
    let shared = try PaceExecutable.run(
      ["--namespace", "env", "debounce", "100ms"], input: Array("from the environment\n".utf8),
      environment: ["PACE_POSTGRES_URL": server.url])
    #expect(shared.status == 0)
    #expect(shared.standardOutput == "from the environment\n")
    let replay = try PaceExecutable.run(
      ["--replay", "debounce", "1s"], input: Array("1764000000 local\n".utf8),
      environment: ["PACE_POSTGRES_URL": server.url])
    #expect(replay.status == 0)
    #expect(replay.standardOutput.hasSuffix(" local\n"))
  }

  @Test(arguments: [
    (["--postgres", "mysql://host/db", "debounce", "1s"], "pace: error: --postgres needs a URL such as postgres://user@host/database (got 'mysql://host/db')\n"),
    (["--postgres", "postgres://u:secret@host:99999/db", "debounce", "1s"], "pace: error: --postgres: invalid port '99999' in 'postgres://u:***@host:99999/db'\n"),
    (["--postgres", "postgres://host/db?sslmode=maybe", "debounce", "1s"], "pace: error: --postgres: sslmode 'maybe' is not one of disable, allow, prefer, require, verify-ca, verify-full\n"),
    (["--postgres", "postgres://host/db?timeout=3", "debounce", "1s"], "pace: error: --postgres: unknown parameter 'timeout' (pace reads host, port, user, password, dbname, sslmode, connect_timeout and application_name)\n"),
    (["--postgres", "postgres://host/db", "--on-busy", "restart", "debounce", "1s", "--", "make"], "pace: error: with --postgres, a key's command runs once at a time across the fleet, each after the one before (--on-busy queue): remove --on-busy restart\n"),
    (["--postgres", "postgres://host/db", "--stats", "debounce", "1s"], "pace: error: --stats counts this process's stages, and with --postgres they are the fleet's: remove one of them\n"),
    (["--postgres", "postgres://host/db", "--replay", "debounce", "1s"], "pace: error: --replay runs on the log's own clock, --postgres on the database's: remove one of them\n"),
    (["--namespace", "n", "debounce", "1s"], "pace: error: --namespace names where --postgres keeps its keys: add --postgres URL, or remove it\n"),
    (["--postgres", "postgres://host/db", "--namespace", "Bad-Name", "debounce", "1s"], "pace: error: --namespace: invalid Pace namespace \"Bad-Name\": it contains \"B\"; use lowercase letters, digits and _\n"),
  ])
  func usageErrors_exit2WithOneLine(arguments: [String], message: String) throws {
    let result = try PaceExecutable.run(arguments, input: [])
    #expect(result.status == 2)
    #expect(result.standardError == message)
    #expect(result.standardOutput == "")
  }

  @Test func aBadURLInTheEnvironment_isNamedAsTheEnvironmentVariable() throws {
    let result = try PaceExecutable.run(
      ["debounce", "1s"], input: Array("x\n".utf8), environment: ["PACE_POSTGRES_URL": "notaurl"])
    #expect(result.status == 2)
    #expect(
      result.standardError
        == "pace: error: PACE_POSTGRES_URL needs a URL such as postgres://user@host/database (got 'notaurl')\n")
  }

  @Test func unreachableServer_exits1WithOneLineSayingWhy() throws {
    let result = try PaceExecutable.run(
      ["--postgres", "postgres://pace@/db?host=/tmp/pace-no-such-server", "debounce", "1s"], input: Array("x\n".utf8))
    #expect(result.status == 1)
    #expect(
      result.standardError
        == "pace: error: cannot connect to PostgreSQL at /tmp/pace-no-such-server/.s.PGSQL.5432: No such file or directory\n")
    #expect(result.standardError.split(separator: "\n").count == 1)
  }

  /// Polls `condition` every 20 ms until it holds (true) or `limit` passes (false).
  private static func until(within limit: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
  }

  /// Runs `count` of `body` at once, each on a thread of its own, as
  /// processes on several hosts would; their results in order.
  private static func runTogether(
    count: Int, _ body: @escaping @Sendable (Int) throws -> PaceExecutable.Result
  ) throws -> [PaceExecutable.Result] {
    let results = Mutex<[Int: Result<PaceExecutable.Result, any Error>]>([:])
    let done = DispatchGroup()
    for index in 0..<count {
      done.enter()
      Thread {
        let result = Result { try body(index) }
        results.withLock { $0[index] = result }
        done.leave()
      }.start()
    }
    done.wait()
    let all = results.withLock { $0 }
    return try (0..<count).map { try all[$0]!.get() }
  }
}

/// A file in the temporary folder, deleted when the test ends.
final class TemporaryFile: Sendable {
  let path: String

  init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("pace-\(UUID().uuidString)").path
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown)
    }
  }

  func contents() throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
