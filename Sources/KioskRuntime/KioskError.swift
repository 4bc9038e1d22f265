/// A failure of the runtime's wiring, said in plain words: where files, the display and the
/// kernel meet, several kinds of error become one message (typed, for Embedded Swift).
public struct KioskError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
