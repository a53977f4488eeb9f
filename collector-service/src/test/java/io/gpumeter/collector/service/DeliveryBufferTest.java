package io.gpumeter.collector.service;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeliveryBufferTest {

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
