//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Which values of a burst a debounce emits: the last (trailing), the first
/// (leading) or both, and, with a trailing edge, how long a value may wait
/// while the burst goes on (`maxWait`).
///
/// Every case can run: there is no "neither edge", and a maximum wait exists
/// only where there is a trailing value for it to emit.
///
///     let search = Debouncer<String>(for: .milliseconds(300)) { … }                          // .trailing()
///     let save = Debouncer<Draft>(for: .seconds(1), edges: .trailing(maxWait: .seconds(10))) { … }
///     let tap = Debouncer<Void>(for: .milliseconds(500), edges: .leading) { … }
///
///     input:                   a-b-c------d
///     debounce 3, .trailing(): -------c------d
///     debounce 3, .leading:    a----------d
///     debounce 3, .both():     a------c---d
public enum DebounceEdges<Duration: DurationProtocol>: Equatable, Sendable {
  /// The last value of a burst, once the burst ends; with `maxWait`, also the
  /// pending value at least every `maxWait` while the burst goes on (raised to
  /// the interval when smaller).
  case trailing(maxWait: Duration? = nil)
  /// The value that starts a burst, at once; the rest of the burst is dropped.
  case leading
  /// The first value at once, and the last one when the burst ends (a burst of
  /// one value emits once); `maxWait` as for ``trailing(maxWait:)``.
  case both(maxWait: Duration? = nil)

  /// The default: ``trailing(maxWait:)`` with no maximum wait.
  public static var `default`: Self { .trailing(maxWait: nil) }

  /// Whether the value that starts a burst is emitted at once.
  public var leading: Bool {
    switch self {
    case .leading, .both: true
    case .trailing: false
    }
  }

  /// Whether the latest value is emitted when the burst ends.
  public var trailing: Bool {
    switch self {
    case .trailing, .both: true
    case .leading: false
    }
  }

  /// The longest a pending value waits while a burst goes on, if any.
  public var maxWait: Duration? {
    switch self {
    case .trailing(let maxWait), .both(let maxWait): maxWait
    case .leading: nil
    }
  }

  /// The same edges with the maximum wait converted by `transform`.
  public func map<Other: DurationProtocol>(_ transform: (Duration) -> Other) -> DebounceEdges<Other> {
    switch self {
    case .trailing(let maxWait): .trailing(maxWait: maxWait.map(transform))
    case .leading: .leading
    case .both(let maxWait): .both(maxWait: maxWait.map(transform))
    }
  }
}

extension DebounceEdges: Hashable where Duration: Hashable {}
