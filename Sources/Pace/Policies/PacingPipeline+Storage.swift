//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

extension PacingPipeline: StorablePacingStateMachine where Value: Codable, Instant: Codable {
  /// Writes each stage's state, in order. The stages' options (intervals,
  /// edges, a filter's or distinct's closure, counts' starting values) are
  /// not written: they come from the pipeline the state is read back into.
  ///
  /// - Throws: `EncodingError` when a stage of your own is not a
  ///   ``StorablePacingStateMachine``.
  public func encodeState(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(terminated)
    for (index, stage) in stages.enumerated() {
      try stage.encodeState(to: container.superEncoder(), index: index)
    }
  }

  /// Takes the states that ``encodeState(to:)`` wrote, from a pipeline
  /// made of the same stages with the same options.
  ///
  /// - Throws: `DecodingError` when the data holds another number of
  ///   stages, a stage's state does not fit, or a stage of your own is not
  ///   a ``StorablePacingStateMachine``.
  public mutating func decodeState(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    let count = container.count.map { $0 - 1 }
    guard count == stages.count else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "Stored for a pipeline of \(count.map(String.init) ?? "?") stages, not \(stages.count)"))
    }
    terminated = try container.decode(Bool.self)
    for index in stages.indices {
      try stages[index].decodeState(from: container.superDecoder(), index: index)
    }
    stageDeadlines = stages.map(\.deadline)
    earliestDeadline = Self.earliest(of: stageDeadlines)
  }
}

extension PipelineStage where Value: Codable, Instant: Codable {
  func encodeState(to encoder: any Encoder, index: Int) throws {
    switch self {
    case .debounce(let machine): try machine.encodeState(to: encoder)
    case .throttle(let machine): try machine.encodeState(to: encoder)
    case .distinct(let machine): try machine.encodeState(to: encoder)
    case .filter(let machine): try machine.encodeState(to: encoder)
    case .skip(let machine): try machine.encodeState(to: encoder)
    case .take(let machine): try machine.encodeState(to: encoder)
    case .other(let machine):
      guard let storable = machine as? any StorablePacingStateMachine else {
        throw EncodingError.invalidValue(
          machine,
          .init(
            codingPath: encoder.codingPath,
            debugDescription: "Stage \(index + 1) (\(type(of: machine))) is not a StorablePacingStateMachine"))
      }
      try storable.encodeState(to: encoder)
    }
  }

  mutating func decodeState(from decoder: any Decoder, index: Int) throws {
    switch self {
    case .debounce(var machine):
      try machine.decodeState(from: decoder)
      self = .debounce(machine)
    case .throttle(var machine):
      try machine.decodeState(from: decoder)
      self = .throttle(machine)
    case .distinct(var machine):
      try machine.decodeState(from: decoder)
      self = .distinct(machine)
    case .filter(var machine):
      try machine.decodeState(from: decoder)
      self = .filter(machine)
    case .skip(var machine):
      try machine.decodeState(from: decoder)
      self = .skip(machine)
    case .take(var machine):
      try machine.decodeState(from: decoder)
      self = .take(machine)
    case .other(let machine):
      guard var storable = machine as? any StorablePacingStateMachine else {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: decoder.codingPath,
            debugDescription: "Stage \(index + 1) (\(type(of: machine))) is not a StorablePacingStateMachine"))
      }
      try storable.decodeState(from: decoder)
      // The same value, of the same type as before: the cast back holds.
      self = .other(storable as! any PacingStateMachine<Value, Instant> & Sendable)
    }
  }
}
