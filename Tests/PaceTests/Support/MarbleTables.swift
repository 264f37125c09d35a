//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The marble tables: the timing contract of `MARBLES.md`, case by case. Every
/// executor (the policies here; the drivers later) must produce these outputs.
enum MarbleTables {
  /// The worked examples of `MARBLES.md`, verbatim.
  static let workedExamples: [MarbleCase] = [
    MarbleCase(.debounce(3), input: "abcd----e---f-g----|", output: "------d----e-----g-|"),
    MarbleCase(.debounce(3), input: "abcd----e---f-g-|", output: "------d----e----[g|]"),
    MarbleCase(.debounce(3), input: "a|", output: "-[a|]"),
    MarbleCase(.debounce(3), input: "a^", output: "-^"),
    MarbleCase(.debounce(3), input: "a--b-----", output: "------b"),
    MarbleCase(.debounce(3, leading: true, trailing: false), input: "a-b-c------d", output: "a----------d"),
    MarbleCase(.throttle(3), input: "abcdefghijk|", output: "a--d--g--j--[k|]"),
    MarbleCase(.throttle(4), input: "-a-xy-----b--x--cxxx--|", output: "-a---y----b---x---x---[x|]"),
    MarbleCase(.throttle(4, leading: false), input: "-a--------xy|", output: "-----a--------[y|]"),
  ]

  static let debounce: [MarbleCase] = [
    // Trailing only: empty, finish and failure alone, no finish.
    MarbleCase(.debounce(3), input: "", output: ""),
    MarbleCase(.debounce(3), input: "|", output: "|"),
    MarbleCase(.debounce(3), input: "^", output: "^"),
    MarbleCase(.debounce(3), input: "a", output: "---a"),
    MarbleCase(.debounce(3), input: "a---b", output: "---a---b"),
    // Finish while pending flushes; failure while pending drops.
    MarbleCase(.debounce(3), input: "a-b-c-|", output: "------[c|]"),
    MarbleCase(.debounce(3), input: "ab-^", output: "---^"),
    // Same frame as the deadline: the input is handled first.
    MarbleCase(.debounce(3), input: "a--^", output: "---^"),
    MarbleCase(.debounce(3), input: "a--|", output: "---[a|]"),
    MarbleCase(.debounce(3), input: "a---|", output: "---a|"),
    // Groups: the last value of a group supersedes the others.
    MarbleCase(.debounce(3), input: "[ab]", output: "---b"),
    MarbleCase(.debounce(3), input: "[ab|]", output: "[b|]"),
    MarbleCase(.debounce(3), input: "a'foo'-b|", output: "----[b|]"),
    MarbleCase(.debounce(1), input: "a-b-c", output: "-a-b-c"),
    MarbleCase(.debounce(1), input: "abc|", output: "---[c|]"),
    // Duration 0 never delays.
    MarbleCase(.debounce(0), input: "abc", output: "abc"),
    MarbleCase(.debounce(0), input: "[ab]-c|", output: "b-c|"),
    MarbleCase(.debounce(0), input: "[ab|]", output: "[b|]"),
    // Leading and trailing: a burst of one value emits once.
    MarbleCase(.debounce(2, leading: true), input: "a----b|", output: "a----b|"),
    MarbleCase(.debounce(2, leading: true), input: "ab---c", output: "a--b-c"),
    MarbleCase(.debounce(2, leading: true), input: "ab|", output: "a-[b|]"),
    MarbleCase(.debounce(2, leading: true), input: "[ab]", output: "a-b"),
    MarbleCase(.debounce(2, leading: true), input: "a|", output: "a|"),
    MarbleCase(.debounce(2, leading: true), input: "a^", output: "a^"),
    MarbleCase(.debounce(2, leading: true), input: "ab^", output: "a-^"),
    MarbleCase(.debounce(0, leading: true), input: "[ab]c", output: "[ab]c"),
    // Leading only.
    MarbleCase(.debounce(2, leading: true, trailing: false), input: "[ab]---c|", output: "a---c|"),
    MarbleCase(.debounce(3, leading: true, trailing: false), input: "a-b-c-d|", output: "a------|"),
    MarbleCase(.debounce(3, leading: true, trailing: false), input: "a--b", output: "a"),
    MarbleCase(.debounce(3, leading: true, trailing: false), input: "a---b", output: "a---b"),
    MarbleCase(.debounce(0, leading: true, trailing: false), input: "[ab]c", output: "ac"),
    // Max-wait: a pending value waits no longer than max-wait within a burst.
    MarbleCase(.debounce(3, maxWait: 5), input: "abcdefghij", output: "-----f----j"),
    MarbleCase(.debounce(3, maxWait: 5), input: "abcdefghij|", output: "-----f----[j|]"),
    MarbleCase(.debounce(3, maxWait: 3), input: "a-b-c-d", output: "---b--d"),
    MarbleCase(.debounce(3, maxWait: 10), input: "a-b-c-d-----|", output: "---------d--|"),
    MarbleCase(.debounce(3, maxWait: 4), input: "a", output: "---a"),
    MarbleCase(.debounce(3, maxWait: 4), input: "ab^", output: "--^"),
    MarbleCase(.debounce(2, leading: true, maxWait: 4), input: "abcdefg|", output: "a---e--[g|]"),
    // Max-wait smaller than the interval is raised to it.
    MarbleCase(.debounce(3, maxWait: 2), input: "abcdef", output: "---d--f"),
    MarbleCase(.debounce(3, maxWait: 0), input: "abcdef", output: "---d--f"),
    MarbleCase(.debounce(0, maxWait: 0), input: "[ab]c", output: "bc"),
  ]

