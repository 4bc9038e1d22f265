// Only for the interpolation check of board/cross/build.sh, never compiled into the kiosk.
// Embedded Swift prints "(cannot print value in embedded Swift)" for an interpolated value
// whose type has no CustomStringConvertible (an enum, say), and says nothing at compile
// time. Beside a module's sources this catch-all wins exactly where the standard library's
// printable overloads do not apply, and its deprecation warning names the place.
extension DefaultStringInterpolation {
    @available(*, deprecated, message: "unprintable in Embedded Swift: interpolate a String or give the type CustomStringConvertible")
    mutating func appendInterpolation<T>(_ value: T) { appendLiteral("?") }
}
