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
    final class Slot {
        let storage: AudioBufferStorage
        var frames = 0
        var isLast = false
        var failure: (any Error)?

        init(channelCount: Int, capacity: Int) {
            storage = AudioBufferStorage(channelCount: channelCount, capacity: capacity)
        }
    }

    let slots: [Slot]
    /// Frames each slot holds.
    let capacity: Int
    private let free = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)
    private var produceIndex = 0
    private var consumeIndex = 0
    private let stopping = Atomic<Bool>(false)

    init(slotCount: Int, channelCount: Int, capacity: Int) {
        self.capacity = capacity
        slots = (0..<slotCount).map { _ in Slot(channelCount: channelCount, capacity: capacity) }
        // Counted up from 0 rather than created at slotCount: libdispatch refuses to dispose of
        // a semaphore whose count is below the value it was created with.
        for _ in 0..<slotCount { free.signal() }
    }

    /// Producer: waits for a free slot and returns it to be filled.
    func acquireFree() -> Slot {
        free.wait()
        return slots[produceIndex]
    }

    /// Producer: hands the slot from `acquireFree()` to the consumer.
    func publish() {
        produceIndex = (produceIndex + 1) % slots.count
        filled.signal()
    }

    /// Consumer: waits for the next filled slot.
    func acquireFilled() -> Slot {
        filled.wait()
        return slots[consumeIndex]
    }

    /// Consumer: gives the slot from `acquireFilled()` back to the producer.
    func release() {
        consumeIndex = (consumeIndex + 1) % slots.count
        free.signal()
    }

    /// Consumer: asks the producer to stop, waking it if it waits for a free slot.
    func requestStop() {
        stopping.store(true, ordering: .releasing)
        free.signal()
    }

    /// Producer: whether the consumer has gone away; check after `acquireFree()`.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }
}
