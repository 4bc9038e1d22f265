import Geometry

/// A handle to an item of a `DynamicsWorld`. Stale handles (item removed) are recognised.
public struct ItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let index: Int32
    let generation: UInt32
    public static func < (a: ItemID, b: ItemID) -> Bool { a.index < b.index || (a.index == b.index && a.generation < b.generation) }
    public var description: String { "item#\(index)" }
}

/// What a collision touched besides an item.
public enum BoundaryIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The world's reference bounds (UIKit passes a nil identifier for these).
    case referenceBounds
    case named(String)
    public var description: String {
        switch self { case .referenceBounds: return "referenceBounds"; case .named(let s): return s }
    }
}

/// A snapshot of one item, in screen pixels (y down) and radians (clockwise positive).
public struct DynamicItemState: Equatable, Sendable {
    public var center: Vec2
    public var rotation: Double
    /// Bounding-box size of the collision shape (unrotated).
    public var size: Vec2
    public var shape: ItemShape
    public var velocity: Vec2
    public var angularVelocity: Double
    public var isAsleep: Bool
    public var isAnchored: Bool
    public var isHeld: Bool
}

/// The animator: items, behaviors, reference bounds and a fixed-step solver (Box2D v3's soft
/// step with substeps and relaxation, speculative contacts, sequential elastic impacts).
///
/// ```swift
/// let world = DynamicsWorld(bounds: Rect(x: 0, y: 0, width: 480, height: 800))
/// let box = world.addItem(.rectangle(width: 100, height: 100), center: Vec2(240, 100))
/// let gravity = GravityBehavior(items: [box])          // 1.0 = 1000 px/s², down
/// let collision = CollisionBehavior(items: [box])
/// collision.translatesReferenceBoundsIntoBoundary = true
/// let bouncy = ItemBehavior(items: [box]); bouncy.elasticity = 0.6
/// [gravity, collision, bouncy].forEach(world.addBehavior)
/// world.onPause = { /* block the main loop until something changes */ }
/// world.advance(by: frameSeconds)                      // whole 1/120 s steps
/// draw(world.state(of: box)!)                          // centre, rotation, size, …
/// ```
public final class DynamicsWorld {
    /// The space the behaviors refer to (screen pixels, y down). Collision behaviors can turn it
    /// into a boundary.
    /// Bounds that are not finite, under a pixel wide or high, or beyond `DynamicsLimits` are
    /// refused.
    public var referenceBounds: Rect {
        didSet {
            if !DynamicsLimits.acceptsWorldBounds(referenceBounds) { referenceBounds = oldValue }
            if referenceBounds != oldValue { configurationChanged() }
        }
    }
    /// Fixed step, seconds (`DynamicsLimits.shortestStep` … `longestStep`; NaN is refused).
    /// `advance(by:)` consumes whole steps.
    public var timeStep: Double { didSet { timeStep = Self.acceptedStep(timeStep, else: oldValue) } }
    /// 1 … `DynamicsLimits.mostSubsteps`.
    public var substeps: Int { didSet { substeps = min(max(1, substeps), DynamicsLimits.mostSubsteps) } }
    /// Values that make no sense keep the old ones (`Tuning.accepted(else:)`).
    public var tuning = Tuning() { didSet { tuning = tuning.accepted(else: oldValue); configurationChanged() } }
    /// Sleeping on (default) lets a resting world pause; off keeps every body simulated.
    public var sleepingEnabled = true { didSet { if !sleepingEnabled { wakeAll() } } }
    /// At most this many steps (default 0.2 s worth) per `advance(by:)`; the rest of the time
    /// is dropped so that a stalled frame does not snowball.
    public var maxStepsPerAdvance = 24

    public internal(set) var elapsedTime = 0.0
    public internal(set) var stepCount = 0
    /// How many times the last-resort clamp had to put an item back inside the reference
    /// bounds (the solver should leave this at 0; a diagnostic, not a feature).
    public internal(set) var boundsCorrections = 0
    /// True when every item sleeps and nothing is held: stepping would change nothing, so the
    /// main loop may block. Any change to items, behaviors or boundaries resumes.
    public internal(set) var isPaused = true
    public var onPause: (() -> Void)?
    public var onResume: (() -> Void)?

