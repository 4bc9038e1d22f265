// motionkiosk: the kiosk executable. Subcommands are wired here; logic lives in the modules.
#if canImport(Glibc)
import Glibc
#endif

let usage = """
usage: motionkiosk [run] [options]
       motionkiosk --help
"""
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
print(usage)
exit(2)
