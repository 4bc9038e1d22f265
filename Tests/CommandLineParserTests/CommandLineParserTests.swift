@testable import CommandLineParser
import Testing

@Suite struct CommandLineParserTests {
    let tool = ToolSpec(
        name: "kiosk", abstract: "A tool.", version: "1.2.3",
        subcommands: [
            CommandSpec(name: "run", abstract: "Run it.", options: [
                OptionSpec("config", help: "Configuration file."),
                OptionSpec("seconds", help: "Leave after this many seconds."),
                OptionSpec("record-limit-mb", help: "Size limit, in MB.", defaultText: "16"),
                OptionSpec("display", help: "Where frames go.", defaultText: "auto", choices: ["auto", "drm", "virtual"]),
                OptionSpec("seed", help: "Seed."),
                .flag("legacy-modeset", help: "Legacy modesetting."),
                OptionSpec("frame-file", help: "Where the first frame goes."),
            ]),
            CommandSpec(name: "replay", abstract: "Replay a trace.", discussion: "Exit status: 2 for a bad trace.",
                        arguments: [ArgumentSpec("trace", help: "Trace file.", optional: true)],
                        options: [OptionSpec("out", help: "Folder.", required: true)]),
        ],
        defaultSubcommand: "run")

    private func parsed(_ words: [String]) throws -> ParsedCommand {
        guard case .run(let c) = try tool.parse(words) else { throw CommandLineError("not a run") }
        return c
    }

    @Test func valuesFlagsAndTheEqualsForm() throws {
        let c = try parsed(["run", "--config", "/etc/k.toml", "--seconds=2.5", "--legacy-modeset"])
        #expect(c.name == "run")
        #expect(c.string("config") == "/etc/k.toml")
        #expect(try c.number("seconds", in: 0...100) == 2.5)
        #expect(c.flag("legacy-modeset") && !c.flag("other"))
        #expect(try c.integer("record-limit-mb", in: 1...4096) == nil)   // not given: the caller's default applies
    }

    @Test func theDefaultSubcommandTakesOptionsAlone() throws {
        #expect(try parsed(["--seed", "7"]).name == "run")
        #expect(try parsed([]).name == "run")
    }

    @Test func positionalArgumentsAndDoubleDash() throws {
        let c = try parsed(["replay", "--out", "o", "--", "--weird-name.jsonl"])
        #expect(c.argument("trace") == "--weird-name.jsonl" && c.string("out") == "o")
        #expect(try parsed(["replay", "--out", "o"]).argument("trace") == nil)
    }

    @Test func errorsNameTheOptionAndWhatItWants() {
        func message(_ words: [String]) -> String? {
            do { _ = try tool.parse(words); return nil } catch { return error.message }
        }
        #expect(message(["run", "--frame-fil", "x"]) == "unknown option '--frame-fil' (did you mean --frame-file?)")
        #expect(message(["run", "--seconds"]) == "--seconds needs a value")
        #expect(message(["run", "--seed", "1", "--seed", "2"]) == "--seed is given more than once")
        #expect(message(["run", "--legacy-modeset=yes"]) == "--legacy-modeset takes no value")
        #expect(message(["replay"]) == "missing --out")
        #expect(message(["replay", "--out", "o", "a", "b"]) == "unexpected argument 'b'")
        #expect(message(["rnu"]) == "no subcommand named 'rnu' (did you mean run?)")
        #expect(message(["run", "-x"]) == "unknown option '-x'")
        // What the terminal would act on is shown, not sent; a huge word is cut.
        #expect(message(["run", "-\u{1B}]0;x\u{07}"]) == "unknown option '-\\u{1B}]0;x\\u{7}'")
        #expect(message(["\u{9B}2J"]) == "no subcommand named '\\u{9B}2J'")
        let said = message(["run", "-" + String(repeating: "x", count: 899_999)]) ?? ""
        #expect(said.count < 300 && said.contains("… (900000 characters)"), "\(said.prefix(300))")
    }

