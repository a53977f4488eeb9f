package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import io.smallrye.mutiny.subscription.UniEmitter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ChunksTest {

    @Test
    void slicesAreCutToSizeInOrder() {
        assertEquals(List.of(List.of(1, 2), List.of(3, 4), List.of(5)), Chunks.of(List.of(1, 2, 3, 4, 5), 2));
        assertEquals(List.of(), Chunks.of(List.of(), 3));
    }

    /** The slices' work, answered by the test: which slices have started, and the means to finish each. */
    private static final class Work {
        final Map<Integer, UniEmitter<? super String>> started = new TreeMap<>();
        int running;
        int mostRunning;

        Uni<String> on(List<Integer> slice) {
            return Uni.createFrom().emitter(e -> {
                started.put(slice.get(0), e);
                mostRunning = Math.max(mostRunning, ++running);
            });
        }

        void finish(int first) {
            running--;
            started.get(first).complete("slice " + first);
        }
    }

    @Test
    void twoSlicesAreInFlightAtOnceAndTheResultsKeepSliceOrder() {
        Work work = new Work();
        List<List<Integer>> slices = Chunks.of(List.of(0, 1, 2, 3, 4), 1);
        UniAssertSubscriber<List<String>> done = Chunks.overlapped(slices, work::on)
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        assertEquals(List.of(0, 1), new ArrayList<>(work.started.keySet()), "the first two slices start together");
        work.finish(1); // the second answers first
        assertEquals(List.of(0, 1, 2), new ArrayList<>(work.started.keySet()));
        work.finish(0);
        work.finish(2);
        work.finish(3);
        done.assertNotTerminated();
        work.finish(4);
        done.assertCompleted().assertItem(List.of("slice 0", "slice 1", "slice 2", "slice 3", "slice 4"));
        assertEquals(Chunks.IN_FLIGHT, work.mostRunning);
    }

    @Test
    void aFailedSliceFailsTheWholeAndStartsNoMore() {
        Work work = new Work();
        UniAssertSubscriber<List<String>> done = Chunks.overlapped(Chunks.of(List.of(0, 1, 2, 3), 1), work::on)
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        work.started.get(0).fail(new IllegalStateException("the statement failed"));
        done.assertFailedWith(IllegalStateException.class, "the statement failed");
        assertEquals(List.of(0, 1), new ArrayList<>(work.started.keySet()));
    }

    @Test
    void oneSliceIsRunAlone() {
        Work work = new Work();
        UniAssertSubscriber<List<String>> done = Chunks.overlapped(List.of(List.of(7, 8)), work::on)
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        work.finish(7);
        done.assertCompleted().assertItem(List.of("slice 7"));
    }
}
