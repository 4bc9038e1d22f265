import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#endif
import Sensors

/// One sysfs text: a scan element's type, or a sampling-frequency menu.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIIOText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    if let scan = IIOScanType(text) { _ = scan.totalBytes; _ = scan.description }
    if let menu = FrequencyChoices(text) { _ = menu.choose(atLeast: 100); _ = menu.choose(atLeast: 1e300) }
    return 0
}

// SwiftPM makes this file the program's main (lld lets it replace libFuzzer's own).
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzIIOText(data, size) })
