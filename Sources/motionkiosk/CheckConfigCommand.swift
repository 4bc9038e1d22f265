import ArgumentParser
import KioskRuntime
import KioskConfig
#if canImport(Glibc)
import Glibc
#endif

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a configuration file and list every problem with its line and key.")

    @Argument(help: "The file to check.")
    var file: String = KioskConfiguration.defaultPath

    func run() throws {
        let text: String
        do { text = try readTextFile(file) } catch {
            printError("\(file): \(error)")
            throw ExitCode(1)
        }
        do {
            _ = try KioskConfiguration.parse(text, file: file)
            print("\(file): OK")
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
    }
}

struct DefaultConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "default-config",
        abstract: "Print the default configuration file, every key documented.")

    func run() { print(KioskConfiguration.defaultFileText, terminator: "") }
}

func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
