import KioskConfig
import Syscalls

/// The configuration file at `given`, or at the default path; built-in defaults when none was
/// given and the default file does not exist. Its warnings go to `warn`.
public func loadConfiguration(_ given: String?, warn: (String) -> Void) throws(KioskError) -> KioskConfiguration {
    let path = given ?? KioskConfiguration.defaultPath
    if given == nil && !LinuxSystem.shared.fileExists(path) { return KioskConfiguration() }
    let text: String
    do { text = try readTextFile(path) } catch { throw KioskError("\(path): \(error)") }
    do { return try KioskConfiguration.parse(text, file: path, warn: { warn("\($0)") }) } catch { throw KioskError(error.description) }
}

/// Writes `line` into the [touch] table of the file at `path`, once the whole new file passes
/// the checks a reload makes; the file is replaced in one step (temporary, fsync, rename).
public func saveCalibration(_ line: String, to path: String, system: any SystemCalls = LinuxSystem.shared) -> Result<Void, KioskError> {
    let old: String
    if system.fileExists(path) {
        do { old = try readTextFile(path, system: system) } catch { return .failure(KioskError("\(path): \(error)")) }
    } else {
        old = ""
    }
    let new = configurationText(old, withCalibration: line)
    do { _ = try KioskConfiguration.parse(new, file: path) } catch { return .failure(KioskError(error.description)) }
    do { try writeFileAtomically(path, new, system: system) } catch { return .failure(KioskError("\(path): \(error)")) }
    return .success(())
}
