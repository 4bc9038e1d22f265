import Diagnostics
/// What the command line asks for.
public enum CommandLineRequest: Equatable, Sendable {
    case run(ParsedCommand)
    /// Print this text and leave successfully (help, version).
    case show(String)
}

/// One subcommand's values, with typed getters that check what they convert: every number
/// from a flag is finite and in the range the caller names before it becomes a number the
/// kiosk uses, and every error names the option.
public struct ParsedCommand: Equatable, Sendable {
    public let name: String
    public private(set) var values: [String: String] = [:]
    public private(set) var flags: Set<String> = []
    public private(set) var arguments: [String: String] = [:]

    init(name: String) { self.name = name }

    public func flag(_ option: String) -> Bool { flags.contains(option) }
    public func string(_ option: String) -> String? { values[option] }
    public func argument(_ name: String) -> String? { arguments[name] }

    /// A value that must not be empty ("--out ''" writes nowhere sensible).
    public func nonEmpty(_ option: String) throws(CommandLineError) -> String? {
        guard let v = values[option] else { return nil }
        guard !v.isEmpty else { throw CommandLineError("--\(option): must not be empty", command: name) }
        return v
    }

    public func integer(_ option: String, in range: ClosedRange<Int>) throws(CommandLineError) -> Int? {
        guard let text = values[option] else { return nil }
        guard let v = Int(text), range.contains(v) else {
            throw CommandLineError("--\(option) \(echoed(text)): expected a whole number from \(range.lowerBound) to \(range.upperBound)", command: name)
        }
        return v
    }

    public func unsigned(_ option: String) throws(CommandLineError) -> UInt64? {
        guard let text = values[option] else { return nil }
        guard let v = UInt64(text) else {
            throw CommandLineError("--\(option) \(echoed(text)): expected a whole number from 0 to 18446744073709551615", command: name)
        }
        return v
    }

    public func number(_ option: String, in range: ClosedRange<Double>) throws(CommandLineError) -> Double? {
        guard let text = values[option] else { return nil }
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            throw CommandLineError("--\(option) \(echoed(text)): expected a number from \(describe(range.lowerBound)) to \(describe(range.upperBound))", command: name)
        }
        return v
    }

    /// One of the option's `choices`.
    public func choice(_ option: String, _ choices: [String]) throws(CommandLineError) -> String? {
        guard let text = values[option] else { return nil }
        guard choices.contains(text) else {
            throw CommandLineError("--\(option) \(echoed(text)): expected one of \(choices.joined(separator: ", "))", command: name)
        }
        return text
    }

    private func describe(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? "\(Int64(v))" : "\(v)"
    }

    mutating func set(_ option: String, _ value: String) { values[option] = value }
    mutating func set(flag: String) { flags.insert(flag) }
    mutating func set(argument: String, _ value: String) { arguments[argument] = value }
}

extension ToolSpec {
    /// Parses `arguments` (without the program name).
    public func parse(_ arguments: [String]) throws(CommandLineError) -> CommandLineRequest {
        var rest = arguments[...]
        if let first = rest.first {
            switch first {
            case "-h", "--help": return .show(help())
            case "--version": return .show(version + "\n")
            case "help":
                rest = rest.dropFirst()
                guard let name = rest.first else { return .show(help()) }
                guard let command = subcommand(name) else { throw CommandLineError("no subcommand named \(echoed(name))" + suggestion(name, subcommands.map { $0.name })) }
                return .show(help(for: command))
            default: break
            }
        }
        let command: CommandSpec
        if let first = rest.first, let named = subcommand(first) {
            command = named
            rest = rest.dropFirst()
        } else if let name = defaultSubcommand, let fallback = subcommand(name) {
            if let first = rest.first, !first.hasPrefix("-") {
                throw CommandLineError("no subcommand named \(echoed(first))" + suggestion(first, subcommands.map { $0.name }))
            }
            command = fallback
        } else {
            throw CommandLineError("a subcommand is needed: " + subcommands.map { $0.name }.joined(separator: ", "))
        }
        return try parse(rest, for: command)
    }

    private func parse(_ words: ArraySlice<String>, for command: CommandSpec) throws(CommandLineError) -> CommandLineRequest {
        var parsed = ParsedCommand(name: command.name)
        var positional: [String] = []
        var onlyPositional = false
        var i = words.startIndex
        while i < words.endIndex {
            let word = words[i]
            i += 1
            if onlyPositional || !word.hasPrefix("-") || word == "-" {
                positional.append(word)
                continue
            }
            if word == "--" { onlyPositional = true; continue }
            if word == "-h" || word == "--help" { return .show(help(for: command)) }
            if word == "--version" { return .show(version + "\n") }
            guard word.hasPrefix("--") else {
                throw CommandLineError("unknown option \(echoed(word))", command: command.name)
            }
            var name = String(word.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = command.option(name) else {
                throw CommandLineError("unknown option " + echoed("--" + name) + suggestion(name, command.options.map { $0.name }, prefix: "--"), command: command.name)
            }
            if option.isFlag {
                if inline != nil { throw CommandLineError("--\(name) takes no value", command: command.name) }
                parsed.set(flag: name)
                continue
            }
            if parsed.string(name) != nil { throw CommandLineError("--\(name) is given more than once", command: command.name) }
            if let inline {
                parsed.set(name, inline)
            } else {
                guard i < words.endIndex else { throw CommandLineError("--\(name) needs a value", command: command.name) }
                parsed.set(name, words[i])
                i += 1
            }
        }
        for option in command.options where option.isRequired && parsed.string(option.name) == nil {
            throw CommandLineError("missing --\(option.name)", command: command.name)
        }
        var k = 0
        for argument in command.arguments {
            if k < positional.count {
                parsed.set(argument: argument.name, positional[k])
                k += 1
            } else if !argument.isOptional {
                throw CommandLineError("missing <\(argument.name)>", command: command.name)
            }
        }
        if k < positional.count { throw CommandLineError("unexpected argument \(echoed(positional[k]))", command: command.name) }
        return .run(parsed)
    }

    /// " (did you mean --frame-file?)" for a near miss; "" otherwise.
    func suggestion(_ word: String, _ candidates: [String], prefix: String = "") -> String {
        var best: (name: String, distance: Int)?
        // A word far longer than any name is no misspelling (and would cost its length squared).
        guard word.utf8.count <= 64 else { return "" }
        for c in candidates {
            let d = editDistance(word, c)
            if d <= max(2, c.count / 3), d < (best?.distance ?? Int.max) { best = (c, d) }
        }
        guard let best else { return "" }
        return " (did you mean \(prefix)\(best.name)?)"
    }
}

/// Levenshtein distance, for "did you mean".
func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a.utf8), y = Array(b.utf8)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var previous = Array(0...y.count)
    var current = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
        current[0] = i
        for j in 1...y.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[y.count]
}