    // Simulation state.
    var bodies = BodyTable(capacity: 64)
    var contacts = ContactTable(capacity: 256)
    var pairs = PairTable(capacity: 256)
    var broad = CandidatePairs()
    var freeSlots: [Int] = []
    var shapes: [ItemShape?] = []
    var sapOrder: [Int32] = []
    var stamp: UInt32 = 0
    var accumulator = 0.0
    var topBehaviors: [DynamicBehavior] = []
    var flatBehaviors: [DynamicBehavior] = []
    var configurationDirty = true
    var gravityDirty = false
    var boundarySignature: [BoundarySpec] = []
    var boundaryBodies: [Int] = []
    var boundaryNames: [BoundaryIdentifier?] = []   // per slot
    var boundsBoxes: [(rect: Rect, owner: UInt64)] = []
    var wasStatic: [Int] = []
    var holds: [Hold] = []
    var pendingEvents: [PendingEvent] = []

    // Per-step scratch (reused; grows only).
    var constraints = Storage<ContactConstraint>(capacity: 256, fill: ContactConstraint())
    var points = Storage<ConstraintPoint>(capacity: 512, fill: ConstraintPoint())
    var constraintCount = 0
    /// Over this step's constraints: the largest lever arm |r × n| of a moving body, and the
    /// largest speed (|vx| + |vy| + |w| |r × n|) of a point of a body that only pushes.
    var largestLever = 0.0, pusherSpeed = 0.0
    var joints: [JointConstraint] = []
    var awakeList = Storage<Int32>(capacity: 64, fill: 0)
    var awakeCount = 0
    var islandParent = Storage<Int32>(capacity: 64, fill: -1)
    var islandMin = Storage<Double>(capacity: 64, fill: 0)
    var islandHasAwake = Storage<Bool>(capacity: 64, fill: false)
    var sleepAnchor = Storage(capacity: 64, fill: SleepAnchor())   // per body
    var sweepBoxes = Storage(capacity: 64, fill: SweepBox(minX: 0, maxX: 0, minY: 0, maxY: 0, body: 0, active: false))
    /// The contact constraints grouped four to a row for the wide solver (`ContactRows.swift`).
    var rows = Storage<ContactRow>(capacity: 128, fill: ContactRow())
    var contactRowCount = 0
    var rowPoints = Storage<RowPoint>(capacity: 256, fill: RowPoint())
    var pairingBlock = Storage<Int32>(capacity: 64, fill: 0)   // per body
    var constraintPlaced = Storage<Bool>(capacity: 256, fill: false)
    /// Last step's pairing of constraints into rows (`buildRows`): each constraint's pairing
    /// key, each row's four constraints (−1: none); reused while the keys repeat.
    var pairingKeys = Storage<SIMD2<UInt64>>(capacity: 256, fill: SIMD2())
    var pairedRows = Storage<SIMD4<Int32>>(capacity: 128, fill: SIMD4())
    var pairedConstraintCount = -1, pairedRowCount = 0
    var schedule = RowSchedule()
    var constraintApproaching = Storage<Bool>(capacity: 256, fill: false)
    var impactWork = ImpactWorklist()
    var rolling = Storage<RollingConstraint>(capacity: 128, fill: RollingConstraint())
    var rollingCount = 0
    /// The solver's own copy of the bodies it touches during a step (`SolverBody`), slot 0
    /// the still one; `solverSlot` maps a body to its slot (0 outside the step).
    var solverBodies = Storage<SolverBody>(capacity: 64, fill: SolverBody())
    var solverBodyCount = 0
    var solverSlot = Storage<Int32>(capacity: 64, fill: 0)   // per body
    var solverGains = Storage<SolverGain>(capacity: 64, fill: SolverGain())
    /// Bodies given a slot of their own though they do not move (`loadSolverBodies`).
    var stillMovers: [Int] = []

    /// Bounds the limits refuse become a 1-pixel square at the origin; the step and the
    /// substeps are brought within their limits.
    public init(bounds: Rect, timeStep: Double = 1.0 / 120, substeps: Int = 4) {
        referenceBounds = DynamicsLimits.acceptsWorldBounds(bounds) ? bounds : Rect(x: 0, y: 0, width: 1, height: 1)
        self.timeStep = Self.acceptedStep(timeStep, else: 1.0 / 120)
        self.substeps = min(max(1, substeps), DynamicsLimits.mostSubsteps)
    }

    static func acceptedStep(_ step: Double, else fallback: Double) -> Double {
        step.isNaN ? fallback : min(max(DynamicsLimits.shortestStep, step), DynamicsLimits.longestStep)
    }

    deinit {
        // Behaviors may outlive the world; their unretained reference must not dangle.
        for behavior in topBehaviors { behavior.attach(to: nil) }
        bodies.release(); contacts.release(); pairs.release(); broad.release()
        constraints.release(); points.release(); awakeList.release()
        islandParent.release(); islandMin.release(); islandHasAwake.release(); impactWork.release(); sweepBoxes.release()
        rows.release(); rowPoints.release(); pairingBlock.release(); constraintPlaced.release(); constraintApproaching.release()
        rolling.release(); sleepAnchor.release()
        pairingKeys.release(); pairedRows.release(); schedule.release()
        solverBodies.release(); solverSlot.release(); solverGains.release()
    }

