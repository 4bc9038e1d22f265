/// The command line of a tool, described as data: subcommands with their options, flags and
/// arguments, the help texts, the default subcommand. Parsing and help are plain functions
/// over it, so the same source builds with Embedded Swift (no reflection, no metatypes).
public struct ToolSpec: Sendable {
    public var name: String
    public var abstract: String
    public var version: String
    public var subcommands: [CommandSpec]
    /// Run when the first argument names no subcommand.
    public var defaultSubcommand: String?

    public init(name: String, abstract: String, version: String, subcommands: [CommandSpec], defaultSubcommand: String? = nil) {
        self.name = name; self.abstract = abstract; self.version = version
        self.subcommands = subcommands; self.defaultSubcommand = defaultSubcommand
    }

    public func subcommand(_ name: String) -> CommandSpec? {
        for c in subcommands where c.name == name { return c }
        return nil
    }
}

/// One subcommand.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]

    public init(name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [], options: [OptionSpec] = []) {
        self.name = name; self.abstract = abstract; self.discussion = discussion
        self.arguments = arguments; self.options = options
    }

    public func option(_ name: String) -> OptionSpec? {
        for o in options where o.name == name { return o }
        return nil
    }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var isOptional: Bool
    /// Shown in help as "(default: …)".
    public var defaultText: String?

    public init(_ name: String, help: String, optional: Bool = false, defaultText: String? = nil) {
        self.name = name; self.help = help; isOptional = optional; self.defaultText = defaultText
    }
}

/// `--name VALUE` (or `--name=VALUE`), or a flag `--name`.
public struct OptionSpec: Sendable {
    public var name: String
    public var help: String
    public var isFlag: Bool
    public var isRequired: Bool
    /// Shown in help as "(default: …)" (or "(values: …; default: …)" with `choices`).
    public var defaultText: String?
    /// The values it takes, when they are a fixed list (shown in help, checked by `choice`).
    public var choices: [String]

    public init(_ name: String, help: String, defaultText: String? = nil, choices: [String] = [], required: Bool = false) {
        self.name = name; self.help = help; isFlag = false; isRequired = required
        self.defaultText = defaultText; self.choices = choices
    }

    public static func flag(_ name: String, help: String) -> OptionSpec {
        var o = OptionSpec(name, help: help)
        o.isFlag = true
        return o
    }
}

/// A command line that cannot be run, in words that name the option and what it wants.
public struct CommandLineError: Error, Equatable, CustomStringConvertible {
    public var message: String
    /// The subcommand whose usage to show with the message, if any.
    public var command: String?
    public init(_ message: String, command: String? = nil) { self.message = message; self.command = command }
    public var description: String { message }
}
