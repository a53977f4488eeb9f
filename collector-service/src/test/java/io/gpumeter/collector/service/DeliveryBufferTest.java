package io.gpumeter.collector.service;

import io.gpumeter.common.problem.ApiProblem;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeliveryBufferTest {

    private static final Duration LINGER = Duration.ofMillis(100);

    /** The flushes a buffer started, held until the test runs them: what the buffer asks for, not when it happens. */
    private static final class Started implements DeliveryBuffer.Starter {
        final List<Duration> waits = new ArrayList<>();
        final List<Runnable> flushes = new ArrayList<>();

        @Override
        public void after(Duration wait, Runnable flush) {
            waits.add(wait);
            flushes.add(flush);
        }

        void runNext() {
            flushes.remove(0).run();
        }
    }

    @Test
    void aFactStartsAFlushALingerLaterAndTheFactsOfABurstShareItsBatch() {
        List<List<Object>> delivered = new ArrayList<>();
        Started started = new Started();
        DeliveryBuffer buffer = new DeliveryBuffer("facts", 100, 10, batch -> delivered.add(List.copyOf(batch)),
                LINGER, started);
        buffer.add(1);
        buffer.add(2);
        buffer.add(3);
        assertEquals(List.of(LINGER), started.waits, "one flush started, by the first fact, for the linger");
        assertEquals(List.of(), delivered, "nothing is sent on the thread that adds");
        started.runNext();
        assertEquals(List.of(List.of(1, 2, 3)), delivered);
        buffer.add(4);
        assertEquals(2, started.waits.size(), "a fact after the flush began starts the next one");
        started.runNext();
        assertEquals(List.of(List.of(1, 2, 3), List.of(4)), delivered);
        assertEquals(0, buffer.size());
    }

    @Test
    void aFactAddedWhileAStartedFlushSendsStartsAnotherSoItDoesNotWaitForTheTimer() {
        List<List<Object>> delivered = new ArrayList<>();
        Started started = new Started();
        DeliveryBuffer[] self = new DeliveryBuffer[1];
        self[0] = new DeliveryBuffer("facts", 100, 10, batch -> {
            if (batch.contains(1)) {
                self[0].add(2); // the watch goes on while the ledger stores the batch
            }
            delivered.add(List.copyOf(batch));
        }, LINGER, started);
        self[0].add(1);
        started.runNext();
        assertEquals(1, started.flushes.size(), "the fact that came during the send started a flush of its own");
        started.runNext();
        assertEquals(List.of(List.of(1), List.of(2)), delivered);
    }

    @Test
    void onceTheLedgerWasAwayFactsStartNoFlushUntilTheTimersFlushGetsThrough() {
        List<Object> delivered = new ArrayList<>();
        AtomicBoolean ledgerUp = new AtomicBoolean(false);
        Started started = new Started();
        DeliveryBuffer buffer = new DeliveryBuffer("facts", 100, 10, batch -> {
            if (!ledgerUp.get()) {
                throw new IllegalStateException("ledger down");
            }
            delivered.addAll(batch);
        }, LINGER, started);
        buffer.add(1);
        started.runNext();
        buffer.add(2);
        buffer.add(3);
        assertEquals(1, started.waits.size(), "an outage is not met with a delivery attempt per fact");
        assertEquals(3, buffer.size());
        ledgerUp.set(true);
        assertEquals(3, buffer.flush(), "the timer's flush is the retry");
        assertEquals(List.of(1, 2, 3), delivered);
        buffer.add(4);
        assertEquals(2, started.waits.size(), "once delivered again, a fact starts its flush");
        started.runNext();
        assertEquals(List.of(1, 2, 3, 4), delivered);
    }

    @Test
    void withoutALingerOnlyTheCallersFlushesSend() {
        List<Object> delivered = new ArrayList<>();
        Started started = new Started();
        DeliveryBuffer buffer = new DeliveryBuffer("facts", 100, 10, delivered::addAll, Duration.ZERO, started);
        buffer.add(1);
        assertEquals(List.of(), started.waits);
        assertEquals(1, buffer.flush());
        assertEquals(List.of(1), delivered);
    }

    @Test
    void aBatchTheLedgerRefusesGoesBackToTheFrontInOrder() {
        List<List<Object>> delivered = new ArrayList<>();
        AtomicBoolean ledgerUp = new AtomicBoolean(false);
        DeliveryBuffer buffer = new DeliveryBuffer("facts", 100, 2, batch -> {
            if (!ledgerUp.get()) {
                throw new IllegalStateException("ledger down");
            }
            delivered.add(List.copyOf(batch));
        });
        for (int i = 1; i <= 5; i++) {
            buffer.add(i);
        }
        assertEquals(0, buffer.flush());
        assertEquals(5, buffer.size(), "nothing lost while the ledger is down");
        ledgerUp.set(true);
        assertEquals(5, buffer.flush());
        assertEquals(List.of(List.of(1, 2), List.of(3, 4), List.of(5)), delivered);
        assertEquals(0, buffer.size());
    }

    @Test
    void aFailureMidwayKeepsWhatWasNotSent() {
        List<Object> delivered = new ArrayList<>();
        DeliveryBuffer buffer = new DeliveryBuffer("facts", 100, 2, batch -> {
            if (batch.contains(3)) {
                throw new IllegalStateException("refused");
            }
            delivered.addAll(batch);
        });
        for (int i = 1; i <= 4; i++) {
            buffer.add(i);
        }
        assertEquals(2, buffer.flush());
        assertEquals(List.of(1, 2), delivered);
        assertEquals(2, buffer.size());
    }

    @Test
    void aFactTheLedgerRefusesForGoodIsSetAsideAndTheRestFlows() {
        List<Object> delivered = new ArrayList<>();
        List<Integer> attemptSizes = new ArrayList<>();
        DeliveryBuffer buffer = new DeliveryBuffer("facts", 100, 8, batch -> {
            attemptSizes.add(batch.size());
            if (batch.contains(6)) {
                throw new ApiProblem(422, "Unprocessable Content", null, "the ledger refused the batch");
            }
            delivered.addAll(batch);
        });
        for (int i = 1; i <= 10; i++) {
            buffer.add(i);
        }
        assertEquals(9, buffer.flush());
        assertEquals(List.of(1, 2, 3, 4, 5, 7, 8, 9, 10), delivered);
        assertEquals(1, buffer.refused());
        assertEquals(0, buffer.size());
        // 8 refused, halves 4 ok / 4 refused, 2 refused / 2 ok, 1 ok / 1 refused alone; then the last 2
        assertEquals(List.of(8, 4, 4, 2, 1, 1, 2, 2), attemptSizes);
    }

    @Test
    void aLedgerFailingOnABatchIsIsolatedLikeARefusalButAnOutageIsNot() {
        List<Object> delivered = new ArrayList<>();
        AtomicBoolean outage = new AtomicBoolean(true);
        DeliveryBuffer buffer = new DeliveryBuffer("facts", 100, 4, batch -> {
            if (outage.get()) {
                throw new ApiProblem(503, "Service Unavailable", null, "ledger away");
            }
            if (batch.contains(2)) {
                throw new ApiProblem(500, "Internal Server Error", null, "the ledger failed on this batch");
            }
            delivered.addAll(batch);
        });
        for (int i = 1; i <= 4; i++) {
            buffer.add(i);
        }
        assertEquals(0, buffer.flush());
        assertEquals(4, buffer.size(), "an outage sets nothing aside");
        assertEquals(0, buffer.refused());
        outage.set(false);
        assertEquals(3, buffer.flush());
        assertEquals(List.of(1, 3, 4), delivered);
        assertEquals(1, buffer.refused());
    }

    @Test
    void anOutageWhileIsolatingKeepsWhatWasNotDelivered() {
        List<Object> delivered = new ArrayList<>();
        int[] calls = {0};
        DeliveryBuffer buffer = new DeliveryBuffer("facts", 100, 4, batch -> {
            calls[0]++;
            if (calls[0] == 3) {
                throw new IllegalStateException("connection reset");
            }
            if (batch.contains(1)) {
                throw new ApiProblem(422, "Unprocessable Content", null, "refused");
            }
            delivered.addAll(batch);
        });
        for (int i = 1; i <= 4; i++) {
            buffer.add(i);
        }
        // [1,2,3,4] refused, [1,2] refused, [1] hits the outage: nothing delivered, nothing set aside
        assertEquals(0, buffer.flush());
        assertEquals(4, buffer.size());
        assertEquals(0, buffer.refused());
        assertEquals(3, buffer.flush());
        assertEquals(List.of(2, 3, 4), delivered);
        assertEquals(0, buffer.size());
    }

    @Test
    void aFullBufferLosesNothingWhenProducersWaitDuringAFailedSend() throws InterruptedException {
        AtomicBoolean ledgerUp = new AtomicBoolean(false);
        List<Object> delivered = new ArrayList<>();
        List<Integer> sizesWhileSending = new ArrayList<>();
        Thread[] producer = new Thread[1];
        DeliveryBuffer[] self = new DeliveryBuffer[1];
        DeliveryBuffer buffer = new DeliveryBuffer("facts", 3, 10, batch -> {
            sizesWhileSending.add(self[0].size());
            if (!ledgerUp.get()) {
                // give the waiting producer every chance to take space the batch might have freed
                join(producer[0], 300);
                throw new IllegalStateException("ledger down");
            }
            delivered.addAll(batch);
        });
        self[0] = buffer;
        for (int i = 1; i <= 3; i++) {
            buffer.add(i);
        }
        producer[0] = new Thread(() -> buffer.add(4));
        producer[0].start();

        assertEquals(0, buffer.flush());
        assertEquals(List.of(3), sizesWhileSending, "the batch in flight still counts");
        assertEquals(3, buffer.size());
        assertTrue(producer[0].isAlive(), "the fourth fact waits for room");

        ledgerUp.set(true);
        buffer.flush();
        producer[0].join(5000);
        buffer.flush();
        assertEquals(List.of(1, 2, 3, 4), delivered, "every fact once, in order");
        assertEquals(0, buffer.size());
    }

    private static void join(Thread thread, long millis) {
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