    // MARK: Items

    /// Adds an item; `nil`-free: a degenerate shape (or one larger than
    /// `DynamicsLimits.largestItem`) is replaced by a 1-pixel circle, a centre or rotation
    /// beyond the limits by the bounds' centre and 0, so callers never crash on bad input
    /// (check `shape(of:)` if you care).
    @discardableResult
    public func addItem(_ shape: ItemShape, center: Vec2, rotation: Double = 0) -> ItemID {
        let geometry = ShapeGeometry(shape) ?? ShapeGeometry(.circle(radius: 0.5))!
        let b = allocateBody()
        bodies.setGeometry(b, geometry)
        let c = DynamicsLimits.acceptsPoint(center) ? center : referenceBounds.center
        let r = DynamicsLimits.acceptsAngle(rotation) ? rotation : 0
        setPose(b, c, r)
        shapes[b] = ShapeGeometry(shape) != nil ? geometry.canonical(shape) : .circle(radius: 0.5)
        bodies.areaForMass(b, geometry)
        sapOrder.append(Int32(b))
        configurationChanged()
        return ItemID(index: Int32(b), generation: bodies.slot[b].generation)
    }

    public func removeItem(_ id: ItemID) {
        guard let b = body(id) else { return }
        if bodies.slot[b].holdIndex >= 0 { release(id) }
        // Every behavior, including ones added since the last step.
        func forget(_ behavior: DynamicBehavior) {
            behavior.forget(id)
            for child in behavior.childBehaviors { forget(child) }
        }
        for behavior in topBehaviors { forget(behavior) }
        destroyBody(b)
        configurationChanged()
    }

    public func contains(_ id: ItemID) -> Bool { body(id) != nil }

    /// Every live item, in slot order.
    public var itemIDs: [ItemID] {
        (0..<bodies.count).compactMap { b in
            bodies.slot[b].exists && !bodies.slot[b].isBoundary ? ItemID(index: Int32(b), generation: bodies.slot[b].generation) : nil
        }
    }

    /// Every live item's state in slot order, without building an array (drawing a frame).
    public func forEachItem(_ body: (ItemID, DynamicItemState) -> Void) {
        for b in 0..<bodies.count where bodies.slot[b].exists && !bodies.slot[b].isBoundary {
            let id = itemID(b)
            if let s = state(of: id) { body(id, s) }
        }
    }

    public func state(of id: ItemID) -> DynamicItemState? {
        guard let b = body(id), let shape = shapes[b] else { return nil }
        let slot = bodies.slot[b], pose = bodies.pose[b], motion = bodies.motion[b]
        return DynamicItemState(center: Vec2(pose.x, pose.y), rotation: pose.angle,
                                size: shape.size, shape: shape,
                                velocity: Vec2(motion.vx, motion.vy), angularVelocity: motion.w,
                                isAsleep: !slot.awake, isAnchored: slot.isStatic,
                                isHeld: slot.holdIndex >= 0)
    }

    public func center(of id: ItemID) -> Vec2? { body(id).map { Vec2(bodies.pose[$0].x, bodies.pose[$0].y) } }
    public func rotation(of id: ItemID) -> Double? { body(id).map { bodies.pose[$0].angle } }
    public func size(of id: ItemID) -> Vec2? { body(id).flatMap { shapes[$0]?.size } }
    public func shape(of id: ItemID) -> ItemShape? { body(id).flatMap { shapes[$0] } }
    public func velocity(of id: ItemID) -> Vec2? { body(id).map { Vec2(bodies.motion[$0].vx, bodies.motion[$0].vy) } }
    public func angularVelocity(of id: ItemID) -> Double? { body(id).map { bodies.motion[$0].w } }
    public func isAsleep(_ id: ItemID) -> Bool { body(id).map { !bodies.slot[$0].awake } ?? false }

    /// Teleports an item (UIKit: setting `center` then `updateItemUsingCurrentState`).
    public func setCenter(_ center: Vec2, of id: ItemID) {
        guard let b = body(id), DynamicsLimits.acceptsPoint(center) else { return }
        setPose(b, center, bodies.pose[b].angle); wake(b)
        // A moved anchored item may now touch sleepers: wake everything.
        if bodies.slot[b].isStatic { wakeAll() }
    }

