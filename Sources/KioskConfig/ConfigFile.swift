import Diagnostics
import Exhibits
import Sensors
import VisitorText

extension KioskConfiguration {
    public static let defaultPath = "/etc/motionkiosk/config.toml"

    /// Reads settings from TOML text. `file` names the source in messages. Every problem is
    /// reported, not just the first, so a technician fixes the file in one go; what is
    /// allowed but probably a mistake goes to `warn`.
    public static func parse(_ text: String, file: String, warn: (ConfigError) -> Void = { _ in }) throws(ConfigErrors) -> KioskConfiguration {
        let document: TOMLDocument
        do { document = try TOMLParser.parse(text) } catch {
            var message = "\(error.message) (column \(error.column))"
            if error.message.hasSuffix("could not determine value type") { message += "; text goes in quotes, as in backend = \"drm\"" }
            throw ConfigErrors(errors: [ConfigError(file: file, line: error.line, key: nil, message: message)])
        }
        var config = KioskConfiguration()
        var errors: [ConfigError] = []
        let known = Dictionary(uniqueKeysWithValues: ConfigSchema.keys.map { ($0.fullName, $0) })
        let tables = ConfigSchema.tableNames

        var hinted = 0, unknownTables = 0
        let written = Set(document.tables.map { $0.name })
        for (name, line) in document.tables where !tables.contains(name) {
            // [text.fr] and what dotted keys imply under it: checked with their entries.
            if name.hasPrefix("text.") { continue }
            // Only the outermost unknown table is reported: [foo.bar] under an unknown [foo] is one mistake.
            if let dot = name.lastIndex(of: "."), written.contains(String(name[..<dot])), !tables.contains(String(name[..<dot])) { continue }
            // A file of a hundred thousand unknown tables is not a configuration: the first
            // are listed, the rest counted.
            unknownTables += 1
            if unknownTables > ConfigSchema.listedTables { continue }
            var message = "unknown table [\(echoedName(name))]"
            hinted += 1
            if hinted <= ConfigSchema.hintedErrors, let near = ConfigSchema.nearest(name, in: tables) { message += "; did you mean [\(near)]?" }
            errors.append(ConfigError(file: file, line: line, key: nil, message: message))
        }
        if unknownTables > ConfigSchema.listedTables {
            let more = unknownTables - ConfigSchema.listedTables
            errors.append(ConfigError(file: file, line: errors.last?.line ?? 1, key: nil,
                                      message: "and \(more) more unknown table\(more == 1 ? "" : "s") (only the first \(ConfigSchema.listedTables) are listed)"))
        }
        for entry in document.entries {
            if entry.path.count >= 3 && entry.path[0] == "text" {
                let language = entry.path[1], textKey = entry.path[2...].joined(separator: ".")
                do throws(ValueProblem) {
                    let text = try ConfigSchema.textOverride(language: language, key: textKey, entry.value)
                    config.text.overrides[language, default: [:]][textKey] = text
                } catch {
                    errors.append(ConfigError(file: file, line: entry.line, key: entry.key, message: error.message))
                }
                continue
            }
            guard let key = known[entry.key] else {
                let table = TOMLDocument.spelling(Array(entry.path.dropLast()))
                if !table.isEmpty && !tables.contains(table) { continue }  // reported with its table
                var message = "unknown key"
                // Hints cost an edit distance per known key: a file of thousands of unknown
                // keys gets them for the first few, which is all a technician reads.
                hinted += 1
                if hinted > ConfigSchema.hintedErrors {
                    errors.append(ConfigError(file: file, line: entry.line, key: entry.key, message: message))
                    continue
                }
                let sameTable = ConfigSchema.keys.filter { $0.table == table }.map { $0.name }
                let leaf = entry.path.last ?? ""
                if let near = ConfigSchema.nearest(leaf, in: sameTable) {
                    message += "; did you mean '\(table).\(near)'?"
                } else if let near = ConfigSchema.nearest(entry.key, in: Array(known.keys).sorted()) {
                    message += "; did you mean '\(near)'?"
                } else if table.isEmpty {
                    message += "; settings belong under a table such as [display]"
                }
                errors.append(ConfigError(file: file, line: entry.line, key: entry.key, message: message))
                continue
            }
            do throws(ValueProblem) { try key.apply(&config, entry.value) } catch {
                errors.append(ConfigError(file: file, line: entry.line, key: entry.key, message: error.message))
            }
        }
        if let locked = config.exhibits.locked, !locked.profile.isInstallerScreen, !config.exhibits.order.contains(locked),
           let entry = document.entry("exhibits.locked") {
            errors.append(ConfigError(file: file, line: entry.line, key: entry.key,
                                      message: "\(echoed(locked.name)) is locked but not in exhibits.order"))
        }
        if !errors.isEmpty { throw ConfigErrors(errors: errors) }
        for language in config.text.overrides.keys.sorted() where !config.exhibits.languages.contains(language) {
            if let entry = document.entries.first(where: { $0.path.count >= 3 && $0.path[0] == "text" && $0.path[1] == language }) {
                warn(ConfigError(file: file, line: entry.line, key: entry.key,
                                 message: "\(echoed(language)) is not in exhibits.languages: visitors will not see this wording"))
            }
        }
        if let entry = document.entry("input.arrow_keys_tilt") {
            warn(ConfigError(file: file, line: entry.line, key: entry.key,
                             message: "does nothing: arrow keys tilt only with [sensors] source = \"keys\""))
        }
        if !config.sensors.mount.matrix.isRotationOrMirror, let entry = document.entry("sensors.mount") {
            warn(ConfigError(file: file, line: entry.line, key: entry.key,
                             message: "the matrix \(config.sensors.mount.matrix) is not a turn or mirror (it scales or shears): tilt will be distorted"))
        }
        return config
    }

    /// The default configuration file, every key commented with what it does.
    public static var defaultFileText: String {
        var out = """
        # MotionKiosk configuration. Every key is optional: the value shown is the default.
        # Check a file with `motionkiosk check-config /etc/motionkiosk/config.toml`.
        # `systemctl reload motionkiosk` applies it. Write a new file under another name in
        # this folder and rename it over this one (mv), so that a reload never reads half a
        # file; a reload refuses a file that is empty, holds only comments or does not end
        # with a newline, and the running settings stay.

        """
        for table in ConfigSchema.tableNames {
            out += "\n[\(table)]\n"
            if let doc = ConfigSchema.tableDocs.first(where: { $0.table == table })?.doc { out += wrapComment(doc) }
            for key in ConfigSchema.keys where key.table == table && !key.retired {
                out += "\n" + wrapComment(key.doc)
                out += "\(key.name) = \(key.defaultText)\n"
            }
        }
        return out
    }

    private static func wrapComment(_ text: String, width: Int = 88) -> String {
        var lines: [String] = []
        var current = "#"
        for word in text.split(separator: " ") {
            if current.count + 1 + word.count > width && current != "#" {
                lines.append(current)
                current = "#"
            }
            current += " " + word
        }
        lines.append(current)
        return lines.joined(separator: "\n") + "\n"
    }
}
