// motionkiosk-bench: benchmarks that print one JSON line per result.
// Each benchmark lives in its own file; `benchmark(named:)` lists them.
#if canImport(Glibc)
import Glibc
#endif

import KioskRuntime

func benchmark(named name: String) -> (([String]) -> Int32)? {
    switch name {
    case "raster": return runRasterBench
    case "dynamics": return dynamicsBenchmark
    case "frame": return frameBenchmark
    case "visit": return visitBenchmark
    default: return nil
    }
}

// The same argument source as the kiosk's (Embedded Swift has no CommandLine).
let arguments = processArguments()
guard let name = arguments.first, let run = benchmark(named: name) else {
    FileHandleStderr.write("usage: motionkiosk-bench <dynamics|frame|raster|visit> [options]\n")
    exit(2)
}
exit(run(Array(arguments.dropFirst())))
