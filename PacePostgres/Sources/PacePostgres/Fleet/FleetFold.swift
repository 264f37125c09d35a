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
        guard case .value(let value) = event else { return }
        do {
          let json = String(decoding: try encoder.encode(value), as: UTF8.self)
          result.emissions.append(.init(key: key.key, value: json, micros: instant.nanoseconds / 1000))
        } catch {
          result.problems.append("key \(key.key): emitted value not encodable, dropped: \(error)")
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

      let machine = runner.machine
      if !runner.isTerminated, runner.deadline == nil, !machine.hasPendingValue, machine.isDiscardable {
        result.gone.append(key.key)
        continue
      }
      do {
        let state = String(decoding: try encoder.encode(StoredRunner(runner: runner)), as: UTF8.self)
        // Rounded up: a deadline is never due before its instant.
        let due = runner.deadline.map { Self.micros(roundingUp: $0.nanoseconds) }
        result.kept.append(.init(key: key.key, state: state, due: due, pending: machine.hasPendingValue))
        if let due, result.earliestDue.map({ due < $0 }) ?? true { result.earliestDue = due }
      } catch {
        result.problems.append("key \(key.key): state not encodable, key dropped: \(error)")
        result.gone.append(key.key)
      }
    }
    return result
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
