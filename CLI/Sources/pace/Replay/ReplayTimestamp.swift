//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The timestamp at the start of a replayed line, and how it was written, so
/// that an emitted line's timestamp is written the same way.
///
/// Two forms: RFC 3339 (`2026-11-24T09:30:00Z`, `2026-11-24T10:30:00.250+01:00`)
/// and seconds since the Unix epoch, decimals allowed (`1764000000.25`).
struct ReplayTimestamp: Equatable, Sendable {
  enum Style: Equatable, Sendable {
    /// Seconds since the epoch.
    case epochSeconds
    /// RFC 3339, in this offset from UTC (seconds east), `Z` when zero and so written.
    case rfc3339(offsetSeconds: Int, zulu: Bool, dateTimeSeparator: UInt8)
  }

  var instant: ReplayInstant
  var style: Style
  /// The digits after the point in the input; an emitted timestamp has at
  /// least as many.
  var fractionDigits: Int

  /// Reads the timestamp that starts `bytes`; nil when there is none.
  ///
  /// - Returns: The timestamp and the number of bytes it took.
  static func parse(_ bytes: UnsafeRawBufferPointer) -> (timestamp: ReplayTimestamp, length: Int)? {
    if let rfc = parseRFC3339(bytes) { return rfc }
    return parseEpoch(bytes)
  }

  /// `instant` written in this timestamp's style.
  func formatted(_ instant: ReplayInstant) -> String {
    let (seconds, attoseconds) = instant.sinceEpoch.components
    // Whole seconds and nanoseconds, floored (before the epoch too).
    var wholeSeconds = seconds
    var nanoseconds = attoseconds / 1_000_000_000
    if nanoseconds < 0 {
      wholeSeconds -= 1
      nanoseconds += 1_000_000_000
    }
    let fraction = Self.fraction(nanoseconds: nanoseconds, minimumDigits: fractionDigits)
    switch style {
    case .epochSeconds:
      return "\(wholeSeconds)\(fraction)"
    case .rfc3339(let offset, let zulu, let separator):
      let local = wholeSeconds + Int64(offset)
      let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
      let secondOfDay = local - days * 86_400
      let (year, month, day) = Self.civil(fromDays: days)
      let date = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
      let time =
        "\(Self.pad(secondOfDay / 3_600, 2)):\(Self.pad(secondOfDay / 60 % 60, 2)):\(Self.pad(secondOfDay % 60, 2))"
      let zone: String
      if zulu && offset == 0 {
        zone = "Z"
      } else {
        let sign = offset < 0 ? "-" : "+"
        zone = "\(sign)\(Self.pad(Int64(abs(offset) / 3_600), 2)):\(Self.pad(Int64(abs(offset) / 60 % 60), 2))"
      }
      return "\(date)\(Character(Unicode.Scalar(separator)))\(time)\(fraction)\(zone)"
    }
  }

  // MARK: Reading

  private static func parseEpoch(_ bytes: UnsafeRawBufferPointer) -> (ReplayTimestamp, Int)? {
    var index = 0
    var seconds: Int64 = 0
    while index < bytes.count, let digit = digit(bytes[index]) {
      guard index < 12 else { return nil }  // Beyond the year 33,000: not a timestamp.
      seconds = seconds * 10 + Int64(digit)
      index += 1
    }
    guard index > 0 else { return nil }
    var nanoseconds: Int64 = 0
    var digits = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      (nanoseconds, digits, index) = fraction(bytes, from: index)
      guard digits > 0 else { return nil }
    }
    guard endsTimestamp(bytes, at: index) else { return nil }
    let instant = ReplayInstant(sinceEpoch: .seconds(seconds) + .nanoseconds(nanoseconds))
    return (ReplayTimestamp(instant: instant, style: .epochSeconds, fractionDigits: digits), index)
  }

  private static func parseRFC3339(_ bytes: UnsafeRawBufferPointer) -> (ReplayTimestamp, Int)? {
    // YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)
    guard bytes.count >= 20 else { return nil }
    func number(_ start: Int, _ count: Int) -> Int64? {
      var value: Int64 = 0
      for index in start..<start + count {
        guard let digit = digit(bytes[index]) else { return nil }
        value = value * 10 + Int64(digit)
      }
      return value
    }
    let separator = bytes[10]
    guard let year = number(0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(5, 2),
      bytes[7] == UInt8(ascii: "-"), let day = number(8, 2),
      separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t"),
      let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(14, 2),
      bytes[16] == UInt8(ascii: ":"), let second = number(17, 2),
      (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 61
    else { return nil }
    var index = 19
    var nanoseconds: Int64 = 0
    var digits = 0
    if bytes[index] == UInt8(ascii: ".") {
      (nanoseconds, digits, index) = fraction(bytes, from: index + 1)
      guard digits > 0 else { return nil }
    }
    guard index < bytes.count else { return nil }
    let offset: Int
    let zulu: Bool
    switch bytes[index] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      (offset, zulu) = (0, true)
      index += 1
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      guard index + 6 <= bytes.count, let hours = number(index + 1, 2), bytes[index + 3] == UInt8(ascii: ":"),
        let minutes = number(index + 4, 2), hours < 24, minutes < 60
      else { return nil }
      let magnitude = Int(hours * 3_600 + minutes * 60)
      (offset, zulu) = (bytes[index] == UInt8(ascii: "-") ? -magnitude : magnitude, false)
      index += 6
    default:
      return nil
    }
    guard endsTimestamp(bytes, at: index) else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + min(second, 59) - Int64(offset)
    let instant = ReplayInstant(sinceEpoch: .seconds(seconds) + .nanoseconds(nanoseconds))
    let style = Style.rfc3339(offsetSeconds: offset, zulu: zulu, dateTimeSeparator: separator)
    return (ReplayTimestamp(instant: instant, style: style, fractionDigits: digits), index)
  }

  /// The digits of a fraction from `start`: its nanoseconds (digits past the
  /// ninth are read and dropped), how many digits, and where it ends.
  private static func fraction(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (Int64, Int, Int) {
    var index = start
    var nanoseconds: Int64 = 0
    var digits = 0
    while index < bytes.count, let digit = digit(bytes[index]) {
      if digits < 9 { nanoseconds = nanoseconds * 10 + Int64(digit) }
      digits += 1
      index += 1
    }
    for _ in min(digits, 9)..<9 { nanoseconds *= 10 }
    return (nanoseconds, digits, index)
  }

  /// A timestamp ends at the end of the line or before a space or a tab.
  private static func endsTimestamp(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
    index == bytes.count || bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")
      || (index == bytes.count - 1 && bytes[index] == UInt8(ascii: "\r"))  // A timestamp alone, before a CRLF.
  }

  private static func digit(_ byte: UInt8) -> Int? {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
  }

  // MARK: Calendar (proleptic Gregorian, H. Hinnant's algorithms)

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  // MARK: Writing

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  /// ".25" for 250,000,000 ns: as many digits as the value needs, and at least `minimumDigits`.
  private static func fraction(nanoseconds: Int64, minimumDigits: Int) -> String {
    var digits = Array(pad(nanoseconds, 9))
    while digits.count > minimumDigits, digits.last == "0" { digits.removeLast() }
    while digits.count < minimumDigits { digits.append("0") }
    return digits.isEmpty ? "" : "." + String(digits)
  }
}
