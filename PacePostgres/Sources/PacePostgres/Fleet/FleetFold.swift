//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Pace

/// One key as a fold claims it: its stored runner (none for a new key) and
/// its sends not yet folded, in the order of their instants.
struct ClaimedKey: Sendable, Hashable {
  struct Send: Sendable, Hashable {
    var id: Int64
    /// The value's JSON.
    var value: String
    /// Microseconds since the Unix epoch, on the database's clock.
    var micros: Int64
  }

  var key: String
  /// The runner's stored JSON, or nil for a key no fold has seen.
  var state: String?
  var sends: [Send]
}

/// What a fold writes back, in the claim's transaction (`pace_apply`).
struct FoldResult: Sendable, Equatable {
  struct Kept: Sendable, Equatable {
    var key: String
    var state: String
    /// Microseconds of the next deadline, rounded up; nil: none.
    var due: Int64?
    /// Whether the policy holds a value it may still emit.
    var pending: Bool
    /// What the key does at `due` if no send comes first, as JSON for the
    /// `fire` column (see `FleetFold.fire(_:key:through:encoder:)`); nil
    /// without a deadline.
    var fire: String?
  }

  struct Emission: Sendable, Equatable {
    var key: String
    var value: String
    var micros: Int64
  }

  /// Keys that stay, with their runner's JSON and next deadline (nil: none).
  var kept: [Kept] = []
  /// Keys whose runner a new one would equal: their rows go.
  var gone: [String] = []
  /// The sends folded in.
  var folded: [Int64] = []
  /// The emissions, in order: per key, the order its policy emitted them.
  var emissions: [Emission] = []
  /// The earliest deadline of the kept keys.
  var earliestDue: Int64?
  /// What could not be read, said in a log line each (the fold goes on).
  var problems: [String] = []
}

