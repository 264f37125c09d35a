//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// `pace STAGE... -- COMMAND` with each `--on-busy` answer, run for real:
/// shell commands that log what they do to a file, and wait for a file the
/// test creates. The test waits on what it can observe (a log line, the bytes
/// `pace` has read), never on a pause; every wait has a generous limit, so a
/// broken `pace` fails the test instead of hanging it.
@Suite(.serialized) struct CommandModeTests {
  /// A folder for one test's files, and `pace` running in it.
  final class Session: @unchecked Sendable {
    // @unchecked Sendable: used from the test's own thread only.
    let folder: URL
    let launched: PaceExecutable.Launched
    private let input: FileHandle

    init(_ arguments: [String], command: String) throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("pace-command-\(UUID())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      launched = try PaceExecutable.launch(
        arguments + ["--", "sh", "-c", "cd '\(folder.path)' || exit 99\n\(command)"])
      input = launched.input.fileHandleForWriting
    }

    deinit {
      if launched.process.isRunning { kill(launched.process.processIdentifier, SIGKILL) }
      try? FileManager.default.removeItem(at: folder)
    }

    func send(_ lines: String...) {
      input.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    func endInput() {
      try? input.close()
    }

    /// Creates the file `name` in the folder.
    func touch(_ name: String) {
      _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil)
    }

    /// The lines of the file `name`.
    func lines(of name: String) -> [String] {
      let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
      return text.split(separator: "\n").map(String.init)
    }