    @Test func numbersAreCheckedBeforeUse() throws {
        func failure(_ option: String, _ value: String, _ read: (ParsedCommand) throws -> Void) -> String? {
            do { try read(try parsed(["run", "--\(option)", value])); return nil } catch let e as CommandLineError { return e.message } catch { return "\(error)" }
        }
        #expect(failure("record-limit-mb", "9223372036854775807") { _ = try $0.integer("record-limit-mb", in: 1...4096) }
                == "--record-limit-mb '9223372036854775807': expected a whole number from 1 to 4096")
        #expect(failure("record-limit-mb", "99999999999999999999999") { _ = try $0.integer("record-limit-mb", in: 1...4096) } != nil)
        for bad in ["nan", "inf", "-inf", "1e300", "abc", "", "1e-300x"] {
            #expect(failure("seconds", bad) { _ = try $0.number("seconds", in: 0...86_400) } != nil, "\(bad)")
        }
        #expect(failure("seconds", "1e-300") { _ = try $0.number("seconds", in: 0...86_400) } == nil)
        // sensors --lines-per-second 1e-300 once meant a sleep of 1e300 s converted to an Int.
        #expect(failure("seconds", "1e-300") { _ = try $0.number("seconds", in: 0.001...1000) } != nil)
        #expect(failure("seed", "18446744073709551616") { _ = try $0.unsigned("seed") } != nil)
        #expect(failure("seed", "-1") { _ = try $0.unsigned("seed") } != nil)
        #expect(failure("display", "hdmi") { _ = try $0.choice("display", ["auto", "drm", "virtual"]) }
                == "--display 'hdmi': expected one of auto, drm, virtual")
        #expect(failure("frame-file", "") { _ = try $0.nonEmpty("frame-file") } == "--frame-file: must not be empty")
    }

    @Test func helpAndVersion() throws {
        #expect(try tool.parse(["--version"]) == .show("1.2.3\n"))
        #expect(try tool.parse(["run", "--version"]) == .show("1.2.3\n"))
        guard case .show(let top) = try tool.parse(["--help"]) else { Issue.record("no help"); return }
        #expect(top.contains("USAGE: kiosk <subcommand>"))
        #expect(top.contains("  run (default)           Run it.\n"))
        #expect(top.contains("See 'kiosk help <subcommand>' for detailed help."))
        guard case .show(let replay) = try tool.parse(["help", "replay"]) else { Issue.record("no help"); return }
        #expect(replay == """
            OVERVIEW: Replay a trace.

            Exit status: 2 for a bad trace.

            USAGE: kiosk replay [<trace>] --out <out>

            ARGUMENTS:
              <trace>                 Trace file.

            OPTIONS:
              --out <out>             Folder.
              --version               Show the version.
              -h, --help              Show help information.


            """)
        #expect(try tool.parse(["replay", "-h"]) == .show(replay))
        guard case .show(let run) = try tool.parse(["run", "--help"]) else { Issue.record("no help"); return }
        #expect(run.contains("  --display <display>     Where frames go. (values: auto, drm, virtual;\n                          default: auto)\n"))
        #expect(run.contains("  --record-limit-mb <record-limit-mb>\n                          Size limit, in MB. (default: 16)\n"))
        #expect(run.contains("  --legacy-modeset        Legacy modesetting.\n"))
        // Everything but the usage line (left whole, as other Swift tools do) fits 79 columns.
        #expect(run.split(separator: "\n").allSatisfy { $0.count < 80 || $0.hasPrefix("USAGE:") })
    }

    @Test func editDistanceFindsNearMisses() {
        #expect(editDistance("frame-fil", "frame-file") == 1)
        #expect(editDistance("", "abc") == 3)
        #expect(tool.suggestion("zzzzzz", ["run", "replay"]) == "")
    }
}