    public func setRotation(_ rotation: Double, of id: ItemID) {
        guard let b = body(id), DynamicsLimits.acceptsAngle(rotation) else { return }
        setPose(b, Vec2(bodies.pose[b].x, bodies.pose[b].y), rotation); wake(b)
        if bodies.slot[b].isStatic { wakeAll() }
    }

    /// Speeds the solver could not bring down itself are capped (`cappedSpeed`).
    public func setVelocity(_ v: Vec2, of id: ItemID) {
        guard let b = body(id), v.isFinite, !bodies.slot[b].isStatic else { return }
        let capped = cappedSpeed(v)
        bodies.motion[b].vx = capped.x; bodies.motion[b].vy = capped.y; wake(b)
    }

    /// The solver brings every speed down to `tuning.maxLinearSpeed` as it integrates, but
    /// only speeds whose square is still a number: beyond `Self.fastestNumber` (or not finite
    /// after a sum) the speed is brought down to the limit here. Below it nothing changes, so
    /// results stay those of the solver's own clamp.
    func cappedSpeed(_ v: Vec2) -> Vec2 {
        let length = v.length
        guard !(length < Self.fastestNumber) else { return v }
        guard v.isFinite, length.isFinite else { return .zero }
        return v * (tuning.maxLinearSpeed / length)
    }
    static let fastestNumber = 1e12

    public func setAngularVelocity(_ w: Double, of id: ItemID) {
        guard let b = body(id), w.isFinite, !bodies.slot[b].isStatic, bodies.slot[b].allowsRotation else { return }
        bodies.motion[b].w = w; wake(b)
    }

    /// Changes the collision bounds at run time (pinch); mass follows density × area.
    public func setShape(_ shape: ItemShape, of id: ItemID) {
        guard let b = body(id), let geometry = ShapeGeometry(shape) else { return }
        bodies.setGeometry(b, geometry)
        shapes[b] = geometry.canonical(shape)
        bodies.areaForMass(b, geometry)
        bodies.updateMass(b)
        refreshShape(b)
        // Its manifolds no longer hold even where it did not move.
        for c in 0..<contacts.count where Int(contacts[c].a) == b || Int(contacts[c].b) == b { contacts[c].reach = -.infinity }
        wake(b)
        if bodies.slot[b].isStatic { wakeAll() }
    }

    /// Resizes the item's bounding box (a circle keeps the larger side as diameter).
    public func setSize(_ size: Vec2, of id: ItemID) {
        guard let b = body(id), let shape = shapes[b], size.isFinite, size.x > 0, size.y > 0 else { return }
        setShape(shape.resized(to: size), of: id)
    }

    /// Items whose collision bounds' box meets `rect`, in slot order.
    public func items(in rect: Rect) -> [ItemID] {
        itemIDs.filter { id in
            let b = Int(id.index)
            refreshShape(b)
            return bodies.box[b].maxX >= rect.minX && bodies.box[b].minX <= rect.maxX && bodies.box[b].maxY >= rect.minY && bodies.box[b].minY <= rect.maxY
        }
    }

    // MARK: Behaviors

    public var behaviors: [DynamicBehavior] { topBehaviors }

    public func addBehavior(_ behavior: DynamicBehavior) {
        guard behavior.world == nil, !topBehaviors.contains(where: { $0 === behavior }) else { return }
        topBehaviors.append(behavior)
        behavior.attach(to: self)
        configurationChanged()
    }

    public func removeBehavior(_ behavior: DynamicBehavior) {
        guard let i = topBehaviors.firstIndex(where: { $0 === behavior }) else { return }
        topBehaviors.remove(at: i)
        behavior.attach(to: nil)
        configurationChanged()
    }

    public func removeAllBehaviors() {
        for b in topBehaviors { b.attach(to: nil) }
        topBehaviors.removeAll()
        configurationChanged()
    }

    // MARK: Time

    /// Runs as many fixed steps as fit in the time accumulated so far; returns how many ran.
    @discardableResult
    public func advance(by seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        // Nothing moves while paused; the time spent blocked is not owed to the simulation.
        if isPaused { accumulator = 0; return 0 }
        accumulator += seconds
        var n = 0
        while accumulator >= timeStep * (1 - 1e-9) {
            accumulator -= timeStep
            if n >= maxStepsPerAdvance { accumulator = 0; break }
            step()
            n += 1
        }
        if accumulator < 0 { accumulator = 0 }
        return n
    }

    // MARK: Internals shared by the other files

    func body(_ id: ItemID) -> Int? {
        let b = Int(id.index)
        guard b >= 0, b < bodies.count, bodies.slot[b].exists, !bodies.slot[b].isBoundary, bodies.slot[b].generation == id.generation else { return nil }
        return b
    }

