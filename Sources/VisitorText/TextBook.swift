/// The visitor text of one stand: its languages (the first is the default), the shipped
/// tables and the museum's own wording on top. The kiosk switches `current` when a visitor
/// picks a language; everything drawn asks it for strings, so all text follows at once.
public final class TextBook {
    public let languages: [Language]
    public private(set) var current: Language
    /// Changes every time `current` does: exhibits that keep laid-out text redo it then.
    public private(set) var revision = 0
    private var overrides: [String: [String: String]]

    /// `codes` must be shipped languages (the configuration checks); unknown ones are left out.
    public init(languages codes: [String] = ["en"], overrides: [String: [String: String]] = [:]) {
        var chosen = codes.compactMap(Language.named)
        if chosen.isEmpty { chosen = [Language.shipped[0]] }
        languages = chosen
        current = chosen[0]
        self.overrides = overrides
    }

    public var defaultLanguage: Language { languages[0] }

    /// Shows `code` from now on; false when the stand does not offer it.
    @discardableResult
    public func select(_ code: String) -> Bool {
        guard let l = languages.first(where: { $0.code == code }) else { return false }
        if l != current { current = l; revision += 1 }
        return true
    }

    /// The text for `key` in the current language.
    public subscript(_ key: String) -> String { text(key, in: current) }

    /// Every string the stand can show: each of its languages' text (English filling the
    /// gaps), the museum's wording and the languages' own names. For choosing fonts.
    public var everyString: [String] {
        var all = languages.map { $0.autonym }
        for language in languages {
            for key in Language.shipped[0].table.keys { all.append(text(key, in: language)) }
            all.append(contentsOf: language.table.values)
        }
        for (_, wording) in overrides { all.append(contentsOf: wording.values) }
        return all
    }

    /// Every string a visitor can read, one by one: each language's text by key (`museum`: the
    /// museum's own wording, else the shipped table's) and the language's own name (key
    /// "language"). `keys`: every text key there is (Exhibits' `ExhibitRegistry.textKeys`).
    /// For checking that the fonts draw it all, and saying where what they miss is.
    public func forEachString(keys: [String], _ body: (_ language: Language, _ key: String, _ text: String, _ museum: Bool) -> Void) {
        for language in languages {
            body(language, "language", language.autonym, false)
            let own = overrides[language.code] ?? [:]
            for key in keys { body(language, key, text(key, in: language), own[key] != nil) }
            for key in own.keys.sorted() where !keys.contains(key) { body(language, key, own[key]!, true) }
        }
    }

    /// The museum's wording, else the shipped table, else English, else the key itself.
    public func text(_ key: String, in language: Language) -> String {
        if let s = overrides[language.code]?[key] { return s }
        if let s = language.table[key] { return s }
        return Language.shipped[0].table[key] ?? key
    }
}
