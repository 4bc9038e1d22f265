import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#endif
import KioskConfig

/// One configuration file's bytes: read as the kiosk reads /etc/motionkiosk/config.toml.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? TOMLParser.parse(utf8: bytes)
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    _ = try? KioskConfiguration.parse(text, file: "fuzz.toml", warn: { _ in })
    return 0
}

// SwiftPM makes this file the program's main (lld lets it replace libFuzzer's own).
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzConfiguration(data, size) })