    func itemID(_ b: Int) -> ItemID { ItemID(index: Int32(b), generation: bodies.slot[b].generation) }

    func allocateBody() -> Int {
        let b: Int
        if let free = freeSlots.popLast() { b = free } else {
            b = bodies.count
            bodies.count += 1
            bodies.reserve(bodies.count)
            shapes.append(nil)
            boundaryNames.append(nil)
        }
        // Everything the previous occupant left goes; its ids no longer match.
        let generation = bodies.slot[b].generation &+ 1
        bodies.clear(b)
        bodies.slot[b].exists = true
        bodies.slot[b].generation = generation
        bodies.slot[b].awake = true
        return b
    }

    func destroyBody(_ b: Int) {
        broad.valid = false
        // Contacts of the body go first, with an ended event for touching ones.
        var c = 0
        while c < contacts.count {
            if Int(contacts[c].a) == b || Int(contacts[c].b) == b {
                if contacts[c].touching { queueEvent(contact: c, began: false) }
                destroyContact(c)
            } else { c += 1 }
        }
        if let i = sapOrder.firstIndex(of: Int32(b)) { sapOrder.remove(at: i) }
        bodies.slot[b].exists = false
        bodies.slot[b].awake = false
        shapes[b] = nil
        boundaryNames[b] = nil
        freeSlots.append(b)
        // Reuse the lowest slot first, so the layout does not depend on removal order.
        freeSlots.sort(by: >)
    }

    func destroyContact(_ c: Int) {
        pairs.remove(contacts[c].key)
        // The broad phase's candidates know their contacts by index (`CandidatePairs`).
        if broad.valid && contacts[c].candidate >= 0 { broad.pairs[Int(contacts[c].candidate)].contact = -1 }
        if let movedKey = contacts.removeSwapping(c) {
            pairs.update(movedKey, Int32(c))
            if broad.valid && contacts[c].candidate >= 0 { broad.pairs[Int(contacts[c].candidate)].contact = Int32(c) }
        }
    }

    func setPose(_ b: Int, _ center: Vec2, _ angle: Double) {
        bodies.pose[b].x = center.x; bodies.pose[b].y = center.y
        bodies.pose[b].angle = angle
        (bodies.pose[b].sinA, bodies.pose[b].cosA) = portableSinCos(angle)
        refreshShape(b)
    }

    func refreshShape(_ b: Int) {
        bodies.refreshWorldShape(b, margin: tuning.speculativeDistance)
    }

    func wake(_ b: Int) {
        if !bodies.slot[b].awake && !bodies.slot[b].isStatic { bodies.slot[b].awake = true }
        bodies.slot[b].sleepTime = 0
        if isPaused && !bodies.slot[b].isStatic { setPaused(false) }
    }

    func wakeAll() {
        for b in 0..<bodies.count where bodies.slot[b].exists && !bodies.slot[b].isStatic {
            bodies.slot[b].awake = true; bodies.slot[b].sleepTime = 0
        }
        if isPaused { setPaused(false) }
    }

    /// Something the solver derives from behaviors changed: recompute before the next step.
    func configurationChanged(wakeEverything: Bool = true) {
        configurationDirty = true
        if wakeEverything { wakeAll() } else if isPaused { setPaused(false) }
    }

    /// Only a gravity vector changed (a tilt, every frame): a cheap update, everything wakes.
    func gravityChanged() {
        gravityDirty = true
        wakeAll()
    }

    func setPaused(_ paused: Bool) {
        guard paused != isPaused else { return }
        isPaused = paused
        if paused { onPause?() } else { onResume?() }
    }
}

extension BodyTable {
    /// Records the shape's area and second moment; `updateMass` applies density.
    func areaForMass(_ b: Int, _ g: ShapeGeometry) {
        material[b].area = g.area
        material[b].areaInertia = g.areaInertia
        updateMass(b)
    }

    /// UIKit's mass unit: a 100×100 item of density 1 weighs 0.01, so that a push of magnitude
    /// 1 accelerates it at 100 px/s².
    func updateMass(_ b: Int) {
        let m = max(material[b].density, 1e-6) * material[b].area / 1_000_000
        let i = max(material[b].density, 1e-6) * material[b].areaInertia / 1_000_000
        material[b].mass = m; material[b].inertia = i
        material[b].invMass = slot[b].isStatic || m <= 0 ? 0 : 1 / m
        material[b].invI = slot[b].isStatic || !slot[b].allowsRotation || i <= 0 ? 0 : 1 / i
    }
}
