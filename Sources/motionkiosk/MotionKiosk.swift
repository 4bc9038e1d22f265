// motionkiosk: the kiosk executable. Each subcommand lives in its own file of this folder;
// logic lives in the modules, this target only wires them.
import ArgumentParser

@main
struct MotionKiosk: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motionkiosk",
        abstract: "Touch-and-tilt exhibits drawn straight to the framebuffer.",
        version: "0.1.0",
        subcommands: [RunCommand.self, Version.self, CheckConfig.self, DefaultConfig.self, ReplayCommand.self, SensorsCommand.self, Devices.self, Pattern.self],
        defaultSubcommand: RunCommand.self
    )
}

struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the version.")
    func run() { print(MotionKiosk.configuration.version) }
}
