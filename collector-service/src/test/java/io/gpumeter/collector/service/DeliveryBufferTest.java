package io.gpumeter.collector.service;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
