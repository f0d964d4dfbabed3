/// One parameter change that a graph applies when its render reaches `frame`.
///
/// Core Audio's `AudioUnitScheduleParameters` with an offset, seen from the whole graph: the
/// generic output splits its slice there, so the change lands on its exact sample time.
public struct ScheduledParameterChange {
    /// The sample time of the first frame rendered with the new value.
    public let frame: Int64
    /// The node whose parameter changes.
    public let node: AudioNode
    /// The parameter's number on `node`.
    public let parameter: ParameterID
    /// The new value, checked against the parameter's range when scheduled.
    public let value: Float
}

/// The changes scheduled on a graph, sorted by frame (changes on the same frame keep the order
/// they were scheduled in), and how far the render has applied them.
///
/// Everything is stored when a change is scheduled; applying changes while rendering only reads
/// the list and writes into storage made then, so rendering allocates nothing.
final class ParameterSchedule {
    private(set) var changes: [ScheduledParameterChange] = []
    /// For each change, the value its parameter had just before the change was applied.
    private var replaced: [Float] = []
    /// The index of the first change not yet applied.
    private var next = 0

    /// Inserts `change` after every change at its frame or before it, and after every change
    /// already applied: a change for a frame already rendered applies before the next slice.
    func insert(_ change: ScheduledParameterChange) {
        var low = next, high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].frame <= change.frame { low = middle + 1 } else { high = middle }
        }
        changes.insert(change, at: low)
        replaced.insert(0, at: low)
    }

    /// Forgets every change.
    func removeAll() {
        changes.removeAll()
        replaced.removeAll()
        next = 0
    }

    /// The frame of the first change not yet applied, if any.
    var nextFrame: Int64? { next < changes.count ? changes[next].frame : nil }

    /// Applies, in order, every change due at or before `time`.
    func apply(upTo time: Int64) throws {
        while next < changes.count, changes[next].frame <= time {
            let change = changes[next]
            replaced[next] = change.node.parameter(change.parameter)
            try change.node.setParameter(change.parameter, change.value)
            next += 1
        }
    }

    /// Undoes the applied changes, last first, so the parameters are back where the render
    /// started, and makes every change due again, in frame order (changes scheduled for frames
    /// already rendered wait for their own frames from now on).
    func rewind() throws {
        while next > 0 {
            next -= 1
            try changes[next].node.setParameter(changes[next].parameter, replaced[next])
        }
        changes = changes.enumerated()
            .sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
            .map(\.element)
    }
}
