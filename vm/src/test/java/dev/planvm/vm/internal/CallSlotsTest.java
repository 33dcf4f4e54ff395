package dev.planvm.vm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The call slots of a run tree: never waited for, bounded, and shared fairly between the runs of the tree. */
class CallSlotsTest {

    private static List<CallSlots.Slot> take(CallSlots.Member member, int most) {
        List<CallSlots.Slot> taken = new ArrayList<>();
        for (int i = 0; i < most; i++) {
            CallSlots.Slot slot = member.tryAcquire();
            if (slot == null) {
                break;
            }
            taken.add(slot);
        }
        return taken;
    }

    @Test
    void a_full_pool_refuses_at_once_and_a_released_slot_is_free_again() {
        CallSlots slots = new CallSlots(3);
        CallSlots.Member run = slots.join();
        List<CallSlots.Slot> taken = take(run, 10);
        assertThat(taken).hasSize(3);
        assertThat(run.tryAcquire()).isNull();
        taken.get(0).release();
        taken.get(0).release(); // a second release gives back nothing more
        assertThat(slots.used()).isEqualTo(2);
        assertThat(take(run, 10)).hasSize(1);
        assertThat(slots.peak()).isEqualTo(3);
    }

    @Test
    void a_slot_cancelled_before_its_work_began_is_free_at_once_and_its_work_must_not_run() {
        CallSlots slots = new CallSlots(1);
        CallSlots.Slot slot = slots.join().tryAcquire();
        slot.cancelled();
        assertThat(slots.used()).isZero();
        assertThat(slot.begin()).isFalse();
    }

    @Test
    void a_slot_cancelled_while_its_work_runs_is_free_when_the_work_ends() {
        CallSlots slots = new CallSlots(1);
        CallSlots.Slot slot = slots.join().tryAcquire();
        assertThat(slot.begin()).isTrue();
        slot.cancelled();
        assertThat(slots.used()).isEqualTo(1);
        slot.release();
        assertThat(slots.used()).isZero();
    }

    @Test
    void a_wide_map_gives_back_its_slots_to_a_sibling_that_wants_some_until_each_has_its_share() {
        CallSlots slots = new CallSlots(8);
        CallSlots.Member wide = slots.join();
        CallSlots.Member sibling = slots.join();
        List<CallSlots.Slot> wideHeld = take(wide, 8);
        assertThat(wideHeld).as("alone, the wide map may take every slot").hasSize(8);
        assertThat(sibling.tryAcquire())
                .as("none free: the sibling runs its call on its own thread")
                .isNull();

        for (int i = 0; i < 4; i++) { // the wide map's calls end one by one; it asks again each time
            wideHeld.remove(0).release();
            assertThat(wide.tryAcquire())
                    .as("the wide map holds more than its share (4) while its sibling wants one")
                    .isNull();
            assertThat(sibling.tryAcquire()).isNotNull();
            assertThat(sibling.tryAcquire())
                    .as("the pool is full again; the sibling still wants more")
                    .isNull();
        }
        wideHeld.remove(0).release();
        assertThat(wide.tryAcquire())
                .as("under its share again, the wide map gets a slot")
                .isNotNull();
    }

    @Test
    void a_run_that_wants_no_more_leaves_its_room_to_the_others_and_a_run_that_left_counts_no_more() {
        CallSlots slots = new CallSlots(4);
        CallSlots.Member a = slots.join();
        CallSlots.Member b = slots.join();
        List<CallSlots.Slot> held = take(a, 4);
        assertThat(b.tryAcquire()).isNull(); // b wants one
        held.remove(0).release();
        assertThat(a.tryAcquire()).as("b wants one and a holds more than half").isNull();
        b.satisfied();
        assertThat(a.tryAcquire()).as("b's map ended").isNotNull();

        held.get(0).release();
        assertThat(b.tryAcquire()).isNotNull();
        b.leave();
        CallSlots.Member c = slots.join();
        assertThat(c.tryAcquire())
                .as("b left; its slot is still held until its call ends")
                .isNull();
    }
}