/// The pure step of a fleet pacer: claimed keys and their sends in, states
/// and emissions out, on the database's instants. No clock, no database:
/// each key's runner is restored, told its sends at their instants (the
/// timers due before each first, as a ``PacingRunner`` does), then its
/// timers due through the claim's instant, and stored again.
///
/// Whichever process folds, and however late, a key's emissions are what
/// its policy emits on the recorded instants: a trailing edge carries its
/// deadline's instant, not the fold's.
struct FleetFold<Machine: StorablePacingStateMachine & Sendable>: Sendable
where Machine.Instant == DriverInstant, Machine.Value: Codable & Sendable {
  let prototype: Machine

  func fold(_ claimed: [ClaimedKey], now: Int64) -> FoldResult {
    var result = FoldResult()
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    decoder.userInfo[StoredRunner<Machine>.prototypeKey] = prototype
    let through = DriverInstant(nanoseconds: Self.nanoseconds(now))
    for key in claimed {
      var runner: PacingRunner<Machine>
      if let state = key.state {
        do {
          runner = try decoder.decode(StoredRunner<Machine>.self, from: Data(state.utf8)).runner
        } catch {
          // Options changed beyond what the stored state fits: the key starts over.
          result.problems.append("key \(key.key): stored state unreadable, starting over: \(error)")
          runner = PacingRunner(prototype)
          runner.start(at: DriverInstant(nanoseconds: Self.nanoseconds(key.sends.first?.micros ?? now))) { _, _ in }
        }
      } else {
        runner = PacingRunner(prototype)
        runner.start(at: DriverInstant(nanoseconds: Self.nanoseconds(key.sends.first?.micros ?? now))) { _, _ in }
      }
      let emit: (PacingEvent<Machine.Value>, DriverInstant) -> Void = { event, instant in
        if let emission = Self.emission(event, at: instant, key: key.key, encoder: encoder, problems: &result.problems) {
          result.emissions.append(emission)
        }
      }
      for send in key.sends {
        result.folded.append(send.id)
        do {
          let value = try decoder.decode(Machine.Value.self, from: Data(send.value.utf8))
          runner.send(value, at: DriverInstant(nanoseconds: Self.nanoseconds(send.micros)), emit)
        } catch {
          result.problems.append("key \(key.key): send \(send.id) not a value of this pacer, dropped: \(error)")
        }
      }
      runner.fireTimers(through: through, emit)

      guard var kept = Self.stored(runner, key: key.key, encoder: encoder, problems: &result.problems) else {
        result.gone.append(key.key)
        continue
      }
      if let deadline = runner.deadline {
        kept.fire = Self.fire(runner, key: key.key, through: deadline, encoder: encoder)
      }
      result.kept.append(kept)
      if let due = kept.due, result.earliestDue.map({ due < $0 }) ?? true { result.earliestDue = due }
    }
    return result
  }

  /// The row a runner leaves: nil when the key goes (a new runner would
  /// equal it, or its state cannot be stored; that one is said).
  static func stored(
    _ runner: PacingRunner<Machine>, key: String, encoder: JSONEncoder, problems: inout [String]
  ) -> FoldResult.Kept? {
    let machine = runner.machine
    if !runner.isTerminated, runner.deadline == nil, !machine.hasPendingValue, machine.isDiscardable { return nil }
    do {
      let state = String(decoding: try encoder.encode(StoredRunner(runner: runner)), as: UTF8.self)
      // Rounded up: a deadline is never due before its instant.
      let due = runner.deadline.map { micros(roundingUp: $0.nanoseconds) }
      return .init(key: key, state: state, due: due, pending: machine.hasPendingValue)
    } catch {
      problems.append("key \(key): state not encodable, key dropped: \(error)")
      return nil
    }
  }

  /// What the key does at its deadline if no send comes first, worked out
  /// now, so that a worker that finds the key due with no send fires it in
  /// one statement (`pace_fire`), without a fold: the emissions at that
  /// instant, and the row after them. JSON, `{"emissions": [[µs, value],
  /// …], "state": …, "due": µs, "pending": …}`, or only the emissions when
  /// the key then goes (the usual end of a burst: the row is written at every
  /// send, and the three keys made its record in the write-ahead log 295
  /// bytes, not 263). Nil when something cannot be encoded: the fold does it.
  static func fire(
    _ runner: PacingRunner<Machine>, key: String, through deadline: DriverInstant, encoder: JSONEncoder
  ) -> String? {
    var next = runner
    var emissions: [FoldResult.Emission] = []
    var unencodable = false
    next.fireTimers(through: deadline) { event, instant in
      guard case .value = event else { return }
      var ignored: [String] = []
      if let emission = emission(event, at: instant, key: key, encoder: encoder, problems: &ignored) {
        emissions.append(emission)
      } else {
        unencodable = true
      }
    }
    guard !unencodable else { return nil }
    var ignored: [String] = []
    let after = stored(next, key: key, encoder: encoder, problems: &ignored)
    if after == nil, !ignored.isEmpty { return nil }
    let list = emissions.map { "[\($0.micros),\($0.value)]" }.joined(separator: ",")
    guard let after else { return "{\"emissions\":[\(list)]}" }
    let due = after.due.map(String.init) ?? "null"
    return "{\"emissions\":[\(list)],\"state\":\(after.state),\"due\":\(due),\"pending\":\(after.pending)}"
  }

  /// An emitted value as the outbox takes it; nil, and said, when it
  /// cannot be encoded (it is dropped).
  static func emission(
    _ event: PacingEvent<Machine.Value>, at instant: DriverInstant, key: String, encoder: JSONEncoder,
    problems: inout [String]
  ) -> FoldResult.Emission? {
    guard case .value(let value) = event else { return nil }
    do {
      let json = String(decoding: try encoder.encode(value), as: UTF8.self)
      return .init(key: key, value: json, micros: instant.nanoseconds / 1000)
    } catch {
      problems.append("key \(key): emitted value not encodable, dropped: \(error)")
      return nil
    }
  }

  static func nanoseconds(_ micros: Int64) -> Int64 {
    micros.multipliedReportingOverflow(by: 1000).overflow ? (micros < 0 ? .min : .max) : micros * 1000
  }

  static func micros(roundingUp nanoseconds: Int64) -> Int64 {
    let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1000)
    return remainder > 0 ? quotient + 1 : quotient
  }
}

/// A runner as JSON: encodes its state; decodes into a runner of the
/// prototype that the decoder's `userInfo` holds.
struct StoredRunner<Machine: StorablePacingStateMachine & Sendable>: Codable where Machine.Instant == DriverInstant {
  static var prototypeKey: CodingUserInfoKey { CodingUserInfoKey(rawValue: "pace.prototype")! }

  var runner: PacingRunner<Machine>

  init(runner: PacingRunner<Machine>) {
    self.runner = runner
  }

  init(from decoder: any Decoder) throws {
    guard let prototype = decoder.userInfo[Self.prototypeKey] as? Machine else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "No prototype policy to restore into"))
    }
    runner = PacingRunner(prototype)
    try runner.decodeState(from: decoder)
  }

  func encode(to encoder: any Encoder) throws {
    try runner.encodeState(to: encoder)
  }
}
