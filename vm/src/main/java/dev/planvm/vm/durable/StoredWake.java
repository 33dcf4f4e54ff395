package dev.planvm.vm.durable;

import java.time.Instant;

/**
 * The wake time a stored run keeps for one {@code sleep} call: kept when the sleep started, so a resumed run sleeps
 * only what is left of it.
 *
 * @param element the call's index in its {@code for_each} list, or {@code -1} for a call that is no element
 */
record StoredWake(int stepIndex, int seqNo, int element, Instant wakeAt) {}
