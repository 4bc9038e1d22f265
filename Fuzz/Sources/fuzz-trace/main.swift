import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#endif
import Trace

/// One trace file's bytes, line by line as replay reads it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    guard let read = try? TraceReader.trace(in: text, source: "fuzz", warn: { _ in }) else { return 0 }
    for record in read.records { _ = record.microseconds }
    return 0
}

// SwiftPM makes this file the program's main (lld lets it replace libFuzzer's own).
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTrace(data, size) })
