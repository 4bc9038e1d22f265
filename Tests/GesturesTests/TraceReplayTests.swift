import Geometry
import Testing
import Trace
@testable import Gestures

/// The bridge the replay command uses: trace touch lines → touch frames.
func touchFrames(from records: [TraceRecord]) -> [TouchFrame] {
    TraceRecord.touchFrames(records).map { frame in
        let time = Microseconds((frame.t * 1000).rounded())
        return TouchFrame(time: time, events: frame.touches.map {
            TouchEvent(slot: $0.id, phase: $0.phase, position: Vec2($0.x, $0.y), time: time)
        })
    }
}

/// And back: synthetic frames written as a trace.
func traceRecords(from frames: [TouchFrame]) -> [TraceRecord] {
    frames.flatMap { frame in
        frame.events.map { e in
            TraceRecord(microseconds: e.time, .touch(phase: e.phase, id: e.slot, x: e.position.x, y: e.position.y))
        }
    }
}

@Suite("Traces through recognizers")
struct TraceReplayTests {
    @Test("a hand-written trace: tap to spawn, then a drag")
    func handWritten() throws {
        let text = """
        {"trace":"motionkiosk","version":1}
        # a visitor taps, then drags
        {"t":0,"type":"touch","phase":"down","id":0,"x":240,"y":400}
        {"t":40,"type":"touch","phase":"up","id":0,"x":240,"y":400}
        {"t":500,"type":"checkpoint","name":"after-spawn"}

        {"t":1000,"type":"touch","phase":"down","id":0,"x":100,"y":100}
        {"t":1040,"type":"touch","phase":"move","id":0,"x":120,"y":100}
        {"t":1040,"type":"accel","x":0,"y":9.81,"z":0}
        {"t":1080,"type":"touch","phase":"move","id":0,"x":140,"y":100}
        {"t":1120,"type":"touch","phase":"move","id":0,"x":160,"y":100}
        {"t":1160,"type":"touch","phase":"up","id":0,"x":160,"y":100}
        """
        let records = try TraceReader.records(in: text, source: "tap-then-drag.jsonl")
        let bench = Bench()
        let tap = bench.add(TapGestureRecognizer())
        var tapLocations: [Vec2] = []
        tap.action = { [log = bench.log] r in log.record(r); tapLocations.append(r.location) }
        let pan = bench.add(PanGestureRecognizer())
        var velocity = Vec2.zero
        pan.action = { [log = bench.log] r in log.record(r); if r.state == .ended { velocity = r.velocity } }
        bench.environment.handle(touchFrames(from: records))
        bench.environment.advance(to: 3_000_000)
        #expect(bench.log.summary("tap") == "ended")
        #expect(tapLocations == [Vec2(240, 400)])
        #expect(bench.log.summary("pan") == "began changed ended")
        #expect(near(velocity.x, 500, within: 1e-6) && velocity.y == 0)
    }

    @Test("synthetic gestures survive a write/read round trip as traces", arguments: [25.0, 120.0])
    func roundTripThroughText(rate: Double) throws {
        let frames = TouchScript(rate: rate, jitter: 2, twoFingerManipulation(center: Vec2(240, 400))).frames()
        let text = try TraceWriter.text(for: traceRecords(from: frames))
        let replayed = touchFrames(from: try TraceReader.records(in: text))
        #expect(replayed == frames)
    }
}
