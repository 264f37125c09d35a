//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// How durations are written in text stages.
///
///     PacingDurationFormat.withUnits.duration(from: "1.5s")   // .milliseconds(1500)
///     PacingDurationFormat.withUnits.duration(from: "300")    // nil: a unit is required
public struct PacingDurationFormat: Sendable {
  /// How the format is written, for error messages: "with a unit (such as 250ms, 1.5s or 2m)".
  public var description: String
  private let read: @Sendable (String) -> Duration?

  /// A format named by `description`, read by `parse`, which answers the
  /// duration a word means (never negative), or `nil` if it is not one.
  public init(description: String, parse: @escaping @Sendable (String) -> Duration?) {
    self.description = description
    self.read = parse
  }

  /// The duration `word` means, or `nil` if it is not one. Never negative.
  public func duration(from word: String) -> Duration? {
    read(word)
  }

  /// A number, decimals allowed, and a unit: `us`, `ms`, `s`, `m` or `h`
  /// (`250ms`, `1.5s`, `2m`).
  public static let withUnits = PacingDurationFormat(
    description: "with a unit (such as 250ms, 1.5s or 2m)", parse: parseWithUnit)

  private static func parseWithUnit(_ word: String) -> Duration? {
    let units: [(suffix: String, nanoseconds: Double)] = [
      ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3_600e9),
    ]
    for unit in units where word.hasSuffix(unit.suffix) {
      let number = word.dropLast(unit.suffix.count)
      // Digits and one point only: no sign, no exponent, no "inf" or "nan".
      guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
        number.filter({ $0 == "." }).count <= 1, number != ".", let value = Double(number)
      else { return nil }
      let nanoseconds = (value * unit.nanoseconds).rounded()
      guard nanoseconds < 9.2e18 else { return nil }
      return .nanoseconds(Int64(nanoseconds))
    }
    return nil
  }
}
