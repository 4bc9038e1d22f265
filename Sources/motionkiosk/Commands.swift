import CommandLineParser
import KioskConfig
import Sensors

let motionKioskVersion = "0.2.0"

/// The display options shared by the kiosk and the installer commands.
let displayOptions: [OptionSpec] = [
    OptionSpec("display", help: "auto (DRM when a connected display can be driven, else the virtual panel), drm or virtual.",
               defaultText: "auto", choices: ["auto", "drm", "virtual"]),
    OptionSpec("card", help: "DRM card device node, e.g. /dev/dri/card1 (default: found through udev)."),
    OptionSpec("connector", help: "Connector name, e.g. DSI-1, HDMI-A-1, Virtual-1 (default: the first connected)."),
    OptionSpec("mode", help: "Mode WIDTHxHEIGHT[@HZ] (default: the connector's preferred mode)."),
    OptionSpec("rotation", help: "auto, 0, 90, 180 or 270: how the portrait picture is turned onto the panel.", defaultText: "auto"),
    OptionSpec("format", help: "Scanout format: auto (xrgb8888), xrgb8888 or rgb565.", defaultText: "auto"),
    OptionSpec("buffers", help: "Scanout buffers: 2 or 3.", defaultText: "2"),
    .flag("legacy-modeset", help: "Use legacy SetCrtc + PageFlip even where the driver offers atomic commits."),
    OptionSpec("seat", help: "libinput seat.", defaultText: "seat0"),
]

