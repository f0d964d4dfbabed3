import AudioGraph
import Dispatch
import Synchronization

/// A fixed ring of audio blocks passed from one thread to another, in order.
///
/// The producer takes a free slot, fills it and publishes it; the consumer takes the next
/// filled slot, uses it and frees it. Each side waits on a semaphore only when the ring is
/// empty or full, so a steady stream flows without locks; nothing is allocated after init.
// Safe to share: slots change hands only through the semaphores, and each index is moved by one side.
final class SlotRing: @unchecked Sendable {
    /// One block: canonical buffers, how many frames are valid, and whether it is the last.
    /// Only the valid frames are ever read, and the producer writes them first, so the buffers
    /// start unzeroed.
    final class Slot {
        let storage: AudioBufferStorage
        var frames = 0
        var isLast = false
        var failure: (any Error)?

        init(channelCount: Int, capacity: Int) {
            storage = AudioBufferStorage(channelCount: channelCount, capacity: capacity, zeroed: false)
        }
    }

    let slots: [Slot]
    /// Frames each slot holds.
    let capacity: Int
    /// The producer's place: free slots are ready for it.
    private let producer = Side()
    /// The consumer's place: filled slots are ready for it.
    private let consumer = Side()
    private let stopping = Atomic<Bool>(false)

    init(slotCount: Int, channelCount: Int, capacity: Int) {
        self.capacity = capacity
        slots = (0..<slotCount).map { _ in Slot(channelCount: channelCount, capacity: capacity) }
        // Counted up from 0 rather than created at slotCount: libdispatch refuses to dispose of
        // a semaphore whose count is below the value it was created with.
        for _ in 0..<slotCount { producer.ready.signal() }
    }

    /// One side of the ring: the slot it is at, and the count of slots ready for it.
    private final class Side {
        let ready = DispatchSemaphore(value: 0)
        var index = 0
    }

    /// Waits until a slot is ready for `side` and returns it.
    private func take(_ side: Side) -> Slot {
        side.ready.wait()
        return slots[side.index]
    }

    /// Moves `side` past its slot and hands the slot to `other`.
    private func pass(_ side: Side, to other: Side) {
        side.index = (side.index + 1) % slots.count
        other.ready.signal()
    }

    /// Producer: waits for a free slot and returns it to be filled.
    func acquireFree() -> Slot { take(producer) }

    /// Producer: hands the slot from `acquireFree()` to the consumer.
    func publish() { pass(producer, to: consumer) }

    /// Consumer: waits for the next filled slot.
    func acquireFilled() -> Slot { take(consumer) }

    /// Consumer: gives the slot from `acquireFilled()` back to the producer.
    func release() { pass(consumer, to: producer) }

    /// Consumer: asks the producer to stop, waking it if it waits for a free slot.
    func requestStop() {
        stopping.store(true, ordering: .releasing)
        producer.ready.signal()
    }

    /// Producer: whether the consumer has gone away; check after `acquireFree()`.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }
}
