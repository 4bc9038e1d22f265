import ArgumentParser
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

/// Reads a whole text file; throws a message with the reason (missing, permission).
func readTextFile(_ path: String) throws -> String {
    guard let f = fopen(path, "rb") else { throw TextFileError(reason: String(cString: strerror(errno))) }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
        if n < chunk.count {
            if ferror(f) != 0 { throw TextFileError(reason: String(cString: strerror(errno))) }
            break
        }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw TextFileError(reason: "not UTF-8 text") }
    return text
}

struct TextFileError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
