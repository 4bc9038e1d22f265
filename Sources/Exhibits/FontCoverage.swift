import Raster
import VisitorText

/// Visitor text that no font of the stand draws (it would show as boxes): a language whose
/// shipped text needs a font that is not there, or the museum's wording with emoji,
/// private-use characters or a script no configured font has. Says which language and key,
/// and what to install or configure.
public struct FontCoverageProblem: Equatable, Sendable, CustomStringConvertible {
    /// The language's code.
    public var language: String
    /// The key of the museum's wording; nil for the shipped text of the language.
    public var key: String?
    /// How many keys of the shipped text miss characters (for `key == nil`).
    public var keys: Int
    /// The characters no font draws, in order of first appearance (at most a few), and how
    /// many different ones there are.
    public var examples: [Unicode.Scalar]
    public var count: Int
    /// What to do: the package to install, or what to add to the configuration.
    public var advice: String
    /// The short form the commissioning screen shows.
    public var screenLine: String

    public var description: String {
        let chars = examples.map { FontCoverage.describe($0) }.joined(separator: ", ") + (count > examples.count ? ", …" : "")
        let many = count == 1 ? "1 character" : "\(count) characters"
        if let key {
            return "[text.\(language)] \"\(key)\": \(many) no configured font draws (\(chars)); \(advice)"
        }
        return "language \"\(language)\": no configured font draws its text (\(many) in \(keys) key\(keys == 1 ? "" : "s"): \(chars)); \(advice)"
    }
}

public enum FontCoverage {
    /// What a chain is called in the configuration, and the paths it was given.
    public struct Chain {
        public var name: String
        public var paths: [String]
        public var fonts: FontChain
        /// The bold chain (it wants the bold files).
        public var bold: Bool
        public init(name: String, paths: [String], fonts: FontChain, bold: Bool) {
            self.name = name; self.paths = paths; self.fonts = fonts; self.bold = bold
        }
    }

    /// Every language's text and the museum's wording against `chains` (the regular and the
    /// bold fonts: visitor text uses both). One problem per language for its shipped text, one
    /// per key of the museum's wording.
    public static func problems(in text: TextBook, chains: [Chain]) -> [FontCoverageProblem] {
        var found: [FontCoverageProblem] = []
        var byLanguage: [String: (keys: Int, missing: [Unicode.Scalar], chains: Set<String>)] = [:]
        var order: [String] = []
        text.forEachString(keys: ExhibitRegistry.textKeys) { language, key, string, museum in
            var missing: [Unicode.Scalar] = []
            var chainNames = Set<String>()
            for scalar in string.unicodeScalars where needsGlyph(scalar) {
                for chain in chains where !chain.fonts.covers(scalar) {
                    chainNames.insert(chain.name)
                    if !missing.contains(scalar) { missing.append(scalar) }
                }
            }
            guard !missing.isEmpty else { return }
            if museum {
                found.append(problem(language: language.code, key: key, keys: 1, missing: missing, chains: chains, chainNames: chainNames))
            } else {
                if byLanguage[language.code] == nil { order.append(language.code) }
                var entry = byLanguage[language.code] ?? (0, [], [])
                entry.keys += 1
                for c in missing where !entry.missing.contains(c) { entry.missing.append(c) }
                entry.chains.formUnion(chainNames)
                byLanguage[language.code] = entry
            }
        }
        let shipped = order.compactMap { code in
            byLanguage[code].map { problem(language: code, key: nil, keys: $0.keys, missing: $0.missing, chains: chains, chainNames: $0.chains) }
        }
        return shipped + found
    }

