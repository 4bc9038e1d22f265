/// Help in the layout people know from Swift tools: OVERVIEW, the discussion, USAGE,
/// ARGUMENTS, OPTIONS (and SUBCOMMANDS for the tool), wrapped at 80 columns, names in a
/// 24-column gutter.
extension ToolSpec {
    /// Lines stay shorter than 80 columns.
    static let width = 79
    static let gutter = 26

    /// The tool's own help.
    public func help() -> String {
        var out = "OVERVIEW: " + abstract + "\n\n"
        out += "USAGE: \(name) <subcommand>\n\n"
        out += "OPTIONS:\n"
        out += ToolSpec.entry("--version", "Show the version.")
        out += ToolSpec.entry("-h, --help", "Show help information.")
        out += "\nSUBCOMMANDS:\n"
        for c in subcommands {
            out += ToolSpec.entry(c.name + (c.name == defaultSubcommand ? " (default)" : ""), c.abstract)
        }
        out += "\n  See '\(name) help <subcommand>' for detailed help.\n"
        return out
    }

    /// One subcommand's help.
    public func help(for command: CommandSpec) -> String {
        var out = ToolSpec.wrap("OVERVIEW: " + command.abstract, indent: 0) + "\n"
        if !command.discussion.isEmpty {
            for paragraph in command.discussion.split(separator: "\n", omittingEmptySubsequences: false) {
                out += paragraph.isEmpty ? "\n" : ToolSpec.wrap(String(paragraph), indent: 0)
            }
            out += "\n"
        }
        out += "USAGE: " + usage(of: command) + "\n\n"
        if !command.arguments.isEmpty {
            out += "ARGUMENTS:\n"
            for a in command.arguments {
                out += ToolSpec.entry("<\(a.name)>", a.help + (a.defaultText.map { " (default: \($0))" } ?? ""))
            }
            out += "\n"
        }
        out += "OPTIONS:\n"
        for o in command.options {
            var text = o.help
            if !o.choices.isEmpty {
                text += " (values: " + o.choices.joined(separator: ", ") + (o.defaultText.map { "; default: \($0)" } ?? "") + ")"
            } else if let d = o.defaultText {
                text += " (default: \(d))"
            }
            out += ToolSpec.entry(o.isFlag ? "--\(o.name)" : "--\(o.name) <\(o.name)>", text)
        }
        out += ToolSpec.entry("--version", "Show the version.")
        out += ToolSpec.entry("-h, --help", "Show help information.")
        return out + "\n"
    }

    /// The usage line: every option when there are a few, `<options>` when there are many.
    public func usage(of command: CommandSpec) -> String {
        var parts = ["\(name) \(command.name)"]
        for a in command.arguments { parts.append(a.isOptional ? "[<\(a.name)>]" : "<\(a.name)>") }
        if command.options.count > 12 {
            parts.append("<options>")
        } else {
            for o in command.options {
                let word = o.isFlag ? "--\(o.name)" : "--\(o.name) <\(o.name)>"
                parts.append(o.isRequired ? word : "[\(word)]")
            }
        }
        return parts.joined(separator: " ")
    }

    /// "  NAME     text…" with the text wrapped in the gutter; a long name gets its own line.
    static func entry(_ name: String, _ text: String) -> String {
        let head = "  " + name
        if head.count >= gutter {
            return head + "\n" + wrap(text, indent: gutter)
        }
        let padded = head + String(repeating: " ", count: gutter - head.count)
        let body = wrap(text, indent: gutter)
        return padded + String(body.dropFirst(gutter))
    }

    /// Words wrapped to `width` columns, every line indented by `indent` spaces.
    static func wrap(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var out = ""
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && indent + line.count + 1 + word.count > width {
                out += pad + line + "\n"
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { out += pad + line + "\n" }
        return out
    }
}
