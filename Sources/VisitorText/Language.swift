/// A language the kiosk ships visitor text in.
public struct Language: Equatable, Sendable {
    /// ISO 639-1 code, as in the configuration (`languages = ["en", "fr"]`).
    public let code: String
    /// Its own name for itself, as the language control shows it.
    public let autonym: String
    public let rightToLeft: Bool
    /// Written in Latin letters: DejaVu alone draws it; others need a fallback font.
    public var isLatin: Bool { !rightToLeft && code != "ja" }
    let table: [String: String]

    /// English first: a string missing from another table falls back to it.
    public static let shipped: [Language] = [
        Language(code: "en", autonym: "English", rightToLeft: false, table: english),
        Language(code: "fr", autonym: "Français", rightToLeft: false, table: french),
        Language(code: "de", autonym: "Deutsch", rightToLeft: false, table: german),
        Language(code: "es", autonym: "Español", rightToLeft: false, table: spanish),
        Language(code: "ar", autonym: "العربية", rightToLeft: true, table: arabic),
        Language(code: "ja", autonym: "日本語", rightToLeft: false, table: japanese),
    ]

    public static func named(_ code: String) -> Language? { shipped.first { $0.code == code } }

    public static func == (a: Language, b: Language) -> Bool { a.code == b.code }
}