    private static func problem(language: String, key: String?, keys: Int, missing: [Unicode.Scalar], chains: [Chain],
                                chainNames: Set<String>) -> FontCoverageProblem {
        var advice: [String] = []
        var packages: [String] = []
        var kinds: [Kind] = []
        for c in missing {
            let kind = Kind(c)
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        let named = chains.filter { chainNames.contains($0.name) }
        for kind in kinds {
            switch kind {
            case .packaged(let package, let file):
                packages.append(package)
                // The chains that name the package's file need it installed; the others need it named too.
                var add: [String] = []
                for chain in named where !chain.paths.contains(where: { $0 == file.regular || $0 == file.bold }) {
                    add.append((chain.bold ? file.bold : file.regular) + " to " + chain.name)
                }
                advice.append("install \(package)" + (add.isEmpty ? "" : " and add " + add.joined(separator: " and ")))
            case .emoji:
                advice.append("emoji: the kiosk draws outline fonts only, not colour emoji; add an outline font that has them "
                              + "(e.g. Symbola, Debian fonts-symbola) to \(named.map { $0.name }.joined(separator: " and ")), or write words")
            case .privateUse:
                advice.append("private-use characters mean nothing without the one font made for them: use standard characters")
            case .otherScript:
                advice.append("add a font for that script to \(named.map { $0.name }.joined(separator: " and ")) "
                              + "(Debian's fonts-noto-core has Noto Sans for most scripts)")
            }
        }
        let screen: String
        if let key {
            screen = "fonts: \(language) \(key) has \(missing.count) character\(missing.count == 1 ? "" : "s") no font draws"
        } else {
            screen = "fonts: no font for \(language) text" + (packages.isEmpty ? "" : ": install " + packages.joined(separator: ", "))
        }
        return FontCoverageProblem(language: language, key: key, keys: keys, examples: Array(missing.prefix(4)), count: missing.count,
                                   advice: advice.joined(separator: "; "), screenLine: screen)
    }

    /// Where a character's font comes from.
    enum Kind: Equatable {
        case packaged(String, file: (regular: String, bold: String))
        case emoji, privateUse, otherScript

        static func == (a: Kind, b: Kind) -> Bool {
            switch (a, b) {
            case (.packaged(let p, _), .packaged(let q, _)): return p == q
            case (.emoji, .emoji), (.privateUse, .privateUse), (.otherScript, .otherScript): return true
            default: return false
            }
        }

        init(_ scalar: Unicode.Scalar) {
            let c = scalar.value
            let regular = FontChain.regularPaths, bold = FontChain.boldPaths
            if (0xE000...0xF8FF).contains(c) || c >= 0xF0000 {
                self = .privateUse
            } else if (0x1F000...0x1FAFF).contains(c) || (0x2600...0x27BF).contains(c) || (0x2B00...0x2BFF).contains(c) {
                self = .emoji
            } else if (0x0600...0x08FF).contains(c) || (0xFB50...0xFDFF).contains(c) || (0xFE70...0xFEFF).contains(c) {
                self = .packaged("fonts-noto-core", file: (regular[1], bold[1]))
            } else if (0x0590...0x05FF).contains(c) || (0xFB1D...0xFB4F).contains(c) {
                self = .packaged("fonts-noto-core", file: (regular[2], bold[2]))
            } else if (0x2E80...0x9FFF).contains(c) || (0xAC00...0xD7AF).contains(c) || (0xF900...0xFAFF).contains(c)
                        || (0xFF00...0xFFEF).contains(c) || (0x20000...0x3FFFF).contains(c) || (0x1100...0x11FF).contains(c) {
                self = .packaged("fonts-noto-cjk", file: (regular[3], bold[3]))
            } else if c < 0x0590 || (0x1E00...0x1FFF).contains(c) || (0x2000...0x2BFF).contains(c) {
                self = .packaged("fonts-dejavu-core", file: (regular[0], bold[0]))
            } else {
                self = .otherScript
            }
        }
    }

    /// Whether `scalar` is drawn (controls, format characters and variation selectors are not).
    static func needsGlyph(_ scalar: Unicode.Scalar) -> Bool {
        let c = scalar.value
        if c < 0x20 || (0x7F...0x9F).contains(c) { return false }
        if c == 0xAD || c == 0x34F || c == 0x61C || (0x180B...0x180F).contains(c) { return false }
        if (0x200B...0x200F).contains(c) || (0x2028...0x202E).contains(c) || (0x2060...0x206F).contains(c) { return false }
        if (0xFE00...0xFE0F).contains(c) || c == 0xFEFF || (0xE0000...0xE0FFF).contains(c) { return false }
        return true
    }

    /// "日 U+65E5" (a control-free, printable form for logs).
    static func describe(_ scalar: Unicode.Scalar) -> String {
        var hex = String(scalar.value, radix: 16, uppercase: true)
        while hex.count < 4 { hex = "0" + hex }
        let printable = (0xE000...0xF8FF).contains(scalar.value) || scalar.value >= 0xF0000 ? "" : String(Character(scalar)) + " "
        return printable + "U+" + hex
    }
}