  static let throttle: [MarbleCase] = [
    MarbleCase(.throttle(3), input: "", output: ""),
    MarbleCase(.throttle(3), input: "|", output: "|"),
    MarbleCase(.throttle(3), input: "^", output: "^"),
    // Finish with nothing pending passes at once; with a pending value it waits.
    MarbleCase(.throttle(3), input: "a|", output: "a|"),
    MarbleCase(.throttle(3), input: "ab|", output: "a--[b|]"),
    MarbleCase(.throttle(3), input: "'foo''bar'|", output: "'foo'--['bar'|]"),
    // Failure drops what is pending and passes at once.
    MarbleCase(.throttle(3), input: "a^", output: "a^"),
    MarbleCase(.throttle(3), input: "ab^", output: "a-^"),
    // An input at the window's end is inside the window.
    MarbleCase(.throttle(3), input: "a--b", output: "a--b"),
    MarbleCase(.throttle(3), input: "a---b", output: "a---b"),
    MarbleCase(.throttle(2), input: "a-b-c-d|", output: "a-b-c-d|"),
    MarbleCase(.throttle(2), input: "aaaa", output: "a-a-a"),
    MarbleCase(.throttle(3), input: "[abc]", output: "a--c"),
    MarbleCase(.throttle(5), input: "abc-------d^", output: "a----c----d^"),
    MarbleCase(.throttle(1), input: "abc|", output: "abc|"),
    // Leading only: values inside a window are dropped.
    MarbleCase(.throttle(3, trailing: false), input: "abcdefg|", output: "a---e--|"),
    MarbleCase(.throttle(3, trailing: false), input: "a-b|", output: "a--|"),
    // Trailing only.
    MarbleCase(.throttle(3, leading: false), input: "abc", output: "---c"),
    MarbleCase(.throttle(3, leading: false), input: "abcdefg|", output: "---d--g|"),
    MarbleCase(.throttle(3, leading: false), input: "a|", output: "---[a|]"),
    MarbleCase(.throttle(3, leading: false), input: "a^", output: "-^"),
    MarbleCase(.throttle(2, leading: false), input: "a-b-c-|", output: "--b-c-|"),
    // Duration 0 never delays.
    MarbleCase(.throttle(0), input: "[ab]c|", output: "[ab]c|"),
    MarbleCase(.throttle(0), input: "[ab|]", output: "[ab|]"),
    MarbleCase(.throttle(0, leading: false), input: "[ab]", output: "b"),
    MarbleCase(.throttle(0, trailing: false), input: "[ab]c", output: "ac"),
  ]

  static let filtering: [MarbleCase] = [
    MarbleCase(.distinct, input: "aab-a--bb|", output: "a-b-a--b-|"),
    MarbleCase(.distinct, input: "[aa]b", output: "ab"),
    MarbleCase(.distinct, input: "abc^", output: "abc^"),
    MarbleCase(.skip(2), input: "abcd|", output: "--cd|"),
    MarbleCase(.skip(0), input: "ab|", output: "ab|"),
    MarbleCase(.skip(5), input: "ab|", output: "--|"),
    MarbleCase(.take(2), input: "abcd|", output: "a[b|]"),
    MarbleCase(.take(0), input: "abc", output: "|"),
    MarbleCase(.take(5), input: "ab|", output: "ab|"),
    MarbleCase(.take(1), input: "-[ab]c", output: "-[a|]"),
    MarbleCase(.filter("[ab]"), input: "abcab|", output: "ab-ab|"),
    MarbleCase(.filter("^foo$"), input: "'foo''foobar'-'foo'|", output: "'foo'--'foo'|"),
  ]

  static let chains: [MarbleCase] = [
    MarbleCase(.distinct, .debounce(2), input: "aa-a---b|", output: "--a-----[b|]"),
    MarbleCase(.filter("[ab]"), .throttle(2), input: "axbxa|", output: "a-b-a|"),
    MarbleCase(.debounce(2), .take(1), input: "ab--c", output: "---[b|]"),
    MarbleCase(.skip(1), .distinct, input: "aab|", output: "-ab|"),
    MarbleCase(.throttle(3), .distinct, input: "aaaaaaa|", output: "a------|"),
    // Three stages.
    MarbleCase(.filter("[ab]"), .distinct, .debounce(2), input: "axa-b-bb---a|", output: "--a---b-----[a|]"),
    MarbleCase(.skip(1), .throttle(2), .take(2), input: "abcdef|", output: "-b-[d|]"),
    MarbleCase(.distinct, .throttle(3, leading: false), .skip(1), input: "aabbcc--dd|", output: "------c--d|"),
  ]

  /// Every case.
  static let all = workedExamples + debounce + throttle + filtering + chains

  /// The cases of one timed stage (debounce or throttle): the ones `Debouncer`,
  /// `Throttler`, `debounced` and `throttled` run.
  static let timed = all.filter { $0.stages.count == 1 && $0.stages.allSatisfy(\.isTimed) }

  /// The cases of several stages: the ones a pipeline runs in every driver.
  static let multiStage = all.filter { $0.stages.count > 1 }
}

extension StageConfiguration {
  var isTimed: Bool {
    switch self {
    case .debounce, .throttle: true
    case .distinct, .filter, .skip, .take: false
    }
  }
}
