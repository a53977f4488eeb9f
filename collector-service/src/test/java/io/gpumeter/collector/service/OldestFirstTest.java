package io.gpumeter.collector.service;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OldestFirstTest {

    @Test
    void theTasksOfTheRequestThatArrivedFirstRunBeforeAnyOfALaterOneEachRequestsInItsOrder() throws Exception {
        OldestFirst threads = new OldestFirst(1, "test");
        try {
            Executor first = threads.forNextRequest();
            Executor second = threads.forNextRequest();
            Executor third = threads.forNextRequest();
            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            second.execute(() -> {
                busy.countDown();
                await(release);
            });
            assertTrue(busy.await(10, TimeUnit.SECONDS));

            List<String> ran = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(7);
            // queued while the only thread is busy, later requests' tasks before earlier ones'
            for (String task : List.of("third-1", "second-1", "third-2", "first-1", "second-2", "first-2", "first-3")) {
                Executor of = task.startsWith("first") ? first : task.startsWith("second") ? second : third;
                of.execute(() -> {
                    ran.add(task);
                    done.countDown();
                });
            }
            release.countDown();
            assertTrue(done.await(10, TimeUnit.SECONDS));

            assertEquals(List.of("first-1", "first-2", "first-3", "second-1", "second-2", "third-1", "third-2"), ran);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void everyThreadWorksWhileTasksWait() throws Exception {
        OldestFirst threads = new OldestFirst(2, "test");
        try {
            CountDownLatch both = new CountDownLatch(2);
            CountDownLatch release = new CountDownLatch(1);
            Executor only = threads.forNextRequest();
            for (int i = 0; i < 2; i++) {
                only.execute(() -> {
                    both.countDown();
                    await(release);
                });
            }
            assertTrue(both.await(10, TimeUnit.SECONDS), "two tasks of one request run at once on two threads");
            release.countDown();
        } finally {
            threads.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
