//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// A seeded fleet scenario: pacers with random policies (leading edges and
/// maximum waits among them), keys spread over them, and the oracle that
/// says what each key must emit for the sends it was told.
public struct FleetScenario: Sendable {
  /// One pacer of the scenario and its policy's options.
  public struct Pacer: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
      case debounceTrailing, debounceLeading, debounceBoth, throttleBoth, throttleLeading, throttleTrailing
    }

    public init(name: String, kind: Kind, intervalMilliseconds: Int64, maxWaitMilliseconds: Int64?) {
      self.name = name
      self.kind = kind
      self.intervalMilliseconds = intervalMilliseconds
      self.maxWaitMilliseconds = maxWaitMilliseconds
    }

    public var name: String
    public var kind: Kind
    public var intervalMilliseconds: Int64
    /// For the debounces with a trailing edge; nil for none.
    public var maxWaitMilliseconds: Int64?

    public var description: String {
      "\(name): \(kind) \(intervalMilliseconds) ms" + (maxWaitMilliseconds.map { ", max wait \($0) ms" } ?? "")
    }

    public var isDebounce: Bool { kind.rawValue.hasPrefix("debounce") }

    public var debounce: DebounceStateMachine<String, DriverInstant> {
      let interval = DriverDuration.milliseconds(intervalMilliseconds)
      let maxWait = maxWaitMilliseconds.map { DriverDuration.milliseconds($0) }
      switch kind {
      case .debounceLeading: return DebounceStateMachine(interval: interval, edges: .leading)
      case .debounceBoth: return DebounceStateMachine(interval: interval, edges: .both(maxWait: maxWait))
      default: return DebounceStateMachine(interval: interval, edges: .trailing(maxWait: maxWait))
      }
    }

    public var throttle: ThrottleStateMachine<String, DriverInstant> {
      let interval = DriverDuration.milliseconds(intervalMilliseconds)
      switch kind {
      case .throttleLeading: return ThrottleStateMachine(interval: interval, edges: .leading)
      case .throttleTrailing: return ThrottleStateMachine(interval: interval, edges: .trailing)
      default: return ThrottleStateMachine(interval: interval, edges: .both)
      }
    }

    /// What the policy emits for `sends` (microseconds on the database's
    /// clock, in order) with time going on after the last: (value, microseconds).
    public func expectedEmissions(for sends: [(micros: Int64, value: String)]) -> [Emission] {
      isDebounce ? Self.replay(debounce, sends) : Self.replay(throttle, sends)
    }

    private static func replay<M: PacingStateMachine>(_ machine: M, _ sends: [(micros: Int64, value: String)]) -> [Emission]
    where M.Value == String, M.Instant == DriverInstant {
      var runner = PacingRunner(machine)
      var out: [Emission] = []
      let emit: (PacingEvent<String>, DriverInstant) -> Void = { event, instant in
        if case .value(let value) = event { out.append(Emission(value: value, micros: instant.nanoseconds / 1000)) }
      }
      guard let first = sends.first else { return [] }
      runner.start(at: DriverInstant(nanoseconds: first.micros * 1000), emit)
      for send in sends {
        runner.send(send.value, at: DriverInstant(nanoseconds: send.micros * 1000), emit)
      }
      runner.fireAllTimers(emit)
      return out
    }
  }

  /// An emission as the oracle and the probes report it.
  public struct Emission: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var value: String
    public var micros: Int64

    public init(value: String, micros: Int64) {
      self.value = value
      self.micros = micros
    }

    public static func < (lhs: Emission, rhs: Emission) -> Bool {
      (lhs.micros, lhs.value) < (rhs.micros, rhs.value)
    }

    public var description: String { "\(value)@\(micros)" }
  }

  public let seed: UInt64
  public let pacers: [Pacer]
  public let keyCount: Int

  /// The scenario of `seed`: `pacerCount` pacers with random options, and
  /// `keyCount` keys spread over them.
  public init(seed: UInt64, pacerCount: Int = 6, keyCount: Int = 1000) {
    self.seed = seed
    self.keyCount = keyCount
    var random = ScenarioRandom(seed: seed)
    let kinds = Pacer.Kind.allCases
    pacers = (0..<pacerCount).map { index in
      // Every kind at least once when there are enough pacers.
      let kind = index < kinds.count ? kinds[index] : kinds[Int(random.next() % UInt64(kinds.count))]
      let interval = Int64(200 + random.next() % 1300)
      let maxWait: Int64? =
        (kind == .debounceTrailing || kind == .debounceBoth) && random.next() % 2 == 0
        ? interval + Int64(random.next() % UInt64(2 * interval)) : nil
      return Pacer(name: "p\(index)", kind: kind, intervalMilliseconds: interval, maxWaitMilliseconds: maxWait)
    }
  }

  /// A scenario of the given pacers.
  public init(pacers: [Pacer], keyCount: Int) {
    seed = 0
    self.pacers = pacers
    self.keyCount = keyCount
  }

  /// The key of number `index`, and the pacer it belongs to.
  public func key(_ index: Int) -> (pacer: Pacer, key: String) {
    (pacers[index % pacers.count], "k\(index)")
  }
}

/// SplitMix64: the same numbers for the same seed, in every process.
public struct ScenarioRandom: RandomNumberGenerator, Sendable {
  var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