let motionKioskCommandLine = ToolSpec(
    name: "motionkiosk",
    abstract: "Touch-and-tilt exhibits drawn straight to the framebuffer.",
    version: motionKioskVersion,
    subcommands: [
        CommandSpec(name: "run", abstract: "Run the kiosk (the default). Without a drivable display, plays each exhibit's demo on the virtual panel and writes previews.",
                    discussion: "Signals, as the service uses them: SIGHUP (systemctl reload motionkiosk) reads the configuration again and applies it, or refuses it and runs on unchanged; in a terminal it leaves, as a closed session means. SIGUSR1 (systemctl kill -s USR1 motionkiosk) logs one status line (what is showing, frames, touches, memory) and writes a black-box dump. SIGUSR2 (sent by motionkiosk screenshot) writes a PNG of the screen to \(serviceScreenshotFile). SIGTERM (systemctl stop), SIGINT or SIGQUIT leave and give the display and console back. Signals sent while the kiosk starts wait until it runs; its pid file (\(servicePidFile)) is written only then.",
                    options: [OptionSpec("config", help: "Configuration file (default \(KioskConfiguration.defaultPath) when it exists, else built-in defaults).")]
                        + displayOptions + [
                        OptionSpec("exhibit", help: "Show only this exhibit, without a home control (overrides exhibits.locked)."),
                        OptionSpec("seed", help: "Seed of the kiosk's random generator (default: from the clock)."),
                        OptionSpec("record", help: "Record touches and sensor samples as a trace to this file (rolls to FILE.1 at the limit)."),
                        OptionSpec("record-limit-mb", help: "Size limit of a recorded trace file, in MB.", defaultText: "16"),
                        OptionSpec("preview-dir", help: "Folder for the previews written when no display can be driven.", defaultText: "preview"),
                        OptionSpec("seconds", help: "Leave after this many seconds (tests and benches)."),
                        OptionSpec("frame-file", help: "Write the first frame that reached the screen to this file (binary PPM, portrait), for comparing with the scanout."),
                        OptionSpec("state-file", help: "On leaving, write the kiosk's state (JSON, as replay writes it) to this file: with --record, a replay of the trace gives the same state at its \"end\" checkpoint."),
                    ]),
        CommandSpec(name: "version", abstract: "Print the version."),
        CommandSpec(name: "check-config", abstract: "Check a configuration file and list every problem with its line and key.",
                    arguments: [ArgumentSpec("file", help: "The file to check.", optional: true, defaultText: KioskConfiguration.defaultPath)]),
        CommandSpec(name: "default-config", abstract: "Print the default configuration file, every key documented."),
        CommandSpec(name: "screenshot", abstract: "Ask the running kiosk service for a PNG of what is on its screen.",
                    options: [
                        OptionSpec("out", help: "Where the PNG goes.", defaultText: "screenshot.png"),
                        OptionSpec("pid", help: "The kiosk's process id (default: the service's, from /run/motionkiosk/motionkiosk.pid)."),
                    ]),
        CommandSpec(name: "stats", abstract: "Print the anonymous visitor counts: per day and exhibit, sessions, time played, touches, languages, demos turned into play.",
                    options: [
                        .flag("csv", help: "One CSV line per exhibit and hour instead of the table."),
                        OptionSpec("file", help: "The counts file ([metrics] visitors_path; <file>.1 is read too).", defaultText: "/var/lib/motionkiosk/visitors.csv"),
                    ]),
        CommandSpec(name: "replay", abstract: "Replay a trace on the virtual panel with a virtual clock; write a PNG and a state JSON at each checkpoint.",
                    discussion: "Exit status: 0 when the trace is done, 2 for a bad trace (the message names the line).",
                    arguments: [ArgumentSpec("trace", help: "Trace file (JSON Lines), a black-box dump folder (its trace with its config.toml; the state at its \"blackbox\" checkpoint is compared with its state.json: exit 1 when they differ), or with --demo nothing.", optional: true)],
                    options: [
                        OptionSpec("demo", help: "Replay a built-in trace instead of a file: an exhibit's attract demo with a checkpoint every 0.5 s, or 'launcher' (each tile tapped in turn). For comparing builds and CPUs."),
                        .flag("list-demos", help: "Print the names --demo takes, one a line (launcher, then each exhibit of the launcher), and stop: scripts that replay every demo read them here."),
                        OptionSpec("exhibit", help: "Exhibit to run, or 'launcher' for the whole kiosk from its launcher (idle timer included) (default: the trace header's, else launcher)."),
                        OptionSpec("size", help: "Portrait size WIDTHxHEIGHT (default: the trace header's, else 480x800)."),
                        OptionSpec("seed", help: "Seed of the kiosk's random generator (default: the trace header's, else 1)."),
                        OptionSpec("config", help: "A stand's configuration file: the trace runs as that stand would run it (exhibit order and options, locked exhibit, idle and attract times, stuck-finger time, motion filtering), in place of the trace header's; --exhibit, --size and --seed still win."),
                        OptionSpec("start-time", help: "The stand's wall clock at the trace's start, local time, e.g. 2026-11-23T17:59:00: with --config, its opening hours apply on the virtual clock, which runs through the time zone's rules (a night clocks go forward has 23 hours)."),
                        OptionSpec("timezone", help: "The stand's time zone for --start-time, e.g. Europe/Berlin (a name under /usr/share/zoneinfo).", defaultText: "TZ, else the system's"),
                        OptionSpec("clock", help: "trusted | untrusted: whether the stand's wall clock can be believed; untrusted: the hours wait and [schedule] when_clock_unknown says whether it is open. The state JSON reports \"clock\".", defaultText: "trusted"),
                        OptionSpec("out", help: "Folder for <checkpoint>.png and <checkpoint>.json (created if missing).", defaultText: "."),
                    ]),
        CommandSpec(name: "sensors", abstract: "Print live tilt, gravity, shake and altitude readings until Ctrl-C.",
                    discussion: "Lines show the screen-frame acceleration (m/s²; x → screen right, y → screen top, z out of the glass), the low-passed gravity, the dynamics world's gravity (UIKit units, y down) and the altitude relative to the start. Shakes print as they happen.",
                    options: [
                        OptionSpec("accelerometer", help: "auto, iio:deviceN, iio:NAME, i2c:BUS[:ADDR][:CHIP] (chip lis3dh, adxl345, mpu6050), keys, fixed.", defaultText: "auto"),
                        OptionSpec("replay", help: "Replay 'seconds ax ay az' lines (screen frame) instead of a sensor."),
                        OptionSpec("iio-mode", help: "IIO read mode: auto, buffered, polled.", defaultText: "auto"),
                        OptionSpec("trigger", help: "IIO trigger for buffered mode (e.g. an hrtimer trigger)."),
                        OptionSpec("mount", help: "Board mount: \(BoardMount.names.joined(separator: ", ")), or a matrix 'a, b, c; d, e, f; g, h, i'.", defaultText: "normal"),
                        OptionSpec("rotation", help: "Panel rotation in degrees (0, 90, 180, 270): how the portrait picture is turned onto the panel.", defaultText: "0"),
                        OptionSpec("sysfs-root", help: "IIO sysfs root.", defaultText: "/sys/bus/iio/devices"),
                        OptionSpec("dev-root", help: "Where iio:deviceN and i2c-N device nodes are.", defaultText: "/dev"),
                        OptionSpec("rate", help: "Lowest sampling rate to ask the sensor for, Hz.", defaultText: "50.0"),
                        OptionSpec("time-constant", help: "Gravity low-pass time constant, seconds.", defaultText: "0.1"),
                        OptionSpec("stuck-seconds", help: "Identical readings for this many seconds count as a stuck sensor (0: never).", defaultText: "10.0"),
                        OptionSpec("seconds", help: "Stop after this many seconds (default: run until Ctrl-C)."),
                        OptionSpec("lines-per-second", help: "Reading lines per second.", defaultText: "10.0"),
                        .flag("no-barometer", help: "Do not look for a barometer."),
                    ]),
        CommandSpec(name: "devices", abstract: "List DRM cards, connectors and modes (and which would be chosen), and input devices with their capabilities.",
                    options: displayOptions),
        CommandSpec(name: "pattern", abstract: "Show a test pattern: grid, corner markers, an arrow to the portrait top, colour bars, a dot under every finger.",
                    discussion: "Logs one line per touch change (\"touch down id=0 x=240.0 y=400.0\", portrait pixels), the gestures the gesture layer recognises (\"gesture tap x=… y=…\", \"gesture pinch ended scale=…\"), and \"pattern: frame on screen\" once the first frame has been flipped to the display. Leaves on Escape, SIGTERM, SIGINT, SIGHUP, SIGQUIT or after --seconds, and gives the console back; SIGUSR1 logs a status line.",
                    options: displayOptions + [
                        OptionSpec("seconds", help: "Leave after this many seconds (default: run until Escape or a signal)."),
                        OptionSpec("frame-file", help: "Once the first frame is on screen, write the portrait frame to this file (binary PPM)."),
                        .flag("no-input", help: "Do not open input devices."),
                    ]),
        CommandSpec(name: "calibrate", abstract: "Calibrate the touch panel: touch four targets; prints the [touch] calibration line that lines touch up with the picture.",
                    discussion: "Fits through the configuration's present [touch] transform and calibration and the display's rotation, and shows the result live (a ring where a finger is reported, a dot where the new calibration puts it); hold 2 s to start again. Stop the kiosk service first (systemctl stop motionkiosk). With --save the line is written into the configuration file's [touch] table once the whole file passes check-config's checks; systemctl reload motionkiosk then applies it. Leaves on Escape, SIGTERM, SIGINT or after --seconds.",
                    options: displayOptions + [
                        OptionSpec("config", help: "Configuration file (default \(KioskConfiguration.defaultPath))."),
                        .flag("save", help: "Write the fitted line into the configuration file."),
                        OptionSpec("seconds", help: "Leave after this many seconds (default: run until Escape or a signal)."),
                    ]),
    ],
    defaultSubcommand: "run")