    /// The bytes `pace` has read so far (`rchar` in `/proc/PID/io`).
    var bytesRead: Int {
      let io = (try? String(contentsOfFile: "/proc/\(launched.process.processIdentifier)/io", encoding: .utf8)) ?? ""
      return io.split(separator: "\n").first { $0.hasPrefix("rchar:") }.flatMap {
        Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces))
      } ?? 0
    }

    /// Whether `pace` waits for input: one of its threads is blocked in
    /// `read` on its standard input. Once it has read some lines, that says
    /// it has also handed them on (to the command's policy): it reads again
    /// only after. (From each thread's `/proc/PID/task/TID/syscall`: the
    /// call's number, then its first argument, the descriptor.)
    var isWaitingForInput: Bool {
      #if arch(x86_64)
        let read = "0 0x0 "
      #else
        let read = "63 0x0 "  // The generic table's number: arm64, riscv64.
      #endif
      let pid = launched.process.processIdentifier
      let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
      return threads.contains { thread in
        let call = (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/syscall", encoding: .utf8)) ?? ""
        return call.hasPrefix(read)
      }
    }

    /// What `pace` has written on its standard error so far, read without
    /// waiting for more.
    var errorsSoFar: String {
      let descriptor = launched.error.fileHandleForReading.fileDescriptor
      var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      var buffer = [UInt8](repeating: 0, count: 4096)
      while poll(&ready, 1, 0) > 0, ready.revents & Int16(POLLIN | POLLHUP) != 0 {
        let count = read(descriptor, &buffer, buffer.count)
        if count <= 0 { break }
        errorBytes += buffer[..<count]
      }
      return String(decoding: errorBytes, as: UTF8.self)
    }
    private var errorBytes: [UInt8] = []

    /// Sends `signal` to `pace`, once it handles it (before, it would be lost).
    func signal(_ signal: Int32) {
      #expect(
        PaceExecutable.signal(signal, pid: launched.process.processIdentifier), "pace never handled signal \(signal)")
    }

    /// Waits until `condition` holds; false after `limit`.
    func wait(upTo limit: Duration = .seconds(20), for condition: () -> Bool) -> Bool {
      let deadline = ContinuousClock.now + limit
      while !condition() {
        if ContinuousClock.now > deadline { return false }
        Thread.sleep(forTimeInterval: 0.01)
      }
      return true
    }

    /// Waits for `pace` to exit; its status, or nil after `limit`.
    func exitStatus(upTo limit: Duration = .seconds(20)) -> Int32? {
      guard wait(upTo: limit, for: { !launched.process.isRunning }) else { return nil }
      return launched.process.terminationStatus
    }

    var standardError: String {
      String(decoding: launched.error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
  }

  /// Whether a process with this identifier exists (a zombie counts as gone).
  static func isAlive(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
    return !stat.contains(") Z ")
  }

  @Test func queue_runsExactlyOnceMoreAfterABurst_withTheLastLine() throws {
    let session = try Session(
      ["distinct"], command: #"echo "$PACE_LINE" >> runs; while [ ! -e go ]; do sleep 0.01; done"#)
    session.send("1")
    #expect(session.wait { session.lines(of: "runs") == ["1"] })
    let read = session.bytesRead
    session.send("2", "3", "4", "5")  // While run 1 waits: the policy keeps the latest.
    #expect(session.wait { session.bytesRead >= read + 8 })
    #expect(session.wait { session.isWaitingForInput })  // They are the policy's before run 1 ends.
    session.endInput()
    session.touch("go")
    #expect(session.exitStatus() == 0)  // After the queued run, at the end of the input.
    #expect(session.lines(of: "runs") == ["1", "5"])
  }

  @Test func drop_neverOverlapsRuns_andDropsLinesThatComeWhileOneRuns() throws {
    // Each run exits with status 3, which `pace` reports on its standard
    // error as it hears of the end, before it takes the next line: so the
    // report says when a line no longer comes while run 1 runs. (The command
    // writing "end 1", or `pace` reaping it, does not: the end reaches the
    // policy a moment later, and a line meanwhile is rightly dropped.)
    let session = try Session(
      ["--on-busy", "drop", "distinct"],
      command:
        #"echo "start $PACE_LINE" >> runs; while [ ! -e go$PACE_LINE ]; do sleep 0.01; done; "#
        + #"echo "end $PACE_LINE" >> runs; exit 3"#
    )
    let report = "pace: command 'sh' exited with status 3\n"
    session.send("1")
    #expect(session.wait { session.lines(of: "runs") == ["start 1"] })
    let read = session.bytesRead
    session.send("2", "3")
    #expect(session.wait { session.bytesRead >= read + 4 })
    #expect(session.wait { session.isWaitingForInput })  // They reach the policy while run 1 runs.
    session.touch("go1")
    #expect(session.wait { session.errorsSoFar == report })
    session.send("4")
    #expect(session.wait { session.lines(of: "runs").last == "start 4" })
    session.endInput()
    session.touch("go4")
    #expect(session.exitStatus() == 0)
    #expect(session.lines(of: "runs") == ["start 1", "end 1", "start 4", "end 4"])
    #expect(session.errorsSoFar == report + report)
  }

  @Test func restart_stopsTheWholeGroup_grandchildToo_beforeTheNextRun() throws {
    // Each run ignores SIGTERM, and so does the grandchild it starts: only the
    // SIGKILL after the stop timeout ends them. A run logs its pids, and any
    // earlier pid still alive when it starts (a zombie waiting for its reaper
    // has exited).
    let session = try Session(
      ["--on-busy", "restart", "--stop-timeout", "300ms", "distinct"],
      command: #"""
        trap '' TERM
        for p in $(cat pids 2>/dev/null); do
          [ -e /proc/$p ] && ! grep -q ') Z ' /proc/$p/stat 2>/dev/null && echo "alive $p" >> runs
        done
        sleep 300 & echo "$$ $!" >> pids; echo "run $PACE_LINE" >> runs; wait
        """#)
    session.send("1")
    #expect(session.wait { session.lines(of: "runs") == ["run 1"] })
    session.send("2")
    #expect(session.wait { session.lines(of: "runs").last == "run 2" })
    session.signal(SIGTERM)
    #expect(session.exitStatus() == 143)
    let pids = session.lines(of: "pids").flatMap { $0.split(separator: " ").compactMap { Int32($0) } }
    #expect(pids.count == 4)
    #expect(session.lines(of: "runs") == ["run 1", "run 2"])  // No "alive": run 2 started after run 1 had gone.
    #expect(
      session.wait(upTo: .seconds(5)) { pids.allSatisfy { !Self.isAlive($0) } },
      "left behind: \(pids.filter(Self.isAlive))")
  }

  @Test func signal_forwardsTheStopSignal_andStartsNothing() throws {
    let session = try Session(
      ["--on-busy", "signal", "--stop-signal", "USR1", "distinct"],
      command: #"trap 'echo got >> runs' USR1; echo "run $PACE_LINE" >> runs; while [ ! -e go ]; do sleep 0.01; done"#)
    session.send("1")
    #expect(session.wait { session.lines(of: "runs") == ["run 1"] })
    session.send("2")
    #expect(session.wait { session.lines(of: "runs") == ["run 1", "got"] })
    session.endInput()
    session.touch("go")
    #expect(session.exitStatus() == 0)
    #expect(session.lines(of: "runs") == ["run 1", "got"])
  }

  @Test func sigint_stopsTheCommand_andExitsWith130() throws {
    let session = try Session(["distinct"], command: #"sleep 300 & echo $! > pids; echo "$$" >> pids; wait"#)
    session.send("1")
    #expect(session.wait { session.lines(of: "pids").count == 2 })
    session.signal(SIGINT)
    #expect(session.exitStatus() == 130)
    let pids = session.lines(of: "pids").compactMap { Int32($0) }
    #expect(session.wait(upTo: .seconds(5)) { pids.allSatisfy { !Self.isAlive($0) } })
  }

  /// A stop and the end of the input, in either order, while a command
  /// takes its time to stop: the signal's status, and no continuation lost.
  @Test(arguments: [false, true])
  func aStopAndTheEndOfInput_togetherExitWithTheSignalsStatus(endFirst: Bool) throws {
    let session = try Session(
      ["distinct"],
      command: #"trap 'sleep 0.5; exit 0' TERM; echo "$$" >> pids; while [ ! -e go ]; do sleep 0.01; done"#)
    session.send("1")
    #expect(session.wait { session.lines(of: "pids").count == 1 })
    if endFirst {
      session.endInput()
      session.signal(SIGTERM)
    } else {
      session.signal(SIGTERM)
      Thread.sleep(forTimeInterval: 0.1)  // Only so that the order is the one named; not for the outcome.
      session.endInput()
    }
    #expect(session.exitStatus() == 143)
    let errors = session.standardError
    #expect(!errors.contains("leaked") && !errors.contains("MISUSE"), "\(errors)")
  }

  @Test func signal_reachesARunThatHasJustStarted() throws {
    // The second line comes at once, maybe before pace knows the first run's
    // process group: the signal is sent as soon as it does, not lost. It
    // may reach the shell before its trap (and end the run) or after (and
    // the trap ends it): either way the run ends without its "go" file.
    let session = try Session(
      ["--on-busy", "signal", "distinct"],
      command: #"trap 'exit 0' TERM; echo "run $PACE_LINE" >> runs; while [ ! -e go ]; do sleep 0.01; done"#)
    session.send("1", "2")
    session.endInput()
    #expect(session.exitStatus() == 0)
    #expect(!session.lines(of: "runs").contains("run 2"))  // A signal starts nothing.
  }

  @Test func aLineWithANulByteOrTooLongForTheEnvironment_stillRunsTheCommand_onItsInput() throws {
    let long = [UInt8](repeating: 0x61, count: 200_000)
    let input: [UInt8] = [0x61, 0x00, 0x62, 0x0A] + long + [0x0A]
    let launched = try PaceExecutable.launch(
      ["distinct", "--", "sh", "-c", #"printf '%s:' "${PACE_LINE-unset}"; wc -c"#])
    launched.feed { $0.write(Data(input)) }
    let output = String(decoding: launched.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    launched.process.waitUntilExit()
    #expect(launched.process.terminationStatus == 0)
    #expect(output.split(separator: "\n").map { $0.filter { !$0.isWhitespace } } == ["unset:4", "unset:200001"])
  }

  @Test func linesFasterThanThePolicyTakesThem_keepMemoryFlat() throws {
    // 1,000,000 lines at once into a command that each would start: they
    // wait for the policy in a bounded queue, not all at once in memory.
    // Measured against the same run on one line: what the process holds
    // anyway (its libraries) is not what the lines cost.
    let input = (0..<2_000_000).map { $0 % 2 == 0 ? UInt8(ascii: "y") : 0x0A }
    let arguments = ["skip", "0", "--on-busy", "drop", "--", "true"]
    let (_, baseKilobytes) = try PaceExecutable.runRawMeasuringMemory(arguments, input: Array("y\n".utf8))
    let (_, peakKilobytes) = try PaceExecutable.runRawMeasuringMemory(arguments, input: input)
    #expect(
      baseKilobytes > 0 && peakKilobytes - baseKilobytes < 16 * 1024,
      "peak RSS \(peakKilobytes) KB, \(baseKilobytes) KB for one line")
  }

  @Test func aFailingCommand_isReported_andPaceGoesOn() throws {
    let session = try Session(["distinct"], command: #"echo "$PACE_LINE" >> runs; exit 3"#)
    session.send("1", "2")
    session.endInput()
    #expect(session.exitStatus() == 0)
    #expect(session.lines(of: "runs").last == "2")
    #expect(session.standardError.contains("pace: command 'sh' exited with status 3\n"))
  }

  @Test func aCommandThatCannotStart_isReported_andPaceGoesOn() throws {
    let launched = try PaceExecutable.launch(["distinct", "--", "no-such-command-\(UUID())"])
    launched.feed { $0.write(Data("1\n2\n".utf8)) }
    let errors = String(decoding: launched.error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    launched.process.waitUntilExit()
    #expect(launched.process.terminationStatus == 0)
    let lines = errors.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.hasPrefix("pace: command 'no-such-command-") && $0.contains("could not start") })
  }

  @Test func theLine_isOnTheCommandsInput_andInPACE_LINE() throws {
    let session = try Session(["distinct"], command: #"printf '%s|%s\n' "$PACE_LINE" "$(cat)" >> runs"#)
    session.send("hello world")
    session.endInput()
    #expect(session.exitStatus() == 0)
    #expect(session.lines(of: "runs") == ["hello world|hello world"])
  }
}
